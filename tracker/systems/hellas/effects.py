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
from tracker.systems.i18n import N_, _, ngettext

from . import cards as deck
from .grants import give
from .rules import (
    GameHandlers,
    _check_artifact_free,
    _kill,
    _my_turn,
    attribute,
    event_card_name,
    listed,
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
    "temple": (N_("a temple rises"), N_("a temple")),
    "fortify": (N_("hoplites are fortified"), N_("fortified hoplites")),
    "artifact": (N_("an artifact is gained outside a hunt"), N_("an artifact")),
    "attribute": (N_("a hero's attribute rises"), N_("an attribute")),
    "control": (N_("a region changes hands outside a battle or an usurping"), N_("a region")),
    "cards": (
        N_("combat cards are drawn outside the start of a game or of a hunt"),
        N_("cards"),
    ),
}


def _join_or(words: list) -> str:
    if len(words) == 1:
        return words[0]
    return _("%(some)s or %(last)s", some=listed(words[:-1]), last=words[-1])


def sources(content: dict, kind: str) -> list:
    """What in this game's content may grant `kind`, in words."""
    found = []

    def grants(items):
        return any(item.get("grant") == kind for item in items)

    if grants(r for q in content.get("quests", {}).values() for r in q["rewards"]):
        found.append(_("a quest's reward"))
    if grants(e for c in content["event_cards"].values() for e in c.get("effects", ())):
        found.append(_("an event card"))
    monuments = content["monuments"].values()
    if grants(m["blessing"] for m in monuments if m.get("blessing")):
        found.append(_("a Monument's blessing"))
    if grants(a for m in monuments for a in m.get("activation", ())):
        found.append(_("a Monument's activation"))
    return found


def _grant(state: dict, game: dict, kind: str, player: str, match=lambda g: True) -> dict:
    """The player's first grant of this kind that `match` accepts, or the refusal naming what
    would grant it."""
    for grant in game["grants"]:
        if grant["kind"] == kind and grant["player"] == player and match(grant):
            return grant
    what, noun = KIND_WORDS[kind]
    found = sources(state["content"], kind)
    who = name(state, player)
    if found:
        raise RuleViolation(
            _(
                "%(what)s only when %(sources)s grants it (nothing grants %(player)s %(noun)s now)",
                what=_(what),
                sources=_join_or(found),
                player=who,
                noun=_(noun),
            )
        )
    raise RuleViolation(
        _(
            "%(what)s only when something grants it (nothing grants %(player)s %(noun)s now)",
            what=_(what),
            player=who,
            noun=_(noun),
        )
    )


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
        raise RuleViolation(
            _("a temple is built on a temple site (%(region)s has none)", region=where)
        )
    if place["temple"]:
        raise RuleViolation(_("%(region)s already has its temple", region=where))
    if place["controller"] != player:
        raise RuleViolation(
            _(
                "a temple is built in a region its builder controls (%(player)s does not "
                "control %(region)s)",
                player=name(state, player),
                region=where,
            )
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
            ngettext(
                "%(source)s fortifies %(num)d hoplite(s) of %(player)s, not %(count)s",
                "%(source)s fortifies %(num)d hoplite(s) of %(player)s, not %(count)s",
                grant["count"],
                source=grant["source"],
                player=name(state, player),
                count=data["count"],
            )
        )
    loose = place["hoplites"].get(player, 0) - place["fortified"].get(player, 0)
    if data["count"] > loose:
        raise RuleViolation(
            ngettext(
                "%(player)s has %(num)d hoplite(s) to fortify in %(region)s, not %(count)s",
                "%(player)s has %(num)d hoplite(s) to fortify in %(region)s, not %(count)s",
                loose,
                player=name(state, player),
                region=region_name(state, rid),
                count=data["count"],
            )
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
    player, key = data["player"], data["attribute"]
    grant = _grant(state, game, "attribute", player, lambda g: g.get("attribute") in (None, key))
    top = state["content"]["limits"]["attribute_max"]
    now = game["heroes"][player][key]
    if data["value"] != now + 1:
        raise RuleViolation(
            _(
                "%(source)s raises %(player)s's %(attribute)s by one, from %(now)s to "
                "%(next)s, not to %(value)s",
                source=grant["source"],
                player=name(state, player),
                attribute=attribute(key),
                now=now,
                next=now + 1,
                value=data["value"],
            )
        )
    if data["value"] > top:
        raise RuleViolation(
            _(
                "a hero's %(attribute)s goes up to %(top)s, not %(value)s",
                attribute=_(_LOWER[key]),
                top=top,
                value=data["value"],
            )
        )
    _use(game, grant)
    game["heroes"][player][key] = data["value"]


@handlers.in_game("RegionControlChanged")
def region_control_changed(state, game, data):
    rid, player = data["region"], data["player"]
    place = region(state, rid)
    if player is None:
        raise RuleViolation(
            _(
                "a region falls to nobody only when its controller loses it in a battle or to "
                "an usurper (%(region)s does not fall to nobody by itself)",
                region=region_name(state, rid),
            )
        )
    grant = _grant(state, game, "control", player, lambda g: g.get("region") == rid)
    others = [p for p in place["hoplites"] if p != player]
    if others:
        raise RuleViolation(
            _(
                "a region held by another player's hoplites changes hands by battle "
                "(%(player)s holds %(region)s)",
                player=name(state, others[0]),
                region=region_name(state, rid),
            )
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
        raise RuleViolation(_("the Monster Phase comes only after a Monument is built"))
    cards = state["content"]["event_cards"]
    cid = data["card"]
    if cid not in cards:
        raise RuleViolation(_("there is no event card %(card)r in this game's deck", card=cid))
    if cid in game["events_drawn"]:
        raise RuleViolation(
            _(
                "the event card %(card)s was drawn already from this deck",
                card=event_card_name(state, cid),
            )
        )
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
        raise RuleViolation(_("the Event Phase comes only after the Monster Phase"))
    card = state["content"]["event_cards"][game["turn"]["event_card"]]
    source = _("the event %(card)s", card=event_card_name(state, game["turn"]["event_card"]))
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


#: a hero's attribute named inside a sentence ("a hero's strength goes up to 5")
_LOWER = {
    "leadership": N_("leadership"),
    "strength": N_("strength"),
    "speed": N_("speed"),
}


def grant_thing(state: dict, grant: dict):
    """What a grant gives, as a player would say it: 'a temple', '2 hoplite(s) to fortify'."""
    kind = grant["kind"]
    if kind == "fortify":
        count = grant["count"]
        return ngettext("%(num)d hoplite(s) to fortify", "%(num)d hoplite(s) to fortify", count)
    if kind == "cards":
        count = grant["count"]
        return ngettext("%(num)d combat card(s) to draw", "%(num)d combat card(s) to draw", count)
    if kind == "attribute":
        return _("+1 %(attribute)s", attribute=attribute(grant.get("attribute")))
    if kind == "control":
        return _("control of %(region)s", region=region_name(state, grant["region"]))
    if kind == "artifact":
        return _("an artifact")
    return _("a temple")


def grant_words(state: dict, grant: dict):
    """A grant as a player would say it: 'a temple (from the quest The Oracle's Stair)'."""
    return _("%(thing)s (%(source)s)", thing=grant_thing(state, grant), source=grant["source"])
