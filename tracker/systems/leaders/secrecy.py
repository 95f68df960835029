"""What a player may see: the order of the face-down deck stays hidden until the match ends."""

from __future__ import annotations


def visible_state(state: dict, viewer: str | None = None) -> dict:
    """The state as anyone at the table sees it: the deck's order replaced by its size.

    Returns a new top-level dict (and match dict) sharing everything else with `state`.
    The viewer does not matter yet: every other fact of Leaders lies open on the table.
    """
    match = state.get("match")
    if not match or match.get("phase") == "over":
        return dict(state)
    hidden = {key: value for key, value in match.items() if key not in ("deck", "pool")}
    hidden["deck_size"] = len(match.get("deck") or [])
    return {**state, "match": hidden}


def visible_event_data(
    state: dict, event_type: str, data: dict, version: int, viewer: str | None = None
) -> dict:
    """An event's data as a player may read it in the audit log, `state` being the latest.

    A shuffled deck shows only its face-up row and its size while its match is on.
    """
    if event_type != "DeckShuffled" or not data.get("deck"):
        return data
    match = state.get("match") or {}
    if match.get("phase") == "over" or version < match.get("from_version", 0):
        return data
    deck = data["deck"]
    return {"row": deck[:3], "deck_size": len(deck) - 3}
