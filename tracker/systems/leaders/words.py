"""One line of words per event for the audit log."""

from __future__ import annotations

from .rules import card_label, fmt, piece_label, player_name


def _piece(state, piece_id) -> str:
    match = state.get("match") or {}
    piece = (match.get("pieces") or {}).get(piece_id)
    return piece_label(piece) if piece else piece_id


def _moves(state, moves) -> str:
    return ", ".join(f"{_piece(state, m['piece'])} to {fmt(m['to'])}" for m in moves)


def describe(state: dict, event) -> str:
    data = event.data
    kind = event.type
    who = player_name(state, data["player"]) if "player" in data else ""
    match = state.get("match") or {}
    last = match.get("last") or {}
    outcome = ""
    if match.get("phase") == "over" and last.get("version") == event.version:
        outcome = (
            f"; {player_name(state, match['winner'])} wins match {match['id']!r} by {match['how']}"
        )
    if kind == "MatchStarted":
        return f"Match {data['match']!r} began ({data['mode']} mode)"
    if kind == "LeaderChosen":
        figures = {f["id"]: f["name"] for f in state["characters"]["leaders"]}
        return f"{who} chose {figures.get(data['leader'], data['leader'])} as Leader"
    if kind == "DeckShuffled":
        row = ", ".join(card_label(state, c) for c in data["deck"][:3])
        return f"The deck of {len(data['deck'])} cards was shuffled; the row shows {row}"
    if kind == "FirstPlayerDrawn":
        return f"{player_name(state, data['first'])} was drawn to play first"
    if kind == "CharacterExiled":
        return f"{who} exiled {card_label(state, data['card'])}"
    if kind == "CharacterMoved":
        path = " then ".join(fmt(s) for s in data["path"])
        return f"{who} moved {_piece(state, data['character'])} to {path}{outcome}"
    if kind == "AbilityUsed":
        target = f" on {_piece(state, data['target'])}" if data.get("target") else ""
        form = f" ({data['form']})" if data.get("form") else ""
        moves = _moves(state, last.get("moves", [])) if last.get("version") == event.version else ""
        return f"{who} used {_piece(state, data['character'])}{target}{form}: {moves}{outcome}"
    if kind == "NemesisMoved":
        path = " then ".join(fmt(s) for s in data["path"])
        return f"{who}'s Nemesis followed to {path}{outcome}"
    if kind == "ActionPhaseEnded":
        return f"{who} ended the action phase"
    if kind == "CharacterRecruited":
        spaces = " and ".join(fmt(s) for s in data["spaces"])
        return f"{who} recruited {card_label(state, data['card'])} on {spaces}{outcome}"
    if kind == "TurnEnded":
        return f"{who} ended the turn"
    return kind
