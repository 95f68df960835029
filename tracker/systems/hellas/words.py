"""One line of words per event, for the audit log: a message and its parameters, said in the
reader's language where the line is read."""

from __future__ import annotations

from tracker.systems.i18n import Texts, _, localised, ngettext

from .rules import (
    artifact_name,
    attribute,
    card_name,
    combat_cards,
    condition,
    event_card_name,
    hoplites,
    listed,
    monster_name,
    monument_name,
    name,
    priests,
    quest_title,
    region_name,
)
from .texts import KEY


def _moves(state, moves):
    return listed(
        _(
            "%(hoplites)s from %(origin)s to %(destination)s",
            hoplites=hoplites(m["count"]),
            origin=region_name(state, m["origin"]),
            destination=region_name(state, m["destination"]),
        )
        for m in moves
    )


def describe(state: dict, event):
    kind, data = event.type, event.data
    game = state["game"]
    who = name(state, data.get("player"))
    words = _WORDS.get(kind)
    line = words(state, game, data, who) if words else kind
    if kind in _GRANTED and game and game.get("last_grant"):
        line = _("%(line)s (%(grant)s)", line=line, grant=game["last_grant"])
    over = game and game["over"]
    if over and over["version"] == event.version and over["winner"]:
        line = _(
            "%(line)s; %(winner)s wins game %(game)s as %(condition)s",
            line=line,
            winner=name(state, over["winner"]),
            game=game["id"],
            condition=condition(over["condition"]),
        )
    return line


def _game_started(state, game, data, who):
    seats = listed(name(state, p) for p in data["order"])
    return _("Game %(game)s began: %(seats)s", game=data["game"], seats=seats)


def _abandoned(state, game, data, who):
    return _("Game %(game)s was abandoned: %(reason)s", game=game["id"], reason=data["reason"])


def _monument(state, game, data, who):
    level = game["monuments"][data["monument"]]["level"]
    gained = game["turn"].get("priests_gained") or 0
    line = _(
        "%(player)s built %(monument)s to level %(level)s, gained %(priests)s, and the round ended",
        player=who,
        monument=monument_name(state, data["monument"]),
        level=level,
        priests=priests(gained),
    )
    for player, mid in game["turn"].get("blessed") or ():
        line = _(
            "%(line)s; %(player)s received the blessing of %(monument)s",
            line=line,
            player=name(state, player),
            monument=monument_name(state, mid),
        )
    if level == state["content"]["limits"]["monument_levels"]:
        line = _(
            "%(line)s; %(monument)s is complete and active",
            line=line,
            monument=monument_name(state, data["monument"]),
        )
    return line


_MONSTER_NEWS = {
    "appeared": lambda beast, where: _(
        "%(monster)s appeared in %(region)s", monster=beast, region=where
    ),
    "moved": lambda beast, where: _("%(monster)s went to %(region)s", monster=beast, region=where),
    "stayed": lambda beast, where: _(
        "%(monster)s stayed in %(region)s", monster=beast, region=where
    ),
    "slain": lambda beast, where: _(
        "%(monster)s was slain in this game, and nothing stirred", monster=beast
    ),
}


def _monster_phase(state, game, data, who):
    news = game["turn"].get("monster_news") or {}
    beast = monster_name(state, news.get("monster", ""))
    where = region_name(state, news.get("region", ""))
    said = _MONSTER_NEWS.get(news.get("how"))
    happened = said(beast, where) if said else _("nothing stirred")
    return _(
        "%(player)s drew the event card %(card)s for the Monster Phase: %(happened)s",
        player=who,
        card=event_card_name(state, data["card"]),
        happened=happened,
    )


def _event_resolved(state, game, data, who):
    cid = game["turn"]["event_card"] or ""
    card = state["content"]["event_cards"].get(cid)
    if card:
        title, effect = event_card_name(state, cid), localised(card, "words")
        effect = effect or _("no effect")
    else:
        title, effect = "?", _("no effect")
    line = _(
        "%(player)s resolved the event %(card)s: %(effect)s", player=who, card=title, effect=effect
    )
    killed = (game["turn"].get("event_news") or {}).get("killed") or {}
    dead = [
        _("%(player)s lost %(hoplites)s", player=name(state, p), hoplites=hoplites(n))
        for p, n in killed.items()
        if n
    ]
    if dead:
        line = _("%(line)s (%(losses)s)", line=line, losses=listed(dead))
    return line


def _hunt_began(state, game, data, who):
    drawn = len(data.get("cards") or ())
    return _(
        "%(player)s began to hunt %(monster)s and drew %(cards)s (Strength %(strength)s)",
        player=who,
        monster=monster_name(state, data["monster"]),
        cards=combat_cards(drawn),
        strength=game["heroes"][data["player"]]["strength"],
    )


def _quest_advanced(state, game, data, who):
    qid = next(
        (q for q, token in game["quests"].items() if token["hero"] == data["player"]), None
    ) or next(q for q in reversed(game["quests_done"][data["player"]]))
    quest = state["content"]["quests"][qid]
    token = game["quests"][qid]
    step = step_words(quest, token["step"] - 1)
    params = {"player": who, "step": token["step"], "quest": quest_title(state, qid), "words": step}
    if token["done_by"]:
        return _(
            "%(player)s's hero took step %(step)s of %(quest)s: %(words)s; the quest is done",
            **params,
        )
    return _("%(player)s's hero took step %(step)s of %(quest)s: %(words)s", **params)


def step_words(quest: dict, index: int):
    """A quest's step in the reader's language, where the pack has it."""
    versions = {
        lang: texts["steps"][index]
        for lang, texts in (quest.get(KEY) or {}).items()
        if isinstance(texts, dict) and len(texts.get("steps") or ()) == len(quest["steps"])
    }
    step = quest["steps"][index]
    return Texts(step, versions) if versions else step


def _cards_drawn(state, game, data, who):
    return _(
        "%(player)s drew %(cards)s", player=who, cards=combat_cards(len(data.get("cards") or ()))
    )


def _hero_attacked(state, game, data, who):
    hunt = game["hunt"]
    beast = monster_name(state, hunt["monster"])
    if not data["wounds"]:
        return _(
            "%(player)s's hero could not wound %(monster)s, and the hunt failed",
            player=who,
            monster=beast,
        )
    wounds = ", ".join(w["wound"] for w in data["wounds"])
    if hunt["status"] == "slain":
        return _(
            "%(player)s's hero wounded %(monster)s (%(wounds)s) and slew it",
            player=who,
            monster=beast,
            wounds=wounds,
        )
    return _(
        "%(player)s's hero wounded %(monster)s (%(wounds)s)",
        player=who,
        monster=beast,
        wounds=wounds,
    )


def _monster_attacked(state, game, data, who):
    hunt = game["hunt"]
    attack = hunt["attacks"][-1]
    found = state["content"]["monsters"].get(hunt["monster"])
    params = {
        "monster": _the_name(found) if found else hunt["monster"],
        "player": who,
        "attack": attack_words(found, attack),
        "roll": attack["roll"],
        "wounds": ngettext("%(num)d wound", "%(num)d wounds", attack["hero_wounds"]),
    }
    if attack["ends_hunt"]:
        return _(
            "%(monster)s struck %(player)s's hero with %(attack)s (rolled %(roll)s, "
            "%(wounds)s), and the hunt failed",
            **params,
        )
    return _(
        "%(monster)s struck %(player)s's hero with %(attack)s (rolled %(roll)s, %(wounds)s)",
        **params,
    )


def _the_name(found):
    return _("The %(name)s", name=localised(found, "name"))


def attack_words(monster, attack):
    """The name of a monster's attack (by its die face) in the reader's language."""
    if not monster:
        return attack["name"]
    for face in monster.get("attacks", ()):
        if face.get("name") == attack["name"]:
            return localised(face, "name")
    return attack["name"]


def _reward(state, game, data, who):
    params = {"player": who, "wound": data["wound"]}
    if data.get("artifact"):
        return _(
            "%(player)s claimed %(artifact)s for the %(wound)s wound of the failed hunt",
            artifact=artifact_name(state, data["artifact"]),
            **params,
        )
    return _("%(player)s claimed a priest for the %(wound)s wound of the failed hunt", **params)


def _battle_card(state, game, data, who):
    card = state["content"]["combat_cards"].get(data["card"], {})
    casualties = card.get("casualties", 0)
    return _(
        "%(player)s played %(card)s (strength %(strength)s, %(casualties)s)",
        player=who,
        card=card_name(state, data["card"]),
        strength=card.get("strength"),
        casualties=ngettext("%(num)d casualty", "%(num)d casualties", casualties),
    )


def _passed(state, game, data, who):
    # Only the second pass in a row decides a battle, and then no one passes again.
    battle = game["battle"] or game["battles"][-1]
    out = battle["outcome"]
    if not out:
        return _("%(player)s passed", player=who)
    strength = out["strength"]
    winner, loser = out["winner"], out["loser"]
    return _(
        "%(player)s passed; %(winner)s won the battle for %(region)s, strength %(strength)s "
        "against %(loser)s's %(against)s",
        player=who,
        winner=name(state, winner),
        region=region_name(state, battle["region"]),
        strength=strength[winner],
        loser=name(state, loser),
        against=strength[loser],
    )


def _retreated(state, game, data, who):
    if data["to"] is None:
        return _("%(player)s could not retreat, and the army fell", player=who)
    return _(
        "%(player)s's army retreated to %(region)s",
        player=who,
        region=region_name(state, data["to"]),
    )


def _hero_moved(s, g, d, who):
    path = g["turn"]["hero_path"]
    if not path:
        return _("%(player)s's hero moved", player=who)
    steps = region_name(s, path[-1])
    for rid in reversed(path[:-1]):
        steps = _("%(first)s → %(rest)s", first=region_name(s, rid), rest=steps)
    return _("%(player)s's hero travelled %(path)s", player=who, path=steps)


def _recruited(s, g, d, who):
    placed = listed(
        _(
            "%(hoplites)s in %(region)s",
            hoplites=hoplites(p["count"]),
            region=region_name(s, p["region"]),
        )
        for p in d["placed"]
    )
    return _("%(player)s recruited %(placed)s", player=who, placed=placed)


def _control_changed(s, g, d, who):
    params = {"player": name(s, d["player"]), "region": region_name(s, d["region"])}
    # The page's form sends the grant's own words as the reason; the line ends with the grant
    # already, in the reader's language, so only a reason of another's words is repeated.
    granted = g.get("last_grant") if g else None
    if d.get("reason") and d["reason"] != (str(granted) if granted else None):
        return _("%(player)s took control of %(region)s, %(reason)s", reason=d["reason"], **params)
    return _("%(player)s took control of %(region)s", **params)


def _quest_undertaken(s, g, d, who):
    quest = s["content"]["quests"][d["quest"]]
    return _(
        "%(player)s's hero undertook the quest %(quest)s in %(region)s",
        player=who,
        quest=quest_title(s, d["quest"]),
        region=region_name(s, quest["region"]),
    )


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
    "TurnEnded": lambda s, g, d, who: _("%(player)s ended the turn", player=who),
    "ArtifactsUsed": lambda s, g, d, who: _(
        "%(player)s used %(artifacts)s",
        player=who,
        artifacts=listed(artifact_name(s, a) for a in d["artifacts"]),
    ),
    "HeroMoved": _hero_moved,
    "HoplitesMoved": lambda s, g, d, who: _(
        "%(player)s moved %(moves)s", player=who, moves=_moves(s, d["moves"])
    ),
    "PriestsSent": lambda s, g, d, who: _(
        "%(player)s sent %(priests)s to %(monument)s",
        player=who,
        priests=priests(d["count"]),
        monument=monument_name(s, d["monument"]),
    ),
    "HoplitesRecruited": _recruited,
    "HoplitesMarched": lambda s, g, d, who: _(
        "%(player)s marched %(moves)s", player=who, moves=_moves(s, d["moves"])
    ),
    "RegionUsurped": lambda s, g, d, who: _(
        "%(player)s usurped %(region)s", player=who, region=region_name(s, d["region"])
    ),
    "Prayed": lambda s, g, d, who: _(
        "%(player)s prayed and gained %(priests)s",
        player=who,
        priests=priests(g["turn"].get("priests_gained") or 0),
    ),
    "HuntBegan": _hunt_began,
    "MonumentBuilt": _monument,
    "MonsterPhaseResolved": _monster_phase,
    "EventResolved": _event_resolved,
    "QuestUndertaken": _quest_undertaken,
    "QuestAdvanced": _quest_advanced,
    "CombatCardsDrawn": _cards_drawn,
    "HeroAttacked": _hero_attacked,
    "MonsterAttacked": _monster_attacked,
    "HuntRewardClaimed": _reward,
    "BattleBegan": lambda s, g, d, who: _(
        "%(player)s attacked %(defender)s in %(region)s",
        player=who,
        defender=name(s, g["battle"]["defender"]),
        region=region_name(s, d["region"]),
    ),
    "CombatCardPlayed": _battle_card,
    "BattlePassed": _passed,
    "ArmyRetreated": _retreated,
    "RegionControlChanged": _control_changed,
    "TempleBuilt": lambda s, g, d, who: _(
        "%(player)s built a temple in %(region)s", player=who, region=region_name(s, d["region"])
    ),
    "HoplitesFortified": lambda s, g, d, who: _(
        "%(player)s fortified %(hoplites)s in %(region)s",
        player=who,
        hoplites=hoplites(d["count"]),
        region=region_name(s, d["region"]),
    ),
    "ArtifactGained": lambda s, g, d, who: _(
        "%(player)s took %(artifact)s", player=who, artifact=artifact_name(s, d["artifact"])
    ),
    "HeroAttributeChanged": lambda s, g, d, who: _(
        "%(player)s's hero now has %(attribute)s %(value)s",
        player=who,
        attribute=attribute(d["attribute"]),
        value=d["value"],
    ),
}
