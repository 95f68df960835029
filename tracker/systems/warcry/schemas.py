"""The Warcry events and the shape of their data (documented in docs/events/warcry.md)."""

from marshmallow import fields, pre_load, validate

from tracker.dice import Dice
from tracker.systems.base import EventSchema, IdPattern
from tracker.systems.i18n import N_, _
from tracker.systems.warcry.tables import POINT_KINDS, RULES

ID = IdPattern(63)
NAME = validate.Length(min=1, max=80)


def id_field(**kwargs):
    return fields.Str(required=True, validate=ID, **kwargs)


def name_field(**kwargs):
    return fields.Str(required=True, validate=NAME, **kwargs)


# A fighter's points, as added and as corrected.
FIGHTER_POINTS = validate.Range(min=0, max=1000)


class Settings(EventSchema):
    pack = fields.Str(load_default="sample")
    quest = fields.Str(required=True)
    content = fields.Dict(required=True)
    # The rules the campaign follows (tables.RULES). No default: a campaign whose settings
    # name none is one begun before the rules had versions, and follows the first.
    rules = fields.Integer(strict=True, validate=validate.OneOf(RULES))


class WarbandFounded(EventSchema):
    warband = id_field(metadata={"made_from": "name"})
    name = name_field()
    player = name_field()
    faction = name_field()
    quest = fields.Str(load_default=None, allow_none=True)


class FighterAdded(EventSchema):
    warband = id_field()
    fighter = id_field(metadata={"made_from": "name"})
    name = name_field()
    # A fighter comes from one of its faction's profiles (its runemarks and points) or is a
    # custom fighter with its runemarks and points given.
    profile = fields.Str(load_default=None, allow_none=True, validate=ID)
    runemarks = fields.List(
        fields.Str(validate=validate.Length(min=1, max=40)), load_default=None, allow_none=True
    )
    leader = fields.Bool(load_default=False)
    points = fields.Integer(
        strict=True, load_default=None, allow_none=True, validate=FIGHTER_POINTS
    )
    faction = fields.Str(load_default=None, allow_none=True)


class FighterRemoved(EventSchema):
    warband = id_field()
    fighter = id_field()
    reason = fields.Str(load_default="", validate=validate.Length(max=200))


class Side(EventSchema):
    warband = id_field()
    fighters = fields.List(fields.Str(validate=ID), required=True, validate=validate.Length(min=1))
    taken_down = fields.List(fields.Str(validate=ID), load_default=list)


class BattleFought(EventSchema):
    # Left empty on a form, the next free id (b1, b2, ...): `views.next_free`.
    battle = id_field(metadata={"next_free": True})
    sides = fields.List(
        fields.Nested(Side),
        required=True,
        validate=validate.Length(equal=2, error=_("a battle has two sides")),
    )
    winner = fields.Str(load_default=None, allow_none=True)
    # Whose convergence battle this is: derived from the map; named only when both warbands
    # stand on a convergence point (the roll-off's winner, or both).
    convergence = fields.List(fields.Str(validate=ID), load_default=list)
    scenario = fields.Str(load_default="", validate=validate.Length(max=80))
    notes = fields.Str(load_default="", validate=validate.Length(max=1000))


class ReinforcementsBought(EventSchema):
    warband = id_field()
    against = id_field()
    points = fields.Integer(strict=True, required=True, validate=validate.Range(min=10, max=1000))


class TerritoryConquered(EventSchema):
    warband = id_field()
    territory = name_field()


class AftermathStepCompleted(EventSchema):
    warband = id_field()
    step = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=7))


class FighterRoll(EventSchema):
    warband = id_field()
    fighter = id_field()
    battle = fields.Str(load_default=None, allow_none=True)


class InjuryRolled(FighterRoll):
    dice = Dice("2D6")


class DestinyRolled(FighterRoll):
    dice = Dice("D6")


class PerishableRolled(FighterRoll):
    dice = Dice("D6")


class SearchRolled(EventSchema):
    warband = id_field()
    battle = fields.Str(load_default=None, allow_none=True)
    extra = fields.Bool(load_default=False)
    adversary = fields.Bool(load_default=False)
    dice = Dice("D66")


class ArtefactGiven(EventSchema):
    warband = id_field()
    fighter = id_field()
    artefact = name_field()


KIND = fields.Str(load_default="lesser", validate=validate.OneOf(["lesser", "power"]))


class ArtefactUsed(EventSchema):
    warband = id_field()
    fighter = id_field()


class ArtefactDiscarded(EventSchema):
    warband = id_field()
    fighter = id_field()
    # Which of its artefacts the fighter discarded: its lesser artefact or its artefact of
    # power (recorded as `artefact` before; `UPCASTERS` reads those events).
    discarded = KIND


class ArtefactPassed(EventSchema):
    warband = id_field()
    giver = id_field()
    receiver = id_field()
    artefact = fields.Str(load_default="power", validate=validate.OneOf(["lesser", "power"]))


class ArtefactOfPowerGained(EventSchema):
    warband = id_field()
    fighter = id_field()
    artefact = id_field()
    # The fighter's artefact of power passes to this one to make room for the new one.
    pass_to = fields.Str(load_default=None, allow_none=True, validate=ID)


class CommandTraitGained(EventSchema):
    warband = id_field()
    trait = id_field()
    fighter = fields.Str(load_default=None, allow_none=True, validate=ID)


class QuestBegun(EventSchema):
    warband = id_field()
    quest = id_field()


class FighterCorrected(EventSchema):
    """A slip put right: a fighter's name or points as they should have been entered."""

    warband = id_field(metadata={"label": N_("warband")})
    fighter = id_field(metadata={"label": N_("fighter")})
    name = fields.Str(
        load_default=None, allow_none=True, validate=NAME, metadata={"label": N_("name")}
    )
    points = fields.Integer(
        strict=True,
        load_default=None,
        allow_none=True,
        validate=FIGHTER_POINTS,
        metadata={"label": N_("points")},
    )


# -- content of the campaign's own: imported fighter data and homebrew ----------------------

STAT = validate.Range(min=0, max=99)
TEXT = validate.Length(max=1000)


def stat_field(**kwargs):
    return fields.Integer(strict=True, validate=STAT, **kwargs)


class Weapon(EventSchema):
    """One of a profile's weapons: its range in inches, attacks, strength and damage."""

    min_range = stat_field(required=True)
    max_range = stat_field(required=True)
    attacks = stat_field(required=True)
    strength = stat_field(required=True)
    dmg_hit = stat_field(required=True)
    dmg_crit = stat_field(required=True)
    runemark = fields.Str(load_default="", validate=validate.Length(max=40))


class ProfileBody(EventSchema):
    """A fighter profile: its runemarks and points, and (optional) its stat line."""

    name = name_field()
    runemarks = fields.List(fields.Str(validate=validate.Length(min=1, max=40)), required=True)
    points = fields.Integer(strict=True, required=True, validate=FIGHTER_POINTS)
    movement = stat_field(load_default=None, allow_none=True)
    toughness = stat_field(load_default=None, allow_none=True)
    wounds = fields.Integer(
        strict=True, load_default=None, allow_none=True, validate=validate.Range(min=1, max=999)
    )
    weapons = fields.List(fields.Nested(Weapon), load_default=list, validate=validate.Length(max=8))
    subfaction = fields.Str(load_default="", validate=validate.Length(max=80))


class FactionBody(EventSchema):
    name = name_field()
    runemark = fields.Str(required=True, validate=validate.Length(min=1, max=40))
    summary = fields.Str(load_default="", validate=TEXT)
    grand_alliance = fields.Str(load_default="", validate=validate.Length(max=40))
    profiles = fields.Dict(
        keys=fields.Str(validate=ID), values=fields.Nested(ProfileBody), required=True
    )


class FactionsImported(EventSchema):
    """The organiser imported factions and their fighter profiles (a warcry_data file)."""

    source = fields.Str(load_default="", validate=validate.Length(max=200))
    factions = fields.Dict(
        keys=fields.Str(validate=ID),
        values=fields.Nested(FactionBody),
        required=True,
        validate=validate.Length(min=1, max=200),
    )


class FactionDefined(EventSchema):
    """The organiser added a faction, or edited one (its profiles stay)."""

    faction = id_field(metadata={"label": N_("faction id"), "made_from": "name"})
    name = name_field(metadata={"label": N_("name")})
    runemark = fields.Str(
        required=True, validate=validate.Length(min=1, max=40), metadata={"label": N_("runemark")}
    )
    summary = fields.Str(load_default="", validate=TEXT, metadata={"label": N_("summary")})


class ProfileDefined(ProfileBody):
    """The organiser added a fighter profile to a faction, or edited one."""

    faction = id_field(metadata={"label": N_("faction")})
    profile = id_field(metadata={"label": N_("profile id"), "made_from": "name"})


class ArtefactDefined(EventSchema):
    """The organiser added an artefact of power to a quest's table, or edited one."""

    quest = id_field(metadata={"label": N_("quest")})
    artefact = id_field(metadata={"label": N_("artefact id"), "made_from": "name"})
    name = name_field(metadata={"label": N_("name")})
    effect = fields.Str(required=True, validate=validate.Length(min=1, max=1000))


class TerritoryDefined(EventSchema):
    """The organiser added a territory warbands may conquer, or edited one."""

    territory = id_field(metadata={"label": N_("territory id"), "made_from": "name"})
    name = name_field(metadata={"label": N_("name")})
    effect = fields.Str(load_default="", validate=TEXT, metadata={"label": N_("effect")})


class MapPoint(EventSchema):
    name = name_field()
    kind = fields.Str(required=True, validate=validate.OneOf(POINT_KINDS))


class Entry(EventSchema):
    id = id_field()
    name = name_field()
    effect = fields.Str(required=True, validate=validate.Length(min=1, max=1000))


class Reward(EventSchema):
    text = fields.Str(load_default="", validate=TEXT)
    glory = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, max=99))


class QuestDefined(EventSchema):
    """The organiser added a quest (its map, runemark and tables), or edited one."""

    quest = id_field(metadata={"label": N_("quest id"), "made_from": "title"})
    title = name_field(metadata={"label": N_("title")})
    runemark = fields.Str(
        required=True, validate=validate.Length(min=1, max=40), metadata={"label": N_("runemark")}
    )
    summary = fields.Str(load_default="", validate=TEXT)
    map = fields.List(fields.Nested(MapPoint), required=True)
    artefacts_of_power = fields.List(fields.Nested(Entry), required=True)
    command_traits = fields.List(fields.Nested(Entry), required=True)
    reward = fields.Nested(Reward, load_default=dict)

    @pre_load
    def _without_versions(self, data, **kwargs):
        """A quest copied from the campaign's state comes with the pack's words in other
        languages (`i18n`, which the state reads beside the log): they are not the
        organiser's, and are left out."""
        return _without_versions(data)


EVENTS = {
    cls.__name__: cls
    for cls in (
        WarbandFounded,
        FighterAdded,
        FighterRemoved,
        FighterCorrected,
        ReinforcementsBought,
        BattleFought,
        TerritoryConquered,
        AftermathStepCompleted,
        InjuryRolled,
        DestinyRolled,
        SearchRolled,
        ArtefactGiven,
        PerishableRolled,
        ArtefactUsed,
        ArtefactDiscarded,
        ArtefactPassed,
        ArtefactOfPowerGained,
        CommandTraitGained,
        QuestBegun,
        FactionsImported,
        FactionDefined,
        ProfileDefined,
        ArtefactDefined,
        TerritoryDefined,
        QuestDefined,
    )
}

# The events only the organiser records: the campaign's own content.
ORGANISER_EVENTS = frozenset(
    (
        "FactionsImported",
        "FactionDefined",
        "ProfileDefined",
        "ArtefactDefined",
        "TerritoryDefined",
        "QuestDefined",
    )
)


def discarded_named(data: dict) -> dict:
    """An `ArtefactDiscarded` recorded before its `artefact` field was named `discarded`."""
    if "artefact" not in data:
        return data
    shaped = {key: value for key, value in data.items() if key != "artefact"}
    shaped["discarded"] = data["artefact"]
    return shaped


# How events recorded in an older shape are read today (the log is never rewritten).
UPCASTERS = {"ArtefactDiscarded": (discarded_named,)}


def _without_versions(data):
    if isinstance(data, dict):
        return {k: _without_versions(v) for k, v in data.items() if k != "i18n"}
    if isinstance(data, list):
        return [_without_versions(v) for v in data]
    return data
