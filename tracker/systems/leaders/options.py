"""The legal choices of the moment, for the pages' forms: each candidate is tried on a copy.

Nothing here decides a rule: a candidate is offered only when the fold itself accepts it, so
the pages can never offer what the fold would refuse, nor hide what it would accept.
"""

from __future__ import annotations

from copy import deepcopy
from itertools import permutations
from types import SimpleNamespace

from tracker.errors import RuleViolation

from . import geometry as geo
from . import rules
from . import words as words_


def trial(state: dict, event_type: str, data: dict) -> dict | None:
    """The state `event_type` with `data` would leave, or None when a rule refuses it."""
    copy = {
        **state,
        "match": deepcopy(state["match"]),
        "standings": deepcopy(state["standings"]),
        "matches": list(state["matches"]),
    }
    try:
        rules.apply(copy, SimpleNamespace(type=event_type, data=data, version=0))
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
        words = "Recruit " + words_.recruit_phrase(state, data["card"], data["spaces"])
    else:
        words = words_.action_phrase(after, kind, data, match["last"]["moves"])
    if match["phase"] == "over":
        words += f" (takes {rules.player_name(state, match['loser'])}'s Leader)"
    elif (
        kind != "CharacterRecruited" and match.get("acted_out") and match["phase"] == "recruitment"
    ):
        words += " (the last to act: the action phase ends)"
    return words


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
    origin = board.at[pid]
    around = geo.neighbours(origin, cells)
    for space in around:
        yield "CharacterMoved", {"player": player, "character": pid, "path": [list(space)]}
    if piece["ability"] == "leader" and board.has(player, "vizier"):
        for first in around:
            for second in geo.neighbours(first, cells):
                path = [list(first), list(second)]
                yield "CharacterMoved", {"player": player, "character": pid, "path": path}
    ability = piece["ability"]
    if ability not in rules.ACTIVE:
        return

    def use(target=None, path=(), form=None):
        data = {
            "player": player,
            "character": pid,
            "target": target,
            "path": [list(s) for s in path],
        }
        data["form"] = form
        return "AbilityUsed", data

    def two_away(space):
        return [geo.step(space, d, 2) for d in geo.DIRECTIONS if geo.step(space, d, 2) in cells]

    others = [o for o in board.at if o != pid]
    if ability == "acrobat":
        for first in two_away(origin):
            yield use(path=[first])
            for second in two_away(first):
                yield use(path=[first, second])
    elif ability == "rider":
        for to in two_away(origin):
            yield use(path=[to])
    elif ability == "colossus":
        for target in others:
            if geo.adjacent(origin, board.at[target]):
                for to in geo.behind(origin, board.at[target]):
                    yield use(target, [to])
    elif ability == "royal-guard":
        leader = board.at[board.leader_of(player)]
        for first in geo.neighbours(leader, cells):
            yield use(path=[first])
            for second in geo.neighbours(first, cells):
                yield use(path=[first, second])
    elif ability == "illusionist":
        for target in others:
            yield use(target)
    elif ability == "claw":
        for target in others:
            yield use(target, form="move")
            yield use(target, form="pull")
    elif ability in ("manipulator", "brewmaster"):
        for target in others:
            for to in geo.neighbours(board.at[target], cells):
                yield use(target, [to])
    elif ability == "wanderer":
        for to in sorted(cells):
            yield use(path=[to])


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
