"""Leaders in words: one sentence per event for the log, the words of each action's button,
and what each ability does, said where it can be used."""

from __future__ import annotations

from .rules import ability_title, card_label, fmt, piece_label, player_name

#: what each ability lets its character do, in our words (from shared/rules/leaders.md)
ABILITY_HELP = {
    "leader": "moves one space to an adjacent free space; two with a Vizier on the board. "
    "Lose it (captured or encircled) and the match is lost",
    "acrobat": "instead of moving, jumps over one adjacent character in a straight line, "
    "landing on the free space beyond; it may jump twice in a row",
    "rider": "instead of moving, rides exactly two spaces in a straight line through free spaces",
    "colossus": "instead of moving, enters an adjacent enemy's space and pushes that enemy "
    "into one of the three spaces behind it",
    "royal-guard": "instead of moving, comes from anywhere to a free space next to its own "
    "Leader, and may then take one more step",
    "illusionist": "instead of moving, swaps places with a character it sees in a straight "
    "line and that is not adjacent to it",
    "claw": "instead of moving, goes in a straight line until it is next to a character it "
    "sees, or pulls that character to itself",
    "manipulator": "instead of moving, moves an enemy it sees in a straight line, not "
    "adjacent to it, one space in any direction",
    "wanderer": "instead of moving, goes to any free space that is not next to an enemy",
    "brewmaster": "instead of moving, moves an adjacent ally (its Leader too) one space",
    "archer": "helps capture the enemy Leader from two spaces away in a straight "
    "line, seen or not, but not from next to it",
    "assassin": "next to the enemy Leader, it captures it alone",
    "jailer": "enemies next to it cannot use their abilities",
    "protector": "enemy abilities cannot move it or the allies next to it",
    "vizier": "its Leader may move two spaces in its action",
    "hermit": "moves like any character; recruited together with the Cub",
    "cub": "moves like any character, but never helps capture the enemy Leader",
    "nemesis": "never acts in the action phase; each time the enemy Leader moves, it moves "
    "two spaces (one if two are impossible) and may not end where it started",
}

#: the verb of each kind of action: (present, past)
VERBS = {
    "move": ("moves", "moved"),
    "acrobat": ("jumps", "jumped"),
    "rider": ("rides", "rode"),
    "royal-guard": ("comes to its Leader's side at", "came to its Leader's side at"),
    "wanderer": ("wanders", "wandered"),
    "nemesis": ("follows the enemy Leader", "followed the enemy Leader"),
}


#: the abilities that are always on, whatever the character does
PASSIVE = ("archer", "assassin", "jailer", "protector", "vizier")


def ability_help(ability: str) -> str:
    """What a character with this ability does, as a player would explain it."""
    title = ability_title(ability) + (" (always on)" if ability in PASSIVE else "")
    return f"{title}: {ABILITY_HELP.get(ability, 'moves one space')}"


def _piece(state, piece_id) -> str:
    match = state.get("match") or {}
    piece = (match.get("pieces") or {}).get(piece_id)
    return piece_label(piece) if piece else piece_id


def _name(state, piece_id) -> str:
    match = state.get("match") or {}
    piece = (match.get("pieces") or {}).get(piece_id)
    return piece["name"] if piece else piece_id


def _owned(state, piece_id) -> str:
    """A piece with its owner: "the Hook (Bob's Claw)"."""
    match = state.get("match") or {}
    piece = (match.get("pieces") or {}).get(piece_id)
    if not piece:
        return str(piece_id)
    owner = player_name(state, piece["owner"])
    return f"{piece['name']} ({owner}'s {ability_title(piece['ability'])})"


def _to(moves, piece_id) -> str:
    """Where one piece went, space after space: "(1, 2) then (2, 2)"."""
    return " then ".join(fmt(m["to"]) for m in moves if m["piece"] == piece_id)


def action_phrase(
    state: dict, kind: str, data: dict, moves: list, past: bool = False, owned: bool = False
) -> str:
    """What the character does (or did) and where it goes: "Ysa the Tumbler (Acrobat) jumps
    to (1, 1) then (1, -1)"; `owned` names its owner: "Ysa the Tumbler (Alice's Acrobat)"."""
    actor = data.get("character") or (moves[0]["piece"] if moves else "")
    who = _piece(state, actor)
    if owned and actor:
        who = _owned(state, actor)
    who = who[:1].upper() + who[1:]
    mine = _to(moves, actor)
    ability = "move" if kind == "CharacterMoved" else _ability(state, actor)
    t = 1 if past else 0
    if kind == "NemesisMoved":
        ability = "nemesis"
    if ability in VERBS:
        verb = VERBS[ability][t]
        joint = " " if verb.endswith(" at") else " to "
        return f"{who} {verb}{joint}{mine}"
    target = data.get("target")
    them = _owned(state, target)
    theirs = _to(moves, target)
    if ability == "colossus":
        verb = ("pushes", "pushed")[t], ("takes", "took")[t]
        return f"{who} {verb[0]} {them} to {theirs} and {verb[1]} its space {mine}"
    if ability == "illusionist":
        verb = ("swaps", "swapped")[t]
        return f"{who} {verb} places with {them}, going to {mine} and sending it to {theirs}"
    if ability == "claw" and data.get("form") == "move":
        verb = ("reaches", "reached")[t]
        return f"{who} {verb} out to {them}, going to {mine}"
    if ability == "claw":
        return f"{who} {('pulls', 'pulled')[t]} {them} to {theirs}"
    if ability == "manipulator":
        return f"{who} {('moves', 'moved')[t]} {them} to {theirs}"
    if ability == "brewmaster":
        return f"{who} {('moves', 'moved')[t]} {them} to {theirs}"
    spaces = ", ".join(f"{_piece(state, m['piece'])} to {fmt(m['to'])}" for m in moves)
    return f"{who} {('acts', 'acted')[t]}: {spaces}"


def _ability(state, piece_id) -> str:
    match = state.get("match") or {}
    piece = (match.get("pieces") or {}).get(piece_id)
    return piece["ability"] if piece else ""


def recruit_phrase(state: dict, card_id: str, spaces: list) -> str:
    """Where a recruit's pieces go: "the Hermit of Stonewell on (-1, 3) and Burr the Cub on
    (1, 2)"."""
    cards = {c["id"]: c for c in state["characters"]["cards"]}
    card = cards.get(card_id)
    if card is None:
        return f"{card_id} on " + " and ".join(fmt(s) for s in spaces)
    return " and ".join(
        f"{piece_label(p)} on {fmt(s)}" for p, s in zip(card["pieces"], spaces, strict=False)
    )


def _outcome(state: dict, event) -> str:
    match = state.get("match") or {}
    last = match.get("last") or {}
    if match.get("phase") == "over" and last.get("version") == event.version:
        winner = player_name(state, match["winner"])
        return f"; {winner} wins match {match['id']} by {match['how']}"
    if event.type in ("CharacterMoved", "AbilityUsed") and match.get("acted_out"):
        if match.get("phase") == "recruitment" and last.get("version") == event.version:
            return ", and every character has acted: the action phase is over"
    return ""


def describe(state: dict, event) -> str:
    data = event.data
    kind = event.type
    who = player_name(state, data["player"]) if "player" in data else ""
    match = state.get("match") or {}
    last = match.get("last") or {}
    outcome = _outcome(state, event)
    if kind == "MatchStarted":
        return f"Match {data['match']} began in {data['mode']} mode"
    if kind == "LeaderChosen":
        figures = {f["id"]: f["name"] for f in state["characters"]["leaders"]}
        return f"{who} chose {figures.get(data['leader'], data['leader'])} as Leader"
    if kind == "DeckShuffled":
        row = ", ".join(card_label(state, c) for c in data["deck"][:3]) or "no card"
        return f"The deck of {len(data['deck'])} cards was shuffled, and the row shows {row}"
    if kind == "FirstPlayerDrawn":
        return f"{player_name(state, data['first'])} was drawn to play first"
    if kind == "CharacterExiled":
        return f"{who} exiled {card_label(state, data['card'])}"
    if kind in ("CharacterMoved", "AbilityUsed", "NemesisMoved"):
        if last.get("version") == event.version:
            moves = last["moves"]
        else:  # worded against a state that has moved on: the path as sent
            piece = data.get("character", "")
            moves = [{"piece": piece, "to": s} for s in data.get("path") or []]
        return action_phrase(state, kind, data, moves, past=True, owned=True) + outcome
    if kind == "ActionPhaseEnded":
        return f"{who} ended the action phase"
    if kind == "CharacterRecruited":
        placed = recruit_phrase(state, data["card"], data["spaces"])
        return f"{who} recruited {placed}{outcome}"
    if kind == "TurnEnded":
        return f"{who} ended the turn"
    return kind
