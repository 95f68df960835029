"""Hex geometry of a battle map: axial coordinates, neighbours, distances and the map text."""

from __future__ import annotations

from tracker.systems.i18n import N_, _

#: axial offsets of the six neighbours of a space
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

#: one letter of a map's rows -> the terrain of that space ("-" is no space at all)
LETTERS = {
    ".": "plain",
    "f": "forest",
    "m": "mountains",
    "~": "water",
    "=": "bridge",
    "A": "castle",
    "B": "castle",
}
TERRAINS = ("plain", "forest", "mountains", "water", "bridge", "castle")
#: each terrain in the players' words
TERRAIN_WORDS = {
    "plain": N_("plain"),
    "forest": N_("forest"),
    "mountains": N_("mountains"),
    "water": N_("water"),
    "bridge": N_("bridge"),
    "castle": N_("castle"),
}


def key(q: int, r: int) -> str:
    """The state's key of a space: "q,r"."""
    return f"{q},{r}"


def coords(space: str) -> tuple[int, int]:
    q, r = space.split(",")
    return int(q), int(r)


def neighbours(space: str) -> list[str]:
    q, r = coords(space)
    return [key(q + dq, r + dr) for dq, dr in DIRECTIONS]


def distance(a: str, b: str) -> int:
    """Steps between two spaces on an open hex grid."""
    aq, ar = coords(a)
    bq, br = coords(b)
    dq, dr = aq - bq, ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def adjacent(a: str, b: str) -> bool:
    return distance(a, b) == 1


def shown(space: str) -> str:
    """A space as players read it: (q, r)."""
    q, r = coords(space)
    return f"({q}, {r})"


def parse_rows(rows: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    """A map's rows of letters as {space: terrain} and {"A"/"B": castle space}.

    Rows are read as "odd-r" offset hexes (every odd row sits half a space to the right),
    letters separated by blanks; the column and row become axial coordinates.
    Raises ValueError with the fault in words.
    """
    spaces: dict[str, str] = {}
    castles: dict[str, str] = {}
    for r, row in enumerate(rows):
        for col, letter in enumerate(row.split()):
            if letter == "-":
                continue
            if letter not in LETTERS:
                raise ValueError(
                    _(
                        "row %(row)s holds %(letter)s; a space is one of %(letters)s or - for none",
                        row=r + 1,
                        letter=repr(letter),
                        letters=" ".join(sorted(LETTERS)),
                    )
                )
            space = key(col - (r - (r & 1)) // 2, r)
            spaces[space] = LETTERS[letter]
            if letter in "AB":
                if letter in castles:
                    raise ValueError(
                        _("a map has one castle %(letter)s, this one has more", letter=letter)
                    )
                castles[letter] = space
    for letter in "AB":
        if letter not in castles:
            needs = (
                N_("a map needs castle %(letter)s (the first player's)")
                if letter == "A"
                else N_("a map needs castle %(letter)s (the second player's)")
            )
            raise ValueError(_(needs, letter=letter))
    return spaces, castles
