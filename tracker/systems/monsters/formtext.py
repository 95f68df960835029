"""Spaces, paths, attack dice, figures and maps as people type them in a form, read into data.

What the schemas and the settings read (a view writes a path back as `views.path_text`).

An HTML form sends text: a space as "3,2" (or "(3, 2)"), a path as the spaces it enters one
after another ("3,2 3,3 3,4"), the dice of an attack as "attacker / defender" for each round,
rounds separated by ";" ("1 / 6 3; 4 / 5", "6 2/4"). The schemas accept that text as well as
the JSON shapes, and turn it into the same data; a text they cannot read is refused in words.
A campaign's own figures and map are typed as lines (`figures`, `game_map`) and become the
settings' `figures` and `maps` entries, which their schemas then check.
"""

from __future__ import annotations

import re

from tracker.systems.i18n import N_, _

PAIR = re.compile(r"(-?\d+)\s*,\s*(-?\d+)")
SPACE_HELP = N_("a space is written q,r (for example 3,2)")
PATH_HELP = N_("a path is the spaces it enters, q,r one after another (for example 3,2 3,3 3,4)")
ROUNDS_HELP = N_(
    "type each round as the attacker's dice / the defender's dice, rounds separated by ; "
    "(for example 4 / 5, or 1 / 6 3; 4 / 5 for a tie rolled again)"
)


def space(text: str) -> list[int]:
    """ "3,2", "(3, 2)" or "3 2" as [3, 2]; ValueError in words otherwise."""
    match = re.fullmatch(r"\s*\(?\s*(-?\d+)\s*[,\s]\s*(-?\d+)\s*\)?\s*", text)
    if not match:
        raise ValueError(
            _("a space is written q,r (for example 3,2), not %(text)s", text=repr(text.strip()))
        )
    return [int(match.group(1)), int(match.group(2))]


def path(text: str) -> list[list[int]]:
    """ "3,2 3,3" (or "(3, 2) → (3, 3)", "3,2; 3,3") as [[3, 2], [3, 3]]."""
    pairs = [[int(q), int(r)] for q, r in PAIR.findall(text)]
    rest = PAIR.sub(" ", text)
    if not pairs or not re.fullmatch(r"[\s;()\[\]>→-]*", rest):
        raise ValueError(
            _(
                "a path is the spaces it enters, q,r one after another (for example 3,2 3,3 "
                "3,4), not %(text)s",
                text=repr(text.strip()),
            )
        )
    return pairs


def rounds(text: str) -> list[dict]:
    """ "1 / 6 3; 4 / 5" as [{"attacker": [1], "defender": [6, 3]}, {...: [4], ...: [5]}]."""
    out = []
    for part in re.split(r"[;\n]+", text):
        if not part.strip():
            continue
        sides = part.split("/")
        if len(sides) != 2:
            raise ValueError(_(ROUNDS_HELP))
        rolled = []
        for side in sides:
            digits = re.sub(r"[\s,+]+", " ", side).split()
            if len(digits) == 1 and re.fullmatch(r"\d{2}", digits[0]):
                digits = list(digits[0])  # "63": a six and its extra die
            if not digits or not all(d.isdigit() for d in digits):
                raise ValueError(_(ROUNDS_HELP))
            rolled.append([int(d) for d in digits])
        out.append({"attacker": rolled[0], "defender": rolled[1]})
    if not out:
        raise ValueError(_(ROUNDS_HELP))
    return out


FIGURES_HELP = N_(
    "type one figure a line: id, name, movement (walker, runner or flier), then its strength "
    "for each number of lives left, from the most (for example: troll, Troll, walker, 8 6 4)"
)
MAP_HELP = N_(
    "type the map's id and name on the first line (for example: high-pass, High Pass), then "
    "its rows of spaces"
)


def figures(text: str) -> dict[str, dict]:
    """Lines "troll, Troll, walker, 8 6 4" as {"troll": {"name": "Troll", "movement":
    "walker", "lives": 3, "strength": {"3": 8, "2": 6, "1": 4}}}; ValueError in words."""
    out: dict[str, dict] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = [part.strip() for part in line.split(",")]
        strengths = parts[3].split() if len(parts) == 4 else []
        if not strengths or not all(re.fullmatch(r"\d{1,2}", s) for s in strengths):
            raise ValueError(
                _(
                    "line %(line)s: type one figure a line: id, name, movement (walker, runner "
                    "or flier), then its strength for each number of lives left, from the most "
                    "(for example: troll, Troll, walker, 8 6 4)",
                    line=number,
                )
            )
        lives = len(strengths)
        out[parts[0]] = {
            "name": parts[1],
            "movement": parts[2].lower(),
            "lives": lives,
            "strength": {str(lives - i): int(s) for i, s in enumerate(strengths)},
        }
    return out


def game_map(text: str) -> dict[str, dict]:
    """A first line "high-pass, High Pass", then the rows, as {"high-pass": {"name": "High
    Pass", "rows": [...]}}; nothing typed, {}; ValueError in words."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        return {}
    head = [part.strip() for part in lines[0].split(",", 1)]
    rows = [line for line in lines[1:] if line.strip()]
    if len(head) != 2 or not all(head) or not rows:
        raise ValueError(_(MAP_HELP))
    return {head[0]: {"name": head[1], "rows": rows}}
