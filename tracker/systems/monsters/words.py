"""What each event of monster battles says in the audit log.

Each sentence is one message with its parameters (`tracker.systems.i18n`), read in the reader's
language; a sentence with optional parts is a choice between whole messages.
"""

from __future__ import annotations

from tracker.events import Event
from tracker.systems.i18n import N_, _, listed, localised, ngettext

from . import rules
from .hexes import shown


def describe(state: dict, event: Event) -> str:
    """One line of the audit log for `event`; `state` is the state just after it."""
    data = event.data
    battle = state["battle"]
    if event.type == "BattleBegun":
        return _(
            "Battle %(battle)s began on %(map)s; %(player)s moves first",
            battle=data["battle"],
            map=rules.map_name(state, battle),
            player=state["sides"][data["first"]],
        )
    if event.type == "FiguresChosen":
        figures = state["figures"]
        return _(
            "Each side fields %(figures)s, with the %(king)s as king",
            figures=listed([localised(figures[k], "name") for k in data["figures"]]),
            king=localised(figures[data["king"]], "name"),
        )
    pieces = battle["pieces"]
    who = rules.who
    if event.type == "FigurePlaced":
        piece = pieces[data["piece"]]
        placed = (
            N_("%(figure)s (king) was placed at %(space)s")
            if piece["king"]
            else N_("%(figure)s was placed at %(space)s")
        )
        return _(placed, figure=who(state, piece), space=shown(piece["pos"]))
    if event.type == "FigureMoved":
        return moved_words(state, battle, pieces[data["piece"]])
    if event.type in ("FlierCameDown", "FlierStayedAloft"):
        flier, attacker = pieces[data["flier"]], pieces[data["attacker"]]
        if event.type == "FlierCameDown":
            said = _("%(flier)s came down to fight %(figure)s", **_pair(state, flier, attacker))
        else:
            said = _(
                "%(flier)s stayed aloft and would not fight %(figure)s",
                **_pair(state, flier, attacker),
            )
        return said
    if event.type == "AttackMade":
        return attack_words(state, battle["last_action"])
    if event.type == "BattleEnded":
        if data["winner"] is None:
            return _(
                "Battle %(battle)s ended in a draw: both kings fell at once",
                battle=data["battle"],
            )
        return _(
            "Battle %(battle)s ended: %(winner)s won (%(outcome)s)",
            battle=data["battle"],
            winner=state["sides"][data["winner"]],
            outcome=rules.outcome_words(state, battle),
        )
    return event.type


def _pair(state: dict, flier: dict, attacker: dict) -> dict:
    return {"flier": rules.who(state, flier), "figure": rules.who(state, attacker)}


def moved_words(state: dict, battle: dict, piece: dict) -> str:
    """A move: from where to where in how many steps, and a castle taken on the way."""
    action = battle["last_action"]
    steps = action["steps"]
    params = {
        "figure": rules.who(state, piece),
        "start": shown(action["from"]),
        "space": shown(action["path"][-1]),
    }
    outcome = battle["outcome"]
    if outcome and outcome["reason"] == "castle-taken" and battle["phase"] == "decided":
        return ngettext(
            "%(figure)s moved from %(start)s to %(space)s (%(num)d step) and %(outcome)s",
            "%(figure)s moved from %(start)s to %(space)s (%(num)d steps) and %(outcome)s",
            steps,
            outcome=rules.outcome_words(state, battle),
            **params,
        )
    return ngettext(
        "%(figure)s moved from %(start)s to %(space)s (%(num)d step)",
        "%(figure)s moved from %(start)s to %(space)s (%(num)d steps)",
        steps,
        **params,
    )


def _rounds(results: list[dict]):
    """The totals of each round; a tie is rolled again: "10 against 10, rolled again, then
    13 against 9"."""
    first = _(
        "%(attacker)s against %(defender)s",
        attacker=results[0]["attacker_total"],
        defender=results[0]["defender_total"],
    )
    if len(results) == 1:
        return first
    return _("%(first)s, rolled again, then %(rest)s", first=first, rest=_rounds(results[1:]))


def attack_words(state: dict, action: dict) -> str:
    """An attack as one line: who, the totals of each round, and what it cost."""
    pieces = state["battle"]["pieces"]
    attacker, defender = pieces[action["attacker"]], pieces[action["defender"]]
    params = {
        "attacker": rules.who(state, attacker),
        "defender": rules.who(state, defender),
        "rounds": _rounds(action["rounds"]),
    }
    outcome = action["outcome"]
    if outcome == "both-sixes":
        return _(
            "%(attacker)s attacked %(defender)s: %(rounds)s; both rolled two sixes and both died",
            **params,
        )
    winner, loser = (attacker, defender) if outcome.startswith("attacker") else (defender, attacker)
    params["loser"] = rules.figure_name(state, loser)
    sixes = outcome.endswith("sixes")
    if sixes:
        params["winner"] = rules.figure_name(state, winner)
    if loser["id"] in action["removed"]:
        if sixes:
            return _(
                "%(attacker)s attacked %(defender)s: %(rounds)s; the %(winner)s rolled two "
                "sixes; the %(loser)s was killed",
                **params,
            )
        return _(
            "%(attacker)s attacked %(defender)s: %(rounds)s; the %(loser)s was killed", **params
        )
    if sixes:
        return ngettext(
            "%(attacker)s attacked %(defender)s: %(rounds)s; the %(winner)s rolled two sixes; "
            "the %(loser)s lost a life (%(num)d life left)",
            "%(attacker)s attacked %(defender)s: %(rounds)s; the %(winner)s rolled two sixes; "
            "the %(loser)s lost a life (%(num)d lives left)",
            loser["lives"],
            **params,
        )
    return ngettext(
        "%(attacker)s attacked %(defender)s: %(rounds)s; the %(loser)s lost a life "
        "(%(num)d life left)",
        "%(attacker)s attacked %(defender)s: %(rounds)s; the %(loser)s lost a life "
        "(%(num)d lives left)",
        loser["lives"],
        **params,
    )
