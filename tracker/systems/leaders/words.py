"""Leaders in words: one sentence per event for the log, the words of each action's button,
and what each ability does, said where it can be used. Every sentence is one message with
its parameters, translated where it is read."""

from __future__ import annotations

from tracker.systems.i18n import N_, _, ngettext

from .names import named
from .rules import ability_title, both, card_label, fmt, listed, piece_label, player_name

#: what each ability lets its character do, in our words (from shared/rules/leaders.md)
ABILITY_HELP = {
    "leader": N_(
        "moves one space to an adjacent free space; two with a Vizier on the board. "
        "Lose it (captured or encircled) and the match is lost"
    ),
    "acrobat": N_(
        "instead of moving, jumps over one adjacent character in a straight line, "
        "landing on the free space beyond; it may jump twice in a row"
    ),
    "rider": N_(
        "instead of moving, rides exactly two spaces in a straight line through free spaces"
    ),
    "colossus": N_(
        "instead of moving, enters an adjacent enemy's space and pushes that enemy "
        "into one of the three spaces behind it"
    ),
    "royal-guard": N_(
        "instead of moving, comes from anywhere to a free space next to its own "
        "Leader, and may then take one more step"
    ),
    "illusionist": N_(
        "instead of moving, swaps places with a character it sees in a straight "
        "line and that is not adjacent to it"
    ),
    "claw": N_(
        "instead of moving, goes in a straight line until it is next to a character it "
        "sees, or pulls that character to itself"
    ),
    "manipulator": N_(
        "instead of moving, moves an enemy it sees in a straight line, not "
        "adjacent to it, one space in any direction"
    ),
    "wanderer": N_("instead of moving, goes to any free space that is not next to an enemy"),
    "brewmaster": N_("instead of moving, moves an adjacent ally (its Leader too) one space"),
    "archer": N_(
        "helps capture the enemy Leader from two spaces away in a straight "
        "line, seen or not, but not from next to it"
    ),
    "assassin": N_("next to the enemy Leader, it captures it alone"),
    "jailer": N_("enemies next to it cannot use their abilities"),
    "protector": N_("enemy abilities cannot move it or the allies next to it"),
    "vizier": N_("its Leader may move two spaces in its action"),
    "hermit": N_("moves like any character; recruited together with the Cub"),
    "cub": N_("moves like any character, but never helps capture the enemy Leader"),
    "nemesis": N_(
        "never acts in the action phase; each time the enemy Leader moves, it moves "
        "two spaces (one if two are impossible) and may not end where it started"
    ),
}

#: the sentence of each kind of action that goes somewhere: (present, past)
VERBS = {
    "move": (N_("%(who)s moves to %(path)s"), N_("%(who)s moved to %(path)s")),
    "acrobat": (N_("%(who)s jumps to %(path)s"), N_("%(who)s jumped to %(path)s")),
    "rider": (N_("%(who)s rides to %(path)s"), N_("%(who)s rode to %(path)s")),
    "royal-guard": (
        N_("%(who)s comes to its Leader's side at %(path)s"),
        N_("%(who)s came to its Leader's side at %(path)s"),
    ),
    "wanderer": (N_("%(who)s wanders to %(path)s"), N_("%(who)s wandered to %(path)s")),
    "nemesis": (
        N_("%(who)s follows the enemy Leader to %(path)s"),
        N_("%(who)s followed the enemy Leader to %(path)s"),
    ),
}

#: the sentence of each kind of action on a target: (present, past)
ON_TARGET = {
    "colossus": (
        N_("%(who)s pushes %(them)s to %(theirs)s and takes its space %(mine)s"),
        N_("%(who)s pushed %(them)s to %(theirs)s and took its space %(mine)s"),
    ),
    "illusionist": (
        N_("%(who)s swaps places with %(them)s, going to %(mine)s and sending it to %(theirs)s"),
        N_("%(who)s swapped places with %(them)s, going to %(mine)s and sending it to %(theirs)s"),
    ),
    "claw-move": (
        N_("%(who)s reaches out to %(them)s, going to %(mine)s"),
        N_("%(who)s reached out to %(them)s, going to %(mine)s"),
    ),
    "claw": (
        N_("%(who)s pulls %(them)s to %(theirs)s"),
        N_("%(who)s pulled %(them)s to %(theirs)s"),
    ),
    "manipulator": (
        N_("%(who)s moves %(them)s to %(theirs)s"),
        N_("%(who)s moved %(them)s to %(theirs)s"),
    ),
    "brewmaster": (
        N_("%(who)s moves %(them)s to %(theirs)s"),
        N_("%(who)s moved %(them)s to %(theirs)s"),
    ),
}

#: the abilities that are always on, whatever the character does
PASSIVE = ("archer", "assassin", "jailer", "protector", "vizier")


def ability_help(ability: str) -> str:
    """What a character with this ability does, as a player would explain it."""
    said = ABILITY_HELP.get(ability)
    help_ = _(said) if said else _("moves one space")
    if ability in PASSIVE:
        return _("%(title)s (always on): %(help)s", title=ability_title(ability), help=help_)
    return _("%(title)s: %(help)s", title=ability_title(ability), help=help_)


def _piece(state, piece_id, capital=False):
    match = state.get("match") or {}
    piece = (match.get("pieces") or {}).get(piece_id)
    return piece_label(piece, capital) if piece else piece_id


def _owned(state, piece_id, capital=False):
    """A piece with its owner: "the Hook (Bob's Claw)"."""
    match = state.get("match") or {}
    piece = (match.get("pieces") or {}).get(piece_id)
    if not piece:
        return str(piece_id)
    return _(
        "%(name)s (%(owner)s's %(ability)s)",
        name=named(piece["name"], capital),
        owner=player_name(state, piece["owner"]),
        ability=ability_title(piece["ability"]),
    )


def _to(moves, piece_id):
    """Where one piece went, space after space: "(1, 2) then (2, 2)"."""
    path = None
    for m in moves:
        if m["piece"] == piece_id:
            space = fmt(m["to"])
            path = space if path is None else _("%(path)s then %(space)s", path=path, space=space)
    return path or ""


def action_phrase(
    state: dict, kind: str, data: dict, moves: list, past: bool = False, owned: bool = False
) -> str:
    """What the character does (or did) and where it goes: "Ysa the Tumbler (Acrobat) jumps
    to (1, 1) then (1, -1)"; `owned` names its owner: "Ysa the Tumbler (Alice's Acrobat)"."""
    actor = data.get("character") or (moves[0]["piece"] if moves else "")
    who = _owned(state, actor, True) if owned and actor else _piece(state, actor, True)
    mine = _to(moves, actor)
    ability = "move" if kind == "CharacterMoved" else _ability(state, actor)
    t = 1 if past else 0
    if kind == "NemesisMoved":
        ability = "nemesis"
    if ability in VERBS:
        return _(VERBS[ability][t], who=who, path=mine)
    target = data.get("target")
    if ability == "claw" and data.get("form") == "move":
        ability = "claw-move"
    if ability in ON_TARGET:
        them = _owned(state, target)
        return _(ON_TARGET[ability][t], who=who, them=them, theirs=_to(moves, target), mine=mine)
    spaces = listed(
        _("%(piece)s to %(space)s", piece=_piece(state, m["piece"]), space=fmt(m["to"]))
        for m in moves
    )
    if past:
        return _("%(who)s acted: %(spaces)s", who=who, spaces=spaces)
    return _("%(who)s acts: %(spaces)s", who=who, spaces=spaces)


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
        where = [fmt(s) for s in spaces]
        where = both(*where) if len(where) == 2 else (where[0] if where else "")
        return _("%(card)s on %(spaces)s", card=card_id, spaces=where)
    placed = [
        _("%(piece)s on %(space)s", piece=piece_label(p), space=fmt(s))
        for p, s in zip(card["pieces"], spaces, strict=False)
    ]
    return both(*placed) if len(placed) == 2 else (placed[0] if placed else "")


def _outcome(state: dict, event, said):
    """The sentence with what the event brought about: a match won, an action phase over."""
    match = state.get("match") or {}
    last = match.get("last") or {}
    if match.get("phase") == "over" and last.get("version") == event.version:
        params = {"said": said, "winner": player_name(state, match["winner"])}
        params["match"] = match["id"]
        if match["how"] == "capture":
            return _("%(said)s; %(winner)s wins match %(match)s by capture", **params)
        return _("%(said)s; %(winner)s wins match %(match)s by encirclement", **params)
    if event.type in ("CharacterMoved", "AbilityUsed") and match.get("acted_out"):
        if match.get("phase") == "recruitment" and last.get("version") == event.version:
            return _("%(said)s, and every character has acted: the action phase is over", said=said)
    return said


def describe(state: dict, event) -> str:
    data = event.data
    kind = event.type
    who = player_name(state, data["player"]) if "player" in data else ""
    match = state.get("match") or {}
    last = match.get("last") or {}
    if kind == "MatchStarted":
        if data["mode"] == "expert":
            return _("Match %(match)s began in expert mode", match=data["match"])
        return _("Match %(match)s began in standard mode", match=data["match"])
    if kind == "LeaderChosen":
        figures = {f["id"]: f["name"] for f in state["characters"]["leaders"]}
        leader = named(figures[data["leader"]]) if data["leader"] in figures else data["leader"]
        return _("%(player)s chose %(leader)s as Leader", player=who, leader=leader)
    if kind == "DeckShuffled":
        row = listed(card_label(state, c) for c in data["deck"][:3])
        num = len(data["deck"])
        if not row:
            return ngettext(
                "The deck of %(num)d card was shuffled, and the row shows no card",
                "The deck of %(num)d cards was shuffled, and the row shows no card",
                num,
            )
        return ngettext(
            "The deck of %(num)d card was shuffled, and the row shows %(row)s",
            "The deck of %(num)d cards was shuffled, and the row shows %(row)s",
            num,
            row=row,
        )
    if kind == "FirstPlayerDrawn":
        return _("%(player)s was drawn to play first", player=player_name(state, data["first"]))
    if kind == "CharacterExiled":
        return _("%(player)s exiled %(card)s", player=who, card=card_label(state, data["card"]))
    if kind in ("CharacterMoved", "AbilityUsed", "NemesisMoved"):
        if last.get("version") == event.version:
            moves = last["moves"]
        else:  # worded against a state that has moved on: the path as sent
            piece = data.get("character", "")
            moves = [{"piece": piece, "to": s} for s in data.get("path") or []]
        said = action_phrase(state, kind, data, moves, past=True, owned=True)
        return _outcome(state, event, said)
    if kind == "ActionPhaseEnded":
        return _("%(player)s ended the action phase", player=who)
    if kind == "CharacterRecruited":
        placed = recruit_phrase(state, data["card"], data["spaces"])
        said = _("%(player)s recruited %(placed)s", player=who, placed=placed)
        return _outcome(state, event, said)
    if kind == "TurnEnded":
        return _("%(player)s ended the turn", player=who)
    return kind
