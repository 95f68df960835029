"""Quests: tokens on the board (content), undertaken on entering their Region, step by step.

The source (p. 9): entering a Region with a Quest token lets the Hero undertake that Quest
if it meets the requirements. Our content gives each quest its Region, the attributes it
needs, its steps and its rewards. A hero on a quest takes one step a turn in place of its
move (the hero's normal action), and does not move until the quest is done; the last step
ends the quest, takes its token off the board and gives its rewards.
"""

from __future__ import annotations

from tracker.errors import RuleViolation
from tracker.systems.i18n import _

from .grants import give
from .rules import (
    GameHandlers,
    _my_turn,
    _normal_action,
    attribute,
    name,
    quest_title,
    region_name,
)

#: the handlers of the quests
handlers = GameHandlers()


quest_name = quest_title


def may_undertake(state: dict, game: dict, player: str, qid: str) -> str | None:
    """Why the player's hero may not undertake the quest now, or None when it may."""
    quest = state["content"].get("quests", {}).get(qid)
    if quest is None:
        return _("there is no quest %(quest)r in this game's content", quest=qid)
    token = game["quests"][qid]
    title, who = quest_title(state, qid), name(state, player)
    if token["done_by"]:
        return _(
            "%(quest)s was done by %(player)s: its token left the board",
            quest=title,
            player=name(state, token["done_by"]),
        )
    if token["hero"]:
        return _(
            "%(player)s's hero is on %(quest)s already",
            player=name(state, token["hero"]),
            quest=title,
        )
    hero = game["heroes"][player]
    if hero["quest"]:
        return _(
            "a hero undertakes one quest at a time (%(player)s's is on %(quest)s)",
            player=who,
            quest=quest_title(state, hero["quest"]),
        )
    path = game["turn"]["hero_path"]
    where = region_name(state, quest["region"])
    if game["turn"]["player"] != player or not path or path[-1] != quest["region"]:
        return _(
            "a hero undertakes a quest on entering its region (%(player)s's hero did not end "
            "a move in %(region)s this turn)",
            player=who,
            region=where,
        )
    for key, need in sorted(quest.get("needs", {}).items()):
        if hero[key] < need:
            return _(
                "%(quest)s needs %(attribute)s %(need)s (%(player)s's hero has %(has)s)",
                quest=title,
                attribute=attribute(key),
                need=need,
                player=who,
                has=hero[key],
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
            _(
                "a quest step is taken on a quest (%(player)s's hero is on none)",
                player=name(state, player),
            )
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
        give(state, game, item, player, _("the quest %(quest)s", quest=quest_title(state, qid)))
