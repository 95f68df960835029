"""What a player may see and do: the rules' answers the pages ask for."""

from __future__ import annotations

from . import rules


def visible_state(state: dict, side: str | None) -> dict:
    """The state a player (or a spectator, side None) may see.

    Monster battles hide nothing: the board, every figure and every die are open to all.
    """
    return state


def destinations(state: dict, piece_id: str) -> dict[str, list[str]]:
    """The spaces a figure may move to now, each with one legal path (empty when none)."""
    battle = state["battle"]
    if not battle or battle["phase"] != "fighting":
        return {}
    piece = battle["pieces"].get(piece_id)
    if piece is None or piece["pos"] is None:
        return {}
    turn = battle["turn"]
    mine = piece["side"] == turn["side"] and turn["moved"] is None
    theirs = piece["side"] != turn["side"] and turn["moved"] is not None
    if not (mine or theirs):
        return {}
    return rules.reachable(state, battle, piece)


def targets(state: dict, piece_id: str) -> list[str]:
    """The enemies the figure may attack now (it must be the figure that moved this turn)."""
    battle = state["battle"]
    if not battle or battle["phase"] != "fighting":
        return []
    piece = battle["pieces"].get(piece_id)
    if piece is None or piece["pos"] is None or battle["turn"]["moved"] != piece_id:
        return []
    return [p["id"] for p in rules.attackable(state, battle, piece)]
