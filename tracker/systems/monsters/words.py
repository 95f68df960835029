"""What each event of monster battles says in the audit log."""

from __future__ import annotations

from tracker.events import Event

from . import rules
from .hexes import shown


def describe(state: dict, event: Event) -> str:
    """One line of the audit log for `event`; `state` is the state just after it."""
    data = event.data
    battle = state["battle"]
    if event.type == "BattleBegun":
        first = state["sides"][data["first"]]
        return f"Battle {data['battle']} began on {battle['map_name']}; {first} moves first"
    if event.type == "FiguresChosen":
        figures = state["figures"]
        names = ", ".join(figures[k]["name"] for k in data["figures"])
        return f"Each side fields {names}, with the {figures[data['king']]['name']} as king"
    pieces = battle["pieces"]
    who = rules.who
    if event.type == "FigurePlaced":
        piece = pieces[data["piece"]]
        king = " (king)" if piece["king"] else ""
        return f"{who(state, piece)}{king} was placed at {shown(piece['pos'])}"
    if event.type == "FigureMoved":
        piece = pieces[data["piece"]]
        action = battle["last_action"]
        steps = action["steps"]
        words = (
            f"{who(state, piece)} moved from {shown(action['from'])} to "
            f"{shown(action['path'][-1])} ({steps} step{'' if steps == 1 else 's'})"
        )
        outcome = battle["outcome"]
        if outcome and outcome["reason"] == "castle-taken" and battle["phase"] == "decided":
            words += f" and {rules.outcome_words(state, battle)}"
        return words
    if event.type in ("FlierCameDown", "FlierStayedAloft"):
        flier, attacker = pieces[data["flier"]], pieces[data["attacker"]]
        if event.type == "FlierCameDown":
            return f"{who(state, flier)} came down to fight {who(state, attacker)}"
        return f"{who(state, flier)} stayed aloft and would not fight {who(state, attacker)}"
    if event.type == "AttackMade":
        return attack_words(state, battle["last_action"])
    if event.type == "BattleEnded":
        if data["winner"] is None:
            return f"Battle {data['battle']} ended in a draw: both kings fell at once"
        return (
            f"Battle {data['battle']} ended: {state['sides'][data['winner']]} won "
            f"({rules.outcome_words(state, battle)})"
        )
    return event.type


def attack_words(state: dict, action: dict) -> str:
    """An attack as one line: who, the totals of each round, and what it cost."""
    pieces = state["battle"]["pieces"]
    attacker, defender = pieces[action["attacker"]], pieces[action["defender"]]
    # a tie is rolled again: "10 against 10, rolled again, then 13 against 9"
    rounds = ", rolled again, then ".join(
        f"{r['attacker_total']} against {r['defender_total']}" for r in action["rounds"]
    )
    words = f"{rules.who(state, attacker)} attacked {rules.who(state, defender)}: {rounds}"
    outcome = action["outcome"]
    if outcome == "both-sixes":
        return words + "; both rolled two sixes and both died"
    winner, loser = (attacker, defender) if outcome.startswith("attacker") else (defender, attacker)
    if outcome.endswith("sixes"):
        words += f"; the {winner['name']} rolled two sixes"
    if loser["id"] in action["removed"]:
        return words + f"; the {loser['name']} was killed"
    left = loser["lives"]
    return (
        words
        + f"; the {loser['name']} lost a life ({left} {'life' if left == 1 else 'lives'} left)"
    )
