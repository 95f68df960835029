"""What a Leaders side may see and may choose next: the page helpers its templates call as
``system.views.<name>(...)``.

The order of the face-down deck stays hidden until the match ends. Nothing here decides a
rule: a choice is offered only when the rules' own handler accepts it, tried on a copy, so
the pages can never offer what the fold would refuse, nor hide what it would accept.
"""

from __future__ import annotations

import json
from copy import deepcopy
from itertools import permutations

from tracker.errors import NotFound, RuleViolation
from tracker.events import unrecorded
from tracker.systems.base import free_id, next_step
from tracker.systems.i18n import _

from . import geometry as geo
from . import rules
from . import words as words_
from .names import board_title, named
from .rules import HAND_LIMIT, HOW, MODES, PHASES, ability_title, card_label, hand_size, word
from .words import ability_help

__all__ = [
    "HAND_LIMIT",
    "ability_help",
    "ability_title",
    "action_options",
    "board_title",
    "card_label",
    "card_pieces",
    "how_word",
    "mode_word",
    "named",
    "phase_word",
    "exile_options",
    "hand_size",
    "hand_words",
    "leader_options",
    "match_replayed",
    "may_end_turn",
    "next_free",
    "nemesis_options",
    "recruit_options",
    "visible_event_data",
    "visible_state",
]

# -- what a side may see ------------------------------------------------------------------


def visible_state(state: dict, side: str | None = None) -> dict:
    """The state as anyone at the table sees it: the deck's order replaced by its size.

    Returns a new top-level dict (and match dict) sharing everything else with `state`.
    The side does not matter yet: every other fact of Leaders lies open on the table.
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


# -- what a side may choose next ---------------------------------------------------------


def trial(state: dict, event_type: str, data: dict) -> dict | None:
    """The state `event_type` with `data` would leave, or None when a rule refuses it.

    The rules' own handler runs on a copy of the parts of the state a match changes.
    """
    copy = {
        **state,
        "match": deepcopy(state["match"]),
        "standings": deepcopy(state["standings"]),
        "matches": list(state["matches"]),
    }
    try:
        rules.handlers[event_type](
            copy, unrecorded(campaign="", version=0, type=event_type, data=data)
        )
    except RuleViolation:
        return None
    return copy


def _live(state: dict) -> dict | None:
    match = state.get("match")
    if not match or match["phase"] == "over":
        return None
    return match


def _label(state: dict, after: dict, kind: str, data: dict) -> str:
    """The words of an action's button: who acts and where it (or its target) goes."""
    match = after["match"]
    if kind == "CharacterRecruited":
        placed = words_.recruit_phrase(state, data["card"], data["spaces"])
        words = _("Recruit %(placed)s", placed=placed)
    else:
        words = words_.action_phrase(after, kind, data, match["last"]["moves"])
    if match["phase"] == "over":
        loser = rules.player_name(state, match["loser"])
        return _("%(action)s (takes %(player)s's Leader)", action=words, player=loser)
    if kind != "CharacterRecruited" and match.get("acted_out") and match["phase"] == "recruitment":
        return _("%(action)s (the last to act: the action phase ends)", action=words)
    return words


def mode_word(mode: str) -> str:
    """A match's mode as a word: "standard", "expert"."""
    return word(MODES, mode)


def how_word(how: str) -> str:
    """How a match was won as a word: "capture", "encirclement"."""
    return word(HOW, how)


def phase_word(phase: str) -> str:
    """A phase of a match as a word: "action", "recruitment"..."""
    return word(PHASES, phase)


def leader_options(state: dict) -> dict[str, list[dict]]:
    """{player: [Leader figures still free]} for each player still to choose a Leader."""
    match = _live(state)
    if not match or match["phase"] != "leaders":
        return {}
    taken = set(match["leaders"].values())
    free = [f for f in state["characters"]["leaders"] if f["id"] not in taken]
    return {p["id"]: free for p in state["players"] if p["id"] not in match["leaders"]}


def exile_options(state: dict) -> tuple[str, list[str]] | None:
    """(the player due to exile, the cards it may exile) while an exile round waits."""
    match = _live(state)
    if not match or not match.get("exile"):
        return None
    exile = match["exile"]
    return exile["order"][exile["next"]], list(match["available"])


def _candidates(state: dict, board: rules.Board, player: str, pid: str, piece: dict):
    """Every (event type, data) worth trying for one piece; the fold sorts out the legal."""
    cells = board.cells
    around = geo.neighbours(board.at[pid], cells)
    for space in around:
        yield "CharacterMoved", {"player": player, "character": pid, "path": [list(space)]}
    if piece["ability"] == "leader" and board.has(player, "vizier"):
        for first in around:
            for second in geo.neighbours(first, cells):
                path = [list(first), list(second)]
                yield "CharacterMoved", {"player": player, "character": pid, "path": path}
    tries = _TRIES.get(piece["ability"])
    if tries is None:
        return
    for target, path, form in tries(board, player, pid):
        data = {
            "player": player,
            "character": pid,
            "target": target,
            "path": [list(s) for s in path],
            "form": form,
        }
        yield "AbilityUsed", data


def _two_away(board, space):
    return [geo.step(space, d, 2) for d in geo.DIRECTIONS if geo.step(space, d, 2) in board.cells]


def _others(board, pid):
    return [o for o in board.at if o != pid]


# Each active ability's (target, path, form) worth trying, from where its piece stands.


def _acrobat(board, player, pid):
    for first in _two_away(board, board.at[pid]):
        yield None, [first], None
        for second in _two_away(board, first):
            yield None, [first, second], None


def _rider(board, player, pid):
    for to in _two_away(board, board.at[pid]):
        yield None, [to], None


def _colossus(board, player, pid):
    origin = board.at[pid]
    for target in _others(board, pid):
        if geo.adjacent(origin, board.at[target]):
            for to in geo.behind(origin, board.at[target]):
                yield target, [to], None


def _royal_guard(board, player, pid):
    leader = board.at[board.leader_of(player)]
    for first in geo.neighbours(leader, board.cells):
        yield None, [first], None
        for second in geo.neighbours(first, board.cells):
            yield None, [first, second], None


def _illusionist(board, player, pid):
    for target in _others(board, pid):
        yield target, [], None


def _claw(board, player, pid):
    for target in _others(board, pid):
        yield target, [], "move"
        yield target, [], "pull"


def _shifter(board, player, pid):
    """The Manipulator's and the Brewmaster's: an enemy or ally one step on."""
    for target in _others(board, pid):
        for to in geo.neighbours(board.at[target], board.cells):
            yield target, [to], None


def _wanderer(board, player, pid):
    for to in sorted(board.cells):
        yield None, [to], None


_TRIES = {
    "acrobat": _acrobat,
    "rider": _rider,
    "colossus": _colossus,
    "royal-guard": _royal_guard,
    "illusionist": _illusionist,
    "claw": _claw,
    "manipulator": _shifter,
    "brewmaster": _shifter,
    "wanderer": _wanderer,
}


def action_options(state: dict, player: str) -> dict[str, list[dict]]:
    """{piece id: [{type, data, label, moves, ends}]}: every legal action of the player now.

    Only the pieces that may still act this turn are listed; empty outside the player's
    action phase or while the match waits for a Nemesis move or an exile.
    """
    match = _live(state)
    if not match or match["phase"] != "action" or match["active"] != player:
        return {}
    if match.get("nemesis") or match.get("exile"):
        return {}
    board = rules.Board(state)
    options: dict[str, list[dict]] = {}
    for pid, piece in board.pieces.items():
        if piece["owner"] != player or pid not in board.at or pid in match["acted"]:
            continue
        if piece["ability"] == "nemesis":
            continue
        found = []
        for event_type, data in _candidates(state, board, player, pid, piece):
            after = trial(state, event_type, data)
            if after is not None:
                found.append(
                    {
                        "type": event_type,
                        "data": data,
                        "label": _label(state, after, event_type, data),
                        "moves": after["match"]["last"]["moves"],
                        "ends": after["match"]["phase"] == "over",
                    }
                )
        options[pid] = found
    return options


def nemesis_options(state: dict) -> list[dict]:
    """Every legal path of the Nemesis move the match waits for: [{data, label, moves}]."""
    match = _live(state)
    if not match or not match.get("nemesis"):
        return []
    due = match["nemesis"]
    board = rules.Board(state)
    start = board.at[due["piece"]]
    paths = [[first] for first in geo.neighbours(start, board.cells)]
    if due["steps"] == 2:
        paths = [[p[0], second] for p in paths for second in geo.neighbours(p[0], board.cells)]
    found = []
    for path in paths:
        data = {"player": due["owner"], "path": [list(s) for s in path]}
        after = trial(state, "NemesisMoved", data)
        if after is not None:
            found.append(
                {
                    "data": data,
                    "label": _label(state, after, "NemesisMoved", data),
                    "moves": after["match"]["last"]["moves"],
                }
            )
    return found


def recruit_options(state: dict, player: str) -> dict[str, list[dict]]:
    """{card id: [{data, label}]}: every legal recruitment of the player now, card by card.

    Cards with no legal placement are left out. A two-piece card (Hermit and Cub) is offered in both orders of its two spaces.
    """
    match = _live(state)
    if not match or match["phase"] != "recruitment" or match["active"] != player:
        return {}
    if match.get("nemesis") or match.get("exile"):
        return {}
    board = rules.Board(state)
    own = rules.own_recruitment_spaces(state, match, player)
    free = [s for s in own if s not in board.occupied]
    cards = rules.card_index(state)
    options: dict[str, list[dict]] = {}
    for card_id in rules.offered(match):
        card = cards[card_id]
        found = []
        for spaces in permutations(free, len(card["pieces"])):
            data = {"player": player, "card": card_id, "spaces": [list(s) for s in spaces]}
            after = trial(state, "CharacterRecruited", data)
            if after is not None:
                found.append(
                    {"data": data, "label": _label(state, after, "CharacterRecruited", data)}
                )
        if found:
            options[card_id] = found
    return options


def may_end_turn(state: dict, player: str) -> bool:
    """Whether the player may end its turn now (in recruitment, with nothing left to recruit)."""
    match = _live(state)
    if not match or match["phase"] != "recruitment" or match["active"] != player:
        return False
    return trial(state, "TurnEnded", {"player": player}) is not None


def hand_words(state: dict, cards: list[str]) -> str:
    """A player's hand: its Leader, then each card recruited."""
    return rules.listed([rules.ability_title("leader"), *(card_label(state, c) for c in cards)])


def card_pieces(state: dict, card_id: str) -> list[dict]:
    """The pieces of a card (two for Hermit and Cub), each with its ability."""
    card = rules.card_index(state).get(card_id)
    return list(card["pieces"]) if card else []


def match_replayed(now: dict, match_id: str, latest: int, looked_at: int | None) -> dict:
    """What a replay of match `match_id` steps through: its first and final events, whether
    it is finished, and its record once it is. `now` is the campaign at its latest event
    `latest`; `looked_at` the event the replay is asked to show (`?at=`), or None for its
    end. NotFound when there is no such match, or it had not begun at `looked_at`."""
    done = [match for match in now["matches"] if match["id"] == match_id]
    under_way = now["match"]
    if done:
        first, final, record = done[0]["from_version"], done[0]["to_version"], done[0]
    elif under_way and under_way["id"] == match_id:
        first, final, record = under_way["from_version"], latest, None
    else:
        raise NotFound(_("this campaign has no match %(match)s", match=json.dumps(match_id)))
    if looked_at is not None and looked_at < first:
        raise NotFound(
            _(
                "match %(match)s had not begun at event %(version)s",
                match=json.dumps(match_id),
                version=looked_at,
            )
        )
    return {"first": first, "final": final, "finished": record is not None, "record": record}


def next_steps(state: dict, seat: str | None, role: str | None) -> list[dict]:
    """What the campaign waits for now (`base.next_step`): a match to start, the Leaders to
    choose, the deck and the draw, the player due to exile, move the Nemesis, act or
    recruit, as the match the rules folded stands."""
    names = {p["id"]: p["name"] for p in state["players"]}
    match = _live(state)
    if match is None:
        return [
            next_step(
                None,
                _("Start the next match"),
                _("The campaign waits for its next match."),
                "dashboard",
            )
        ]
    steps = [
        next_step(
            pid,
            _("Choose your Leader"),
            _("Waiting for %(player)s to choose a Leader.", player=names[pid]),
            "match",
        )
        for pid in leader_options(state)
    ]
    if steps:
        return steps
    phase, active = match["phase"], match["active"]
    if phase == "deck":
        return [next_step(None, _("Shuffle the deck"), _("The match waits for its deck."), "match")]
    if phase == "draw":
        return [
            next_step(
                None,
                _("Record the draw"),
                _("The match waits for the draw of who plays first."),
                "match",
            )
        ]
    if match["nemesis"]:
        who = match["nemesis"]["owner"]
        do = _("Move the Nemesis")
        waits = _("Waiting for %(player)s to move the Nemesis.", player=names[who])
    elif exile_options(state):
        who = exile_options(state)[0]
        do = _("Exile a character")
        waits = _("Waiting for %(player)s to exile a character.", player=names[who])
    elif phase == "action":
        who = active
        do, waits = _("Your action phase"), _("Waiting for %(player)s to act.", player=names[who])
    else:
        who = active
        do = _("Your recruitment phase")
        waits = _("Waiting for %(player)s to recruit.", player=names[who])
    return [next_step(who, do, waits, "match")]


def next_free(state: dict, event_type: str, field: str) -> str | None:
    """The id a form left empty is given (a match's: match-1, match-2, ... the first that no
    match of the campaign has had), or None when the system makes none for that field."""
    if (event_type, field) != ("MatchStarted", "match"):
        return None
    return free_id("match-", [m["id"] for m in state["matches"]])
