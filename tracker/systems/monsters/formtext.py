"""Spaces, paths and attack dice as people type them in a form, read into event data.

An HTML form sends text: a space as "3,2" (or "(3, 2)"), a path as the spaces it enters one
after another ("3,2 3,3 3,4"), the dice of an attack as "attacker / defender" for each round,
rounds separated by ";" ("1 / 6 3; 4 / 5", "6 2/4"). The schemas accept that text as well as
the JSON shapes, and turn it into the same data; a text they cannot read is refused in words.
"""

from __future__ import annotations

import re

PAIR = re.compile(r"(-?\d+)\s*,\s*(-?\d+)")
SPACE_HELP = "a space is written q,r (for example 3,2)"
PATH_HELP = "a path is the spaces it enters, q,r one after another (for example 3,2 3,3 3,4)"
ROUNDS_HELP = (
    "type each round as the attacker's dice / the defender's dice, rounds separated by ; "
    "(for example 4 / 5, or 1 / 6 3; 4 / 5 for a tie rolled again)"
)


def space(text: str) -> list[int]:
    """ "3,2", "(3, 2)" or "3 2" as [3, 2]; ValueError in words otherwise."""
    match = re.fullmatch(r"\s*\(?\s*(-?\d+)\s*[,\s]\s*(-?\d+)\s*\)?\s*", text)
    if not match:
        raise ValueError(f"{SPACE_HELP}, not {text.strip()!r}")
    return [int(match.group(1)), int(match.group(2))]


def path(text: str) -> list[list[int]]:
    """ "3,2 3,3" (or "(3, 2) → (3, 3)", "3,2; 3,3") as [[3, 2], [3, 3]]."""
    pairs = [[int(q), int(r)] for q, r in PAIR.findall(text)]
    rest = PAIR.sub(" ", text)
    if not pairs or not re.fullmatch(r"[\s;()\[\]>→-]*", rest):
        raise ValueError(f"{PATH_HELP}, not {text.strip()!r}")
    return pairs


def rounds(text: str) -> list[dict]:
    """ "1 / 6 3; 4 / 5" as [{"attacker": [1], "defender": [6, 3]}, {...: [4], ...: [5]}]."""
    out = []
    for part in re.split(r"[;\n]+", text):
        if not part.strip():
            continue
        sides = part.split("/")
        if len(sides) != 2:
            raise ValueError(ROUNDS_HELP)
        rolled = []
        for side in sides:
            digits = re.sub(r"[\s,+]+", " ", side).split()
            if len(digits) == 1 and re.fullmatch(r"\d{2}", digits[0]):
                digits = list(digits[0])  # "63": a six and its extra die
            if not digits or not all(d.isdigit() for d in digits):
                raise ValueError(ROUNDS_HELP)
            rolled.append([int(d) for d in digits])
        out.append({"attacker": rolled[0], "defender": rolled[1]})
    if not out:
        raise ValueError(ROUNDS_HELP)
    return out


def shown_path(path_spaces: list[str]) -> str:
    """A path of state keys ("3,2") as the text a form sends back: "3,2 3,3"."""
    return " ".join(path_spaces)
