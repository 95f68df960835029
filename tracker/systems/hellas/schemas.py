"""The event schemas of Lords of Hellas: what each recorded fact holds."""

from __future__ import annotations

from marshmallow import ValidationError, fields, validate

from tracker.dice import Dice, Drawn
from tracker.systems.base import EventSchema, IdPattern
from tracker.systems.i18n import _

ID = IdPattern(41)
ID_PATTERN = ID.regex
ATTRIBUTES = ("leadership", "strength", "speed")


def Id(**kwargs):
    """An identifier of a player, region, monster, card...: lower-case letters, digits, dashes."""
    kwargs.setdefault("required", True)
    return fields.Str(validate=ID, **kwargs)


def Count(low=1, high=99, **kwargs):
    kwargs.setdefault("required", True)
    return fields.Integer(strict=True, validate=validate.Range(min=low, max=high), **kwargs)


class EventCard(Drawn):
    """The card drawn in the Event Phase: the server draws one not yet seen since the reshuffle."""

    label = "event card"

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_none", True)
        super().__init__(**kwargs)

    def draw(self, roller, data, state):
        deck = sorted(state["content"]["event_cards"])
        game = state.get("game") or {}
        seen = set(game.get("events_drawn") or ())
        return roller.choice([card for card in deck if card not in seen] or deck)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not ID_PATTERN.match(value):
            raise ValidationError(_("an event card is named by its id, such as 'red-comet'"))
        return value

    def _serialize(self, value, attr, obj, **kwargs):
        return value


class CardsDrawn(Drawn):
    """Combat cards drawn from the deck: typed in from the table, or drawn by the server from
    what is left in the deck (cards.server_draw). `what` is "game" (every starting hand, by
    player), "hunt" (as many as the hero's Strength) or "grant" (a grant of cards)."""

    label = "combat cards drawn"

    def __init__(self, what: str, **kwargs):
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_none", True)
        super().__init__(**kwargs)
        self.what = what

    def draw(self, roller, data, state):
        from .cards import server_draw  # cards needs the rules, which need no schema

        return server_draw(state, self.what, data, roller)

    def _deserialize(self, value, attr, data, **kwargs):
        if self.what == "game":
            if not isinstance(value, dict) or not all(
                isinstance(k, str) and _card_list(v) for k, v in value.items()
            ):
                raise ValidationError(_("starting hands are lists of combat card ids by player"))
            return {k: list(v) for k, v in value.items()}
        if isinstance(value, str):  # typed in at the table: "spear-1, helm-1"
            value = [v.strip() for v in value.split(",") if v.strip()]
        if not _card_list(value):
            raise ValidationError(_("combat cards are a list of card ids, such as ['spear-1']"))
        return list(value)

    def _serialize(self, value, attr, obj, **kwargs):
        return value


def _card_list(value) -> bool:
    return (
        isinstance(value, list)
        and len(value) <= 12
        and all(isinstance(c, str) and ID_PATTERN.match(c) for c in value)
    )


# -- settings ------------------------------------------------------------------------------


class PlayerSchema(EventSchema):
    id = Id(metadata={"made_from": "name"})
    name = fields.Str(required=True, validate=validate.Length(min=1, max=60))


class SettingsSchema(EventSchema):
    players = fields.List(
        fields.Nested(PlayerSchema), required=True, validate=validate.Length(min=2, max=4)
    )
    pack = fields.Str(load_default="base")
    content = fields.Dict(required=True)


# -- parts ---------------------------------------------------------------------------------


class MoveSchema(EventSchema):
    origin = Id()
    destination = Id()
    count = Count(1, 15)


class PlacementSchema(EventSchema):
    region = Id()
    count = Count(1, 15)


class WoundSchema(EventSchema):
    wound = Id()
    cards = fields.List(Id(), required=True, validate=validate.Length(min=1, max=6))


# -- the game ------------------------------------------------------------------------------


class GameStarted(EventSchema):
    # Left empty on a form, the next free id (game-1, game-2, ...): `views.next_free`.
    game = Id(metadata={"next_free": True})
    order = fields.List(Id(), required=True, validate=validate.Length(min=2, max=4))
    # Left out, each seat's hero and hoplites, the monsters and the Lands that do not count
    # come from the content's `start` (rules.setup_defaults).
    heroes = fields.Dict(keys=fields.Str(), values=Id(), load_default=dict)
    hoplites = fields.Dict(
        keys=fields.Str(),
        values=fields.Dict(keys=fields.Str(), values=Count(1, 15)),
        load_default=dict,
    )
    monsters = fields.Dict(keys=fields.Str(), values=Id(), load_default=None, allow_none=True)
    excluded_lands = fields.List(Id(), load_default=None, allow_none=True)
    king_of_kings = fields.Boolean(load_default=None, allow_none=True)
    hands = CardsDrawn("game")


class GameAbandoned(EventSchema):
    reason = fields.Str(required=True, validate=validate.Length(min=1, max=300))


class PlayerEvent(EventSchema):
    player = Id()


class TurnEnded(PlayerEvent):
    pass


# normal actions


class ArtifactsUsed(PlayerEvent):
    artifacts = fields.List(Id(), required=True, validate=validate.Length(min=1, max=6))


class HeroMoved(PlayerEvent):
    path = fields.List(Id(), required=True, validate=validate.Length(min=1, max=10))


class HoplitesMoved(PlayerEvent):
    moves = fields.List(
        fields.Nested(MoveSchema), required=True, validate=validate.Length(min=1, max=20)
    )


class PriestsSent(PlayerEvent):
    monument = Id()
    count = Count(1, 4)


# special actions


class HoplitesRecruited(PlayerEvent):
    placed = fields.List(
        fields.Nested(PlacementSchema), required=True, validate=validate.Length(min=1, max=19)
    )


class HoplitesMarched(HoplitesMoved):
    pass


class RegionUsurped(PlayerEvent):
    region = Id()


class Prayed(PlayerEvent):
    pass


class HuntBegan(PlayerEvent):
    monster = Id()
    cards = CardsDrawn("hunt")


class MonumentBuilt(PlayerEvent):
    monument = Id()


# the end of a round


class MonsterPhaseResolved(PlayerEvent):
    card = EventCard()


class EventResolved(PlayerEvent):
    pass


# quests


class QuestUndertaken(PlayerEvent):
    quest = Id()


class QuestAdvanced(PlayerEvent):
    pass


# hunts


class HeroAttacked(PlayerEvent):
    wounds = fields.List(fields.Nested(WoundSchema), required=True)


class MonsterAttacked(PlayerEvent):
    roll = Dice("D6")


class HuntRewardClaimed(PlayerEvent):
    wound = Id()
    artifact = Id(required=False, load_default=None, allow_none=True)


# battles


class BattleBegan(PlayerEvent):
    region = Id()


class CombatCardPlayed(PlayerEvent):
    card = Id()


class BattlePassed(PlayerEvent):
    pass


class ArmyRetreated(PlayerEvent):
    to = Id(required=False, load_default=None, allow_none=True)


# effects of cards, quests and rewards


class RegionControlChanged(EventSchema):
    region = Id()
    player = Id(allow_none=True)
    reason = fields.Str(load_default="", validate=validate.Length(max=200))


class TempleBuilt(PlayerEvent):
    region = Id()


class HoplitesFortified(PlayerEvent):
    region = Id()
    count = Count(1, 15)


class ArtifactGained(PlayerEvent):
    artifact = Id()


class HeroAttributeChanged(PlayerEvent):
    attribute = fields.Str(required=True, validate=validate.OneOf(ATTRIBUTES))
    value = Count(1, 9)


class CombatCardsDrawn(PlayerEvent):
    cards = CardsDrawn("grant")


EVENTS = {
    cls.__name__: cls
    for cls in (
        GameStarted,
        GameAbandoned,
        TurnEnded,
        ArtifactsUsed,
        HeroMoved,
        HoplitesMoved,
        PriestsSent,
        HoplitesRecruited,
        HoplitesMarched,
        RegionUsurped,
        Prayed,
        HuntBegan,
        MonumentBuilt,
        MonsterPhaseResolved,
        EventResolved,
        QuestUndertaken,
        QuestAdvanced,
        HeroAttacked,
        MonsterAttacked,
        HuntRewardClaimed,
        BattleBegan,
        CombatCardPlayed,
        BattlePassed,
        ArmyRetreated,
        RegionControlChanged,
        TempleBuilt,
        HoplitesFortified,
        ArtifactGained,
        HeroAttributeChanged,
        CombatCardsDrawn,
    )
}
