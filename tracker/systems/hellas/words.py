"""One line of words per event, for the audit log."""

from __future__ import annotations

from .rules import (
    CONDITION_WORDS,
    artifact_name,
    card_name,
    monster_name,
    monument_name,
    name,
    region_name,
)


def _count(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def _moves(state, moves) -> str:
    return ", ".join(
        f"{_count(m['count'], 'hoplite')} from {region_name(state, m['origin'])} to "
        f"{region_name(state, m['destination'])}"
        for m in moves
    )


def describe(state: dict, event) -> str:
    kind, data = event.type, event.data
    game = state["game"]
    who = name(state, data.get("player"))
    words = _WORDS.get(kind)
    line = words(state, game, data, who) if words else kind
    if kind in _GRANTED and game and game.get("last_grant"):
        line += f" ({game['last_grant']})"
    line = line[:1].upper() + line[1:]
    over = game and game["over"]
    if over and over["version"] == event.version and over["winner"]:
        line += (
            f"; {name(state, over['winner'])} wins game {game['id']} as "
            f"{CONDITION_WORDS[over['condition']]}"
        )
    return line


def _game_started(state, game, data, who):
    seats = ", ".join(name(state, p) for p in data["order"])
    return f"Game {data['game']} began: {seats}"


def _abandoned(state, game, data, who):
    return f"Game {game['id']} was abandoned: {data['reason']}"


def _monument(state, game, data, who):
    level = game["monuments"][data["monument"]]["level"]
    gained = game["turn"].get("priests_gained") or 0
    line = (
        f"{who} built {monument_name(state, data['monument'])} to level {level}, gained "
        f"{_count(gained, 'priest')}, and the round ended"
    )
    for player, mid in game["turn"].get("blessed") or ():
        line += f"; {name(state, player)} received the blessing of {monument_name(state, mid)}"
    if level == state["content"]["limits"]["monument_levels"]:
        line += f"; {monument_name(state, data['monument'])} is complete and active"
    return line


def _monster_phase(state, game, data, who):
    card = state["content"]["event_cards"].get(data["card"], {}).get("name", data["card"])
    news = game["turn"].get("monster_news") or {}
    beast = monster_name(state, news.get("monster", ""))
    where = region_name(state, news.get("region", ""))
    happened = {
        "appeared": f"{beast} appeared in {where}",
        "moved": f"{beast} went to {where}",
        "stayed": f"{beast} stayed in {where}",
        "slain": f"{beast} was slain in this game, and nothing stirred",
    }.get(news.get("how"), "nothing stirred")
    return f"{who} drew the event card {card} for the Monster Phase: {happened}"


def _event_resolved(state, game, data, who):
    card = state["content"]["event_cards"].get(game["turn"]["event_card"] or "", {})
    line = f"{who} resolved the event {card.get('name', '?')}: {card.get('words', 'no effect')}"
    killed = (game["turn"].get("event_news") or {}).get("killed") or {}
    dead = [f"{name(state, p)} lost {_count(n, 'hoplite')}" for p, n in killed.items() if n]
    if dead:
        line += " (" + ", ".join(dead) + ")"
    return line


def _hunt_began(state, game, data, who):
    drawn = len(data.get("cards") or ())
    return (
        f"{who} began to hunt {monster_name(state, data['monster'])} and drew "
        f"{_count(drawn, 'combat card')} (Strength {game['heroes'][data['player']]['strength']})"
    )


def _quest_advanced(state, game, data, who):
    qid = next(
        (q for q, token in game["quests"].items() if token["hero"] == data["player"]), None
    ) or next(q for q in reversed(game["quests_done"][data["player"]]))
    quest = state["content"]["quests"][qid]
    token = game["quests"][qid]
    step = quest["steps"][token["step"] - 1]
    line = f"{who}'s hero took step {token['step']} of {quest['name']}: {step}"
    if token["done_by"]:
        line += "; the quest is done"
    return line


def _cards_drawn(state, game, data, who):
    return f"{who} drew {_count(len(data.get('cards') or ()), 'combat card')}"


def _hero_attacked(state, game, data, who):
    hunt = game["hunt"]
    beast = monster_name(state, hunt["monster"])
    if not data["wounds"]:
        return f"{who}'s hero could not wound {beast}, and the hunt failed"
    wounds = ", ".join(w["wound"] for w in data["wounds"])
    line = f"{who}'s hero wounded {beast} ({wounds})"
    if hunt["status"] == "slain":
        line += " and slew it"
    return line


def _monster_attacked(state, game, data, who):
    hunt = game["hunt"]
    attack = hunt["attacks"][-1]
    line = (
        f"{monster_name(state, hunt['monster'])} struck {who}'s hero with {attack['name']} "
        f"(rolled {attack['roll']}, {_count(attack['hero_wounds'], 'wound')})"
    )
    if attack["ends_hunt"]:
        line += ", and the hunt failed"
    return line


def _reward(state, game, data, who):
    what = artifact_name(state, data["artifact"]) if data.get("artifact") else "a priest"
    return f"{who} claimed {what} for the {data['wound']} wound of the failed hunt"


def _battle_card(state, game, data, who):
    card = state["content"]["combat_cards"].get(data["card"], {})
    return (
        f"{who} played {card_name(state, data['card'])} (strength {card.get('strength')}, "
        f"{_count(card.get('casualties', 0), 'casualty')})"
    )


def _passed(state, game, data, who):
    # Only the second pass in a row decides a battle, and then no one passes again.
    battle = game["battle"] or game["battles"][-1]
    out = battle["outcome"]
    if not out:
        return f"{who} passed"
    strength = out["strength"]
    winner, loser = out["winner"], out["loser"]
    return (
        f"{who} passed; {name(state, winner)} won the battle for "
        f"{region_name(state, battle['region'])}, strength {strength[winner]} against "
        f"{name(state, loser)}'s {strength[loser]}"
    )


def _retreated(state, game, data, who):
    if data["to"] is None:
        return f"{who} could not retreat, and the army fell"
    return f"{who}'s army retreated to {region_name(state, data['to'])}"


#: the effects of a grant: their words end with what granted them
_GRANTED = {
    "TempleBuilt",
    "HoplitesFortified",
    "ArtifactGained",
    "HeroAttributeChanged",
    "RegionControlChanged",
    "CombatCardsDrawn",
}

_WORDS = {
    "GameStarted": _game_started,
    "GameAbandoned": _abandoned,
    "TurnEnded": lambda s, g, d, who: f"{who} ended the turn",
    "ArtifactsUsed": lambda s, g, d, who: (
        f"{who} used " + ", ".join(artifact_name(s, a) for a in d["artifacts"])
    ),
    "HeroMoved": lambda s, g, d, who: (
        f"{who}'s hero travelled " + " → ".join(region_name(s, r) for r in g["turn"]["hero_path"])
        if g["turn"]["hero_path"]
        else f"{who}'s hero moved"
    ),
    "HoplitesMoved": lambda s, g, d, who: f"{who} moved {_moves(s, d['moves'])}",
    "PriestsSent": lambda s, g, d, who: (
        f"{who} sent {_count(d['count'], 'priest')} to {monument_name(s, d['monument'])}"
    ),
    "HoplitesRecruited": lambda s, g, d, who: (
        f"{who} recruited "
        + ", ".join(
            f"{_count(p['count'], 'hoplite')} in {region_name(s, p['region'])}" for p in d["placed"]
        )
    ),
    "HoplitesMarched": lambda s, g, d, who: f"{who} marched {_moves(s, d['moves'])}",
    "RegionUsurped": lambda s, g, d, who: f"{who} usurped {region_name(s, d['region'])}",
    "Prayed": lambda s, g, d, who: (
        f"{who} prayed and gained {_count(g['turn'].get('priests_gained') or 0, 'priest')}"
    ),
    "HuntBegan": _hunt_began,
    "MonumentBuilt": _monument,
    "MonsterPhaseResolved": _monster_phase,
    "EventResolved": _event_resolved,
    "QuestUndertaken": lambda s, g, d, who: (
        f"{who}'s hero undertook the quest {s['content']['quests'][d['quest']]['name']} in "
        f"{region_name(s, s['content']['quests'][d['quest']]['region'])}"
    ),
    "QuestAdvanced": _quest_advanced,
    "CombatCardsDrawn": _cards_drawn,
    "HeroAttacked": _hero_attacked,
    "MonsterAttacked": _monster_attacked,
    "HuntRewardClaimed": _reward,
    "BattleBegan": lambda s, g, d, who: (
        f"{who} attacked {name(s, g['battle']['defender'])} in {region_name(s, d['region'])}"
    ),
    "CombatCardPlayed": _battle_card,
    "BattlePassed": _passed,
    "ArmyRetreated": _retreated,
    "RegionControlChanged": lambda s, g, d, who: (
        f"{name(s, d['player'])} took control of {region_name(s, d['region'])}"
        + (f", {d['reason']}" if d.get("reason") else "")
    ),
    "TempleBuilt": lambda s, g, d, who: f"{who} built a temple in {region_name(s, d['region'])}",
    "HoplitesFortified": lambda s, g, d, who: (
        f"{who} fortified {_count(d['count'], 'hoplite')} in {region_name(s, d['region'])}"
    ),
    "ArtifactGained": lambda s, g, d, who: f"{who} took {artifact_name(s, d['artifact'])}",
    "HeroAttributeChanged": lambda s, g, d, who: (
        f"{who}'s hero now has {d['attribute'].capitalize()} {d['value']}"
    ),
}
