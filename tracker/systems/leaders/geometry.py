"""Hex geometry of the board in axial coordinates: neighbours, straight lines, sight, distance.

A space is a tuple (q, r). Every ability of the game is built from these few functions, so
that "adjacent", "in a straight line" and "visible" mean one thing everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable

Space = tuple[int, int]

#: the six directions, in turning order: neighbours of index i are i - 1 and i + 1 (mod 6)
DIRECTIONS: tuple[Space, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def key(space: Space) -> str:
    """The text form of a space, for JSON keys: "q,r"."""
    return f"{space[0]},{space[1]}"


def step(space: Space, direction: Space, times: int = 1) -> Space:
    return (space[0] + direction[0] * times, space[1] + direction[1] * times)


def distance(a: Space, b: Space) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def adjacent(a: Space, b: Space) -> bool:
    return distance(a, b) == 1


def neighbours(space: Space, cells: Iterable[Space] | None = None) -> list[Space]:
    """The spaces next to `space`, only those on the board when `cells` is given."""
    around = [step(space, d) for d in DIRECTIONS]
    if cells is None:
        return around
    return [s for s in around if s in cells]


def direction_to(a: Space, b: Space) -> int | None:
    """The index of the direction from `a` to `b` when they share a straight line, else None."""
    if a == b:
        return None
    dq, dr = b[0] - a[0], b[1] - a[1]
    n = distance(a, b)
    if dq % n or dr % n:
        return None
    unit = (dq // n, dr // n)
    return DIRECTIONS.index(unit) if unit in DIRECTIONS else None


def on_line(a: Space, b: Space) -> bool:
    """Whether `a` and `b` lie on one of the three straight lines of the hex grid."""
    return direction_to(a, b) is not None


def between(a: Space, b: Space) -> list[Space]:
    """The spaces strictly between two spaces on one straight line, from `a` toward `b`."""
    index = direction_to(a, b)
    if index is None:
        return []
    return [step(a, DIRECTIONS[index], i) for i in range(1, distance(a, b))]


def visible(a: Space, b: Space, occupied: Iterable[Space]) -> bool:
    """Two spaces see each other: one straight line, and no character between them."""
    if not on_line(a, b):
        return False
    taken = occupied if isinstance(occupied, set | dict | frozenset) else set(occupied)
    return not any(s in taken for s in between(a, b))


def behind(pusher: Space, pushed: Space) -> list[Space]:
    """The three spaces behind `pushed` as seen from the adjacent `pusher` (straight first)."""
    index = DIRECTIONS.index((pushed[0] - pusher[0], pushed[1] - pusher[1]))
    return [step(pushed, DIRECTIONS[(index + turn) % 6]) for turn in (0, -1, 1)]
