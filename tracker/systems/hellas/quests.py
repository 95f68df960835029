"""Quests: tokens on the board (content), undertaken on entering their Region, step by step.

The source (p. 9): entering a Region with a Quest token lets the Hero undertake that Quest
if it meets the requirements. Our content gives each quest its Region, the attributes it
needs, its steps and its rewards. A hero on a quest takes one step a turn in place of its
move (the hero's normal action), and does not move until the quest is done; the last step
ends the quest, takes its token off the board and gives its rewards.
"""

from __future__ import annotations

from tracker.errors import RuleViolation

from .grants import give
from .rules import GameHandlers, _my_turn, _normal_action, name, region_name

#: the handlers of the quests
handlers = GameHandlers()


def quest_name(state: dict, qid: str) -> str:
    found = state["content"].get("quests", {}).get(qid)
    return found["name"] if found else qid


def may_undertake(state: dict, game: dict, player: str, qid: str) -> str | None:
    """Why the player's hero may not undertake the quest now, or None when it may."""
    quest = state["content"].get("quests", {}).get(qid)
    if quest is None:
        return f"there is no quest {qid!r} in this game's content"
    token = game["quests"][qid]
    title, who = quest["name"], name(state, player)
    if token["done_by"]:
        return f"{title} was done by {name(state, token['done_by'])}: its token left the board"
    if token["hero"]:
        return f"{name(state, token['hero'])}'s hero is on {title} already"
    hero = game["heroes"][player]
    if hero["quest"]:
        return f"a hero undertakes one quest at a time ({who}'s is on {quest_name(state, hero['quest'])})"
    path = game["turn"]["hero_path"]
    where = region_name(state, quest["region"])
    if game["turn"]["player"] != player or not path or path[-1] != quest["region"]:
        return (
            f"a hero undertakes a quest on entering its region ({who}'s hero did not end a move "
            f"in {where} this turn)"
        )
    for attribute, need in sorted(quest.get("needs", {}).items()):
        if hero[attribute] < need:
            return (
                f"{title} needs {attribute.capitalize()} {need} ({who}'s hero has "
                f"{hero[attribute]})"
            )
    return None


@handlers.in_game("QuestUndertaken")
def quest_undertaken(state, game, data):
    player, qid = data["player"], data["quest"]
    _my_turn(state, game, player)
    why = may_undertake(state, game, player, qid)
    if why:
        raise RuleViolation(why)
    game["quests"][qid]["hero"] = player
    game["heroes"][player]["quest"] = qid


@handlers.in_game("QuestAdvanced")
def quest_advanced(state, game, data):
    player = data["player"]
    hero = game["heroes"][player]
    if not hero["quest"]:
        _my_turn(state, game, player)
        raise RuleViolation(
            f"a quest step is taken on a quest ({name(state, player)}'s hero is on none)"
        )
    _normal_action(state, game, data, "hero")
    qid = hero["quest"]
    quest = state["content"]["quests"][qid]
    token = game["quests"][qid]
    token["step"] += 1
    game["turn"]["normal"].append("hero")
    if token["step"] < len(quest["steps"]):
        return
    token["hero"] = None
    token["done_by"] = player
    hero["quest"] = None
    game["quests_done"][player].append(qid)
    for item in quest["rewards"]:
        give(state, game, item, player, f"the quest {quest['name']}")
