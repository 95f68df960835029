"""What happens to the board because something caused it: grants, their effects, the phases.

A quest's reward, an event card, a Monument's blessing or its activation *grants* a player
something (a temple, fortified hoplites, an artifact, an attribute, a region, combat cards).
The grant waits in `game["grants"]` until the player records the effect that takes it
(`TempleBuilt`, `HoplitesFortified`, ...), choosing where; an effect without its grant is
refused, in words that name what would grant it. Priests gained or lost and hoplites killed
by a monster need no choice: they happen in the event that causes them.
"""

from __future__ import annotations

from tracker.errors import RuleViolation

from . import cards as deck
from .grants import give
from .rules import (
    GameHandlers,
    _check_artifact_free,
    _kill,
    _my_turn,
    name,
    region,
    region_name,
)

#: the handlers of the effects and of the phases that follow a Monument
handlers = GameHandlers()

#: effect event -> the kind of grant it takes
EFFECT_KIND = {
    "TempleBuilt": "temple",
    "HoplitesFortified": "fortify",
    "ArtifactGained": "artifact",
    "HeroAttributeChanged": "attribute",
    "RegionControlChanged": "control",
    "CombatCardsDrawn": "cards",
}
#: what each kind of grant lets happen, as a player says it
KIND_WORDS = {
    "temple": ("a temple rises", "a temple"),
    "fortify": ("hoplites are fortified", "fortified hoplites"),
    "artifact": ("an artifact is gained outside a hunt", "an artifact"),
    "attribute": ("a hero's attribute rises", "an attribute"),
    "control": ("a region changes hands outside a battle or an usurping", "a region"),
    "cards": ("combat cards are drawn outside the start of a game or of a hunt", "cards"),
}


def _join_or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def sources(content: dict, kind: str) -> list[str]:
    """What in this game's content may grant `kind`, in words."""
    found = []

    def grants(items):
        return any(item.get("grant") == kind for item in items)

    if grants(r for q in content.get("quests", {}).values() for r in q["rewards"]):
        found.append("a quest's reward")
    if grants(e for c in content["event_cards"].values() for e in c.get("effects", ())):
        found.append("an event card")
    monuments = content["monuments"].values()
    if grants(m["blessing"] for m in monuments if m.get("blessing")):
        found.append("a Monument's blessing")
    if grants(a for m in monuments for a in m.get("activation", ())):
        found.append("a Monument's activation")
    return found


def _grant(state: dict, game: dict, kind: str, player: str, match=lambda g: True) -> dict:
    """The player's first grant of this kind that `match` accepts, or the refusal naming what
    would grant it."""
    for grant in game["grants"]:
        if grant["kind"] == kind and grant["player"] == player and match(grant):
            return grant
    what, noun = KIND_WORDS[kind]
    found = sources(state["content"], kind)
    by = f" only when {_join_or(found)} grants it" if found else " only when something grants it"
    raise RuleViolation(f"{what}{by} (nothing grants {name(state, player)} {noun} now)")


def _use(game: dict, grant: dict, count: int | None = None) -> None:
    game["last_grant"] = grant["source"]
    if count is not None and grant.get("count", 0) > count:
        grant["count"] -= count
        return
    game["grants"].remove(grant)


# -- effects -------------------------------------------------------------------------------


@handlers.in_game("TempleBuilt")
def temple_built(state, game, data):
    player, rid = data["player"], data["region"]
    place = region(state, rid)
    grant = _grant(state, game, "temple", player)
    where = region_name(state, rid)
    if not state["content"]["regions"][rid]["temple_site"]:
        raise RuleViolation(f"a temple is built on a temple site ({where} has none)")
    if place["temple"]:
        raise RuleViolation(f"{where} already has its temple")
    if place["controller"] != player:
        raise RuleViolation(
            f"a temple is built in a region its builder controls ({name(state, player)} does not "
            f"control {where})"
        )
    _use(game, grant)
    place["temple"] = True


@handlers.in_game("HoplitesFortified")
def hoplites_fortified(state, game, data):
    player, rid = data["player"], data["region"]
    place = region(state, rid)
    grant = _grant(state, game, "fortify", player)
    if data["count"] > grant["count"]:
        raise RuleViolation(
            f"{grant['source']} fortifies {grant['count']} hoplite(s) of {name(state, player)}, "
            f"not {data['count']}"
        )
    loose = place["hoplites"].get(player, 0) - place["fortified"].get(player, 0)
    if data["count"] > loose:
        raise RuleViolation(
            f"{name(state, player)} has {loose} hoplite(s) to fortify in {region_name(state, rid)}, "
            f"not {data['count']}"
        )
    _use(game, grant, data["count"])
    place["fortified"][player] = place["fortified"].get(player, 0) + data["count"]


@handlers.in_game("ArtifactGained")
def artifact_gained(state, game, data):
    grant = _grant(state, game, "artifact", data["player"])
    _check_artifact_free(state, game, data["artifact"])
    _use(game, grant)
    game["artifacts"][data["artifact"]] = {"owner": data["player"], "charged": True}


@handlers.in_game("HeroAttributeChanged")
def hero_attribute_changed(state, game, data):
    player, attribute = data["player"], data["attribute"]
    grant = _grant(
        state, game, "attribute", player, lambda g: g.get("attribute") in (None, attribute)
    )
    top = state["content"]["limits"]["attribute_max"]
    now = game["heroes"][player][attribute]
    if data["value"] != now + 1:
        raise RuleViolation(
            f"{grant['source']} raises {name(state, player)}'s {attribute.capitalize()} by one, "
            f"from {now} to {now + 1}, not to {data['value']}"
        )
    if data["value"] > top:
        raise RuleViolation(f"a hero's {attribute} goes up to {top}, not {data['value']}")
    _use(game, grant)
    game["heroes"][player][attribute] = data["value"]


@handlers.in_game("RegionControlChanged")
def region_control_changed(state, game, data):
    rid, player = data["region"], data["player"]
    place = region(state, rid)
    if player is None:
        raise RuleViolation(
            f"a region falls to nobody only when its controller loses it in a battle or to an "
            f"usurper ({region_name(state, rid)} does not fall to nobody by itself)"
        )
    grant = _grant(state, game, "control", player, lambda g: g.get("region") == rid)
    others = [p for p in place["hoplites"] if p != player]
    if others:
        raise RuleViolation(
            f"a region held by another player's hoplites changes hands by battle "
            f"({name(state, others[0])} holds {region_name(state, rid)})"
        )
    _use(game, grant)
    place["controller"] = player


@handlers.in_game("CombatCardsDrawn")
def combat_cards_drawn(state, game, data):
    player = data["player"]
    grant = _grant(state, game, "cards", player)
    drawn = data.get("cards") or []
    deck.check_draw(state, game, player, drawn, grant["count"])
    _use(game, grant)
    deck.take_draw(state, game, player, drawn)
    game["last_draw"] = {"count": len(drawn), "source": grant["source"]}


# -- the Monster Phase and the Event Phase -------------------------------------------------


@handlers.in_game("MonsterPhaseResolved")
def monster_phase_resolved(state, game, data):
    """The builder draws the round's event card: its monster appears in, or goes to, its
    region (a monster slain in this game stays dead)."""
    player = data["player"]
    _my_turn(state, game, player)
    if game["turn"]["phase"] != "monster":
        raise RuleViolation("the Monster Phase comes only after a Monument is built")
    cards = state["content"]["event_cards"]
    cid = data["card"]
    if cid not in cards:
        raise RuleViolation(f"there is no event card {cid!r} in this game's deck")
    if cid in game["events_drawn"]:
        raise RuleViolation(f"the event card {cards[cid]['name']} was drawn already from this deck")
    card = cards[cid]
    mid, rid = card["monster"], card["region"]
    slain = any(mid in beaten for beaten in game["slain"].values())
    if slain:
        how = "slain"
    elif mid in game["monsters"]:
        how = "stayed" if game["monsters"][mid] == rid else "moved"
        game["monsters"][mid] = rid
    else:
        how = "appeared"
        game["monsters"][mid] = rid
    game["events_drawn"].append(cid)
    if len(game["events_drawn"]) >= len(cards):
        game["events_drawn"] = []  # the deck is shuffled again
    game["turn"]["event_card"] = cid
    game["turn"]["monster_news"] = {"monster": mid, "region": rid, "how": how}
    game["turn"]["phase"] = "event"


@handlers.in_game("EventResolved")
def event_resolved(state, game, data):
    """The builder resolves what the round's event card does."""
    player = data["player"]
    _my_turn(state, game, player)
    if game["turn"]["phase"] != "event":
        raise RuleViolation("the Event Phase comes only after the Monster Phase")
    card = state["content"]["event_cards"][game["turn"]["event_card"]]
    source = f"the event {card['name']}"
    killed: dict[str, int] = {}
    for item in card.get("effects", ()):
        if "ravage" in item:
            where = game["monsters"].get(card["monster"])
            if where:
                place = game["regions"][where]
                for side in list(place["hoplites"]):
                    killed[side] = killed.get(side, 0) + _kill(place, side, item["ravage"])
            continue
        for receiver in [player] if item.get("to") == "builder" else list(game["order"]):
            give(state, game, item, receiver, source)
    game["turn"]["event_news"] = {"killed": killed}
    game["turn"]["phase"] = None


def grant_words(state: dict, grant: dict) -> str:
    """A grant as a player would say it: 'a temple (from the quest The Oracle's Stair)'."""
    kind = grant["kind"]
    if kind == "fortify":
        what = f"{grant['count']} hoplite(s) to fortify"
    elif kind == "cards":
        what = f"{grant['count']} combat card(s) to draw"
    elif kind == "attribute":
        what = f"+1 {(grant.get('attribute') or 'attribute').capitalize()}"
    elif kind == "control":
        what = f"control of {region_name(state, grant['region'])}"
    elif kind == "artifact":
        what = "an artifact"
    else:
        what = "a temple"
    return f"{what} ({grant['source']})"
