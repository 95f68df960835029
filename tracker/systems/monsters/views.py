"""What a player may see and do: the rules' answers the pages ask for.

Monster battles' templates call these as ``system.views.moves(...)``; each asks the rules
(rules.py) and restates none.
"""

from __future__ import annotations

import json

from markupsafe import escape

from tracker.errors import NotFound, RuleViolation
from tracker.systems import i18n
from tracker.systems.base import free_id, next_step
from tracker.systems.i18n import _, localised

from . import hexes, rules
from .schemas import EVENTS


def visible_state(state: dict, side: str | None) -> dict:
    """The state a player (or a spectator, side None) may see.

    Monster battles hide nothing: the board, every figure and every die are open to all.
    """
    return state


def lost_for_good(before: dict, after: dict) -> list[str]:
    """What an event took for good, by the states the rules left before and after it: each
    figure that was on the board and is off it (slain), by name; a king among them decides
    the battle. The rules decided; this only compares (`GameSystem.final_outcome`)."""
    was, now = before.get("battle"), after.get("battle")
    if not was or not now:
        return []
    return [
        piece["name"]
        for pid, piece in was["pieces"].items()
        if piece["pos"] is not None and now["pieces"].get(pid, {}).get("pos") is None
    ]


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


# -- what the pages offer: only what the rules allow now --------------------------------------


def placements(state: dict, piece_id: str) -> list[str]:
    """The spaces a figure may be placed on now (empty when it may not be placed now)."""
    battle = state["battle"]
    if not battle or battle["phase"] != "placing":
        return []
    piece = battle["pieces"].get(piece_id)
    if piece is None or piece["pos"] is not None:
        return []
    nearest = rules.nearest_free(battle, piece)
    return sorted(
        (
            space
            for space in battle["spaces"]
            if _allowed(rules.check_placement, state, battle, piece, space, nearest)
        ),
        key=hexes.coords,
    )


def moves(state: dict, piece_id: str) -> dict[str, list[str]]:
    """The moves the rules allow the figure now: destination -> one legal path.

    Like `destinations`, each path then asked of the rules of a move (`rules.check_move`),
    which keep a lone king to its forced march and hold back the other side while a lone
    king still owes its attack.
    """
    out = destinations(state, piece_id)
    if not out:
        return {}
    battle = state["battle"]
    piece = battle["pieces"][piece_id]
    return {
        end: path
        for end, path in out.items()
        if _allowed(rules.check_move, state, battle, piece, path)
    }


def _allowed(check, *args) -> bool:
    """Whether a rule of rules.py accepts `args` (it raises RuleViolation when not)."""
    try:
        check(*args)
    except RuleViolation:
        return False
    return True


def movers(state: dict) -> list[str]:
    """The figures that have a legal move now, in the order of the board's pieces."""
    battle = state["battle"]
    if not battle or battle["phase"] != "fighting":
        return []
    return [pid for pid in battle["pieces"] if moves(state, pid)]


def attack_options(state: dict, attacker_id: str) -> list[dict]:
    """The enemies the figure that moved may attack now, each with what comes first.

    `{"defender": id, "ask": True}` when the defender is a flier whose owner must first say
    whether it comes down to fight; `"ask": False` when the attack may be rolled at once.
    """
    battle = state["battle"]
    out = []
    for defender_id in targets(state, attacker_id):
        attacker = battle["pieces"][attacker_id]
        defender = battle["pieces"][defender_id]
        ask = rules.awaited_answer(battle, attacker, defender) == "ask"
        out.append({"defender": defender_id, "ask": ask})
    return out


def may_stay_aloft(state: dict, flier_id: str) -> bool:
    """True when the flier may refuse to come down (it is not its side's last but the king)."""
    battle = state["battle"]
    flier = battle["pieces"].get(flier_id) if battle else None
    return bool(flier) and rules.may_refuse(battle, flier)


def outcome_words(state: dict) -> str:
    """How the battle under way was decided (or ended), in words; "" when it was not."""
    battle = state.get("battle")
    if not battle or not battle.get("outcome"):
        return ""
    return rules.outcome_words(state, battle)


def map_layout(state: dict, map_id: str) -> dict:
    """A map of the campaign as spaces ("q,r" -> terrain) and castles (side -> space)."""
    spaces, castles = hexes.parse_rows(state["maps"][map_id]["rows"])
    first, second = state["order"]
    return {"spaces": spaces, "castles": {first: castles["A"], second: castles["B"]}}


def shown(space: str) -> str:
    """A space as players read it: (q, r)."""
    return hexes.shown(space)


def path_text(path: list[str]) -> str:
    """A path as a form sends it back: "3,2 3,3"."""
    return " ".join(path)


def battle_steps(entries: list, battle_id: str) -> list:
    """The log entries of battle `battle_id`, in order, the voided ones left out, for its
    replay; NotFound when a battle is named and the campaign has none of that id."""
    steps = [
        entry
        for entry in entries
        if entry.event.type in EVENTS
        and not entry.voided_by
        and entry.event.data.get("battle") == battle_id
    ]
    if battle_id and not steps:
        raise NotFound(_("this campaign has no battle %(battle)s", battle=json.dumps(battle_id)))
    return steps


def figure_shown(battle: dict | None, piece_id: str) -> str:
    """The figure a battle's page is asked to pick out (`?piece=`, empty for none);
    NotFound when the battle under way has no such figure."""
    if piece_id and (not battle or piece_id not in battle["pieces"]):
        raise NotFound(_("this battle has no figure %(figure)s", figure=json.dumps(piece_id)))
    return piece_id


# -- words the pages show, in the reader's language --------------------------------------------


def who(state: dict, piece: dict) -> str:
    """A figure as players name it: Alice's Bear."""
    return rules.who(state, piece)


def figure_name(state: dict, piece: dict) -> str:
    """A figure of a battle by its name alone: Bear, Bear 2."""
    return rules.figure_name(state, piece)


def kind_name(state: dict, kind: str) -> str:
    """A kind of figure the campaign carries (`state.figures`), by its name."""
    figure = state["figures"].get(kind)
    return localised(figure, "name") if figure else kind


def map_name(state: dict, map_id: str) -> str:
    """A map the campaign carries, by its name (its id when it has none of that id)."""
    found = state["maps"].get(map_id)
    return localised(found, "name") if found else map_id


def battle_map_name(state: dict, battle: dict) -> str:
    """The name of the map a battle is fought on."""
    return rules.map_name(state, battle)


def terrain(word: str) -> str:
    return _(hexes.TERRAIN_WORDS[word]) if word in hexes.TERRAIN_WORDS else word


def movement(word: str) -> str:
    return rules.movement(word)


def reason(word: str) -> str:
    """How a battle ended (king-killed ...) in words."""
    return _(rules.REASON_WORDS[word]) if word in rules.REASON_WORDS else word


def phase(word: str) -> str:
    return _(rules.PHASE_WORDS[word]) if word in rules.PHASE_WORDS else word


def round_words(state: dict, result: str, attacker: dict, defender: dict) -> str:
    """Who won a round of an attack, in words."""
    a, d = figure_name(state, attacker), figure_name(state, defender)
    if result == "attacker":
        return _("the %(figure)s wins", figure=a)
    if result == "defender":
        return _("the %(figure)s wins", figure=d)
    if result == "attacker-sixes":
        return _("two sixes: the %(figure)s wins whatever the totals", figure=a)
    if result == "defender-sixes":
        return _("two sixes: the %(figure)s wins whatever the totals", figure=d)
    if result == "both-sixes":
        return _("two sixes on both sides: both die")
    return _("a tie: rolled again")


class _Mark(str):
    """A figure's mark on the map, from its name as the reader reads it: "Bea", "Sto2"."""

    def __new__(cls, name):
        mark = super().__new__(cls, _marked(str(name)))
        mark.name = name
        return mark

    def __html__(self) -> str:
        return str(escape(_marked(i18n.translate(self.name, i18n.reader()))))


def _marked(name: str) -> str:
    words = name.split(" ")
    return words[0][:3] + (words[-1][:1] if len(words) > 1 else "")


def mark(state: dict, piece: dict) -> str:
    """What a figure's disc on the map shows: the start of its name, and its number."""
    return _Mark(figure_name(state, piece))


def next_steps(state: dict, seat: str | None, role: str | None) -> list[dict]:
    """What the campaign waits for now (`base.next_step`): a battle to begin, its figures to
    choose and place, the side whose move it is (and a flier's owner asked whether it comes
    down to fight), the end to record, as the battle the rules folded stands."""
    sides, everyone = state["sides"], list(state["order"])
    battle = state["battle"]
    if not battle or battle["phase"] == "ended":
        waits = _("The campaign waits for its next battle.")
        return [next_step(everyone, _("Begin the next battle"), waits, "battle")]
    phase = battle["phase"]
    if phase == "choosing":
        waits = _("The players choose the figures here.")
        return [next_step(everyone, _("Choose your figures"), waits, "battle")]
    if phase == "placing":
        off = [
            s
            for s in everyone
            if any(p["side"] == s and p["pos"] is None for p in battle["pieces"].values())
        ]
        return [
            next_step(
                side,
                _("Place %(player)s's figures", player=sides[side]),
                _("Waiting for %(player)s to place its figures.", player=sides[side]),
                "battle",
            )
            for side in off
        ]
    if phase == "decided":
        winner = battle["outcome"]["winner"]
        waits = (
            _("%(player)s's player records the end of the battle here.", player=sides[winner])
            if winner
            else _("A player records the end of the battle here.")
        )
        return [next_step(winner or everyone, _("Record the end of the battle"), waits, "battle")]
    turn = battle["turn"]
    moved = turn["moved"]
    asked = [o for o in attack_options(state, moved) if o["ask"]] if moved else []
    steps = [
        next_step(
            battle["pieces"][o["defender"]]["side"],
            _(
                "Say whether %(flier)s comes down to fight",
                flier=rules.who(state, battle["pieces"][o["defender"]]),
            ),
            _(
                "Waiting for %(player)s to say whether %(flier)s comes down to fight.",
                player=sides[battle["pieces"][o["defender"]]["side"]],
                flier=rules.who(state, battle["pieces"][o["defender"]]),
            ),
            "battle",
        )
        for o in asked
    ]
    side = turn["side"]
    do = (
        _("Your move: attack with %(figure)s", figure=rules.who(state, battle["pieces"][moved]))
        if moved
        else _("Your move")
    )
    waits = _("Waiting for %(player)s's move.", player=sides[side])
    return steps + [next_step(side, do, waits, "battle")]


def next_free(state: dict, event_type: str, field: str) -> str | None:
    """The id a form left empty is given (a battle's: b1, b2, ... the first that no battle of
    the campaign has had), or None when the system makes none for that field."""
    if (event_type, field) != ("BattleBegun", "battle"):
        return None
    return free_id("b", [b["id"] for b in state["battles"]])
