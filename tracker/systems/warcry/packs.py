"""The community's fighter data (the warcry_data JSON format) read as factions and profiles.

A warcry_data file is an array of fighters, each naming its warband (the faction), its stat
line, weapons, runemarks and points. `factions_imported` turns one into the data of a
`FactionsImported` event, or refuses it in words naming the fighter and the field. Fields
the format has beyond those the tracker reads are passed over: the community adds some now
and then, and none of them is a rule here.
"""

from __future__ import annotations

from marshmallow import EXCLUDE, ValidationError, fields, validate
from slugify import slugify

from tracker.errors import InvalidEvent
from tracker.systems.base import EventSchema
from tracker.systems.i18n import _
from tracker.systems.warcry import tables as t
from tracker.systems.warcry.rules import faction as faction_named
from tracker.systems.warcry.schemas import FIGHTER_POINTS, ID, NAME, Weapon, stat_field

# The most fighters one file may hold: the whole community's data is a few thousand.
MAX_FIGHTERS = 5000


class DataWeapon(Weapon):
    class Meta:
        unknown = EXCLUDE


class DataFighter(EventSchema):
    """One fighter of a warcry_data file, as the tracker reads it."""

    class Meta:
        unknown = EXCLUDE

    _id = fields.Str(required=True, validate=ID, data_key="_id")
    name = fields.Str(required=True, validate=NAME)
    warband = fields.Str(required=True, validate=NAME)
    subfaction = fields.Str(load_default="", allow_none=True, validate=validate.Length(max=80))
    grand_alliance = fields.Str(load_default="", allow_none=True, validate=validate.Length(max=40))
    movement = stat_field(required=True)
    toughness = stat_field(required=True)
    wounds = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=999))
    weapons = fields.List(fields.Nested(DataWeapon), required=True, validate=validate.Length(max=8))
    runemarks = fields.List(fields.Str(validate=validate.Length(min=1, max=40)), required=True)
    points = fields.Integer(strict=True, required=True, validate=FIGHTER_POINTS)


def slug(name: str) -> str:
    """An id from a name, its letters transliterated rather than dropped: "Cinder Hounds"
    -> "cinder-hounds", "Škvárová smečka" -> "skvarova-smecka"."""
    return slugify(name)[:63].strip("-") or "faction"


def factions_imported(fighters, source: str = "") -> dict:
    """The data of a `FactionsImported` event from a warcry_data file's fighters (the JSON
    array, parsed). Raises `InvalidEvent` naming the first fighter and field that is wrong."""
    if not isinstance(fighters, list) or not fighters:
        raise InvalidEvent(_("a warcry_data file is a JSON array of fighters, and this one is not"))
    if len(fighters) > MAX_FIGHTERS:
        raise InvalidEvent(
            _(
                "a file holds at most %(most)s fighters (%(count)s here)",
                most=MAX_FIGHTERS,
                count=len(fighters),
            )
        )
    schema, factions, seen = DataFighter(), {}, {}
    for number, fighter in enumerate(fighters, 1):
        loaded = _fighter(schema, number, fighter)
        pid, name = loaded["_id"], loaded["name"]
        if pid in seen:
            raise InvalidEvent(
                _(
                    "fighter %(number)s (%(name)s): its _id %(id)r is also fighter %(other)s's",
                    number=number,
                    name=name,
                    id=pid,
                    other=seen[pid],
                ),
                {"_id": ["taken"]},
            )
        seen[pid] = number
        fid = slug(loaded["warband"])
        faction = factions.setdefault(
            fid,
            {
                "name": loaded["warband"],
                "runemark": fid,
                "summary": "",
                "grand_alliance": loaded["grand_alliance"] or "",
                "profiles": {},
            },
        )
        if faction["name"] != loaded["warband"]:
            raise InvalidEvent(
                _(
                    "fighter %(number)s (%(name)s): its warband %(warband)r and %(other)r make "
                    "the same faction id %(faction)r",
                    number=number,
                    name=name,
                    warband=loaded["warband"],
                    other=faction["name"],
                    faction=fid,
                ),
                {"warband": ["ambiguous"]},
            )
        faction["profiles"][pid] = {
            "name": name,
            "runemarks": loaded["runemarks"],
            "points": loaded["points"],
            "movement": loaded["movement"],
            "toughness": loaded["toughness"],
            "wounds": loaded["wounds"],
            "weapons": loaded["weapons"],
            "subfaction": loaded["subfaction"] or "",
        }
    return {"source": source[:200], "factions": factions}


def _fighter(schema, number: int, fighter) -> dict:
    label = fighter.get("name") if isinstance(fighter, dict) else None
    if isinstance(label, str) and label:
        who = _("fighter %(number)s (%(name)s)", number=number, name=label)
    else:
        who = _("fighter %(number)s", number=number)
    if not isinstance(fighter, dict):
        raise InvalidEvent(_("%(fighter)s is not an object of fields", fighter=who))
    try:
        return schema.load(fighter)
    except ValidationError as error:
        field, problem = _first(error.messages)
        raise InvalidEvent(
            _(
                "%(fighter)s: the field %(field)s: %(problem)s",
                fighter=who,
                field=field,
                problem=problem,
            ),
            error.messages,
        ) from None


def _first(messages, prefix: str = "") -> tuple[str, str]:
    """The first field named in marshmallow's messages (weapons.0.attacks), and its words."""
    for key, value in messages.items():
        where = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict):
            return _first(value, where)
        words = value[0] if isinstance(value, list) and value else value
        if isinstance(words, dict):
            return _first(words, where)
        return where, str(words).rstrip(".").lower()
    return prefix or "?", "is wrong"


# -- a roster file (BattleScribe, New Recruit) as a warband's founding ------------------------


def roster_events(state, roster: dict, founding: dict) -> list[dict]:
    """The events that found a warband from a roster read from a file (`tracker.rosters`):
    `WarbandFounded` with `founding` (warband, name, player, quest; faction when given,
    else the roster's), then a `FighterAdded` for each of its fighters. A fighter whose name
    is a profile's of the faction comes from that profile; any other is a custom fighter
    with the roster's points and its categories as runemarks. The rules judge them all as
    they judge fighters typed by hand."""
    game = (roster.get("game") or "").strip()
    if "warcry" not in game.casefold():
        raise InvalidEvent(
            _("this roster is for another game (%(game)s), not Warcry", game=game)
            if game
            else _("this roster is for another game (it names none), not Warcry"),
            {"roster": ["another game"]},
        )
    forces = [force for force in roster.get("forces", []) if force["fighters"]]
    if not forces:
        raise InvalidEvent(_("the roster holds no fighters"), {"roster": ["empty"]})
    faction = (founding.get("faction") or "").strip() or forces[0]["catalogue"].strip()
    if not faction:
        raise InvalidEvent(_("the roster names no faction: give one"), {"faction": ["missing"]})
    found = {
        key: founding.get(key)
        for key in ("warband", "name", "player", "quest")
        if founding.get(key)
    }
    events = [{"type": "WarbandFounded", "data": {**found, "faction": faction}}]
    by_name = {}
    for pid, profile in (faction_named(state, faction)[1] or {}).get("profiles", {}).items():
        by_name.setdefault(profile["name"].casefold(), pid)
    taken = set()
    for force in forces:
        for fighter in force["fighters"]:
            events.append(_fighter_added(found.get("warband"), fighter, by_name, taken))
    return events


def _fighter_added(warband, fighter, by_name, taken) -> dict:
    # A name a fighter keeps in the log: the pack's language, not the reader's.
    name = fighter["name"] or "Unnamed fighter"
    fid, n = slug(name), 1
    while fid in taken:
        n += 1
        fid = f"{slug(name)[:58]}-{n}"
    taken.add(fid)
    data = {"warband": warband, "fighter": fid, "name": name[:80]}
    pid = by_name.get(name.casefold())
    if pid is not None:
        return {"type": "FighterAdded", "data": {**data, "profile": pid}}
    runemarks = [c.casefold()[:40] for c in fighter["categories"]]
    data.update(runemarks=runemarks, points=fighter["points"])
    data["leader"] = t.bears(runemarks, t.LEADER_RUNEMARK)
    return {"type": "FighterAdded", "data": data}


# -- a pack's words in other languages, beside the content a campaign keeps -------------------


def with_versions(content: dict, pack: dict) -> dict:
    """The campaign's `content` with the versions in other languages (`i18n`) that `pack`
    gives its entries: an entry of the same id (a map point: the same place) takes, of the
    pack's versions, those of the words it still says as the pack does (a name changed since
    keeps its own). Nothing is changed in place; the log keeps no versions, so a pack may
    gain a language without a campaign's hash changing."""
    if not isinstance(pack, dict):
        return content
    out = dict(content)
    if isinstance(content.get("lesser_artefacts"), list):
        table = {(e.get("from"), e.get("to")): e for e in pack.get("lesser_artefacts") or []}
        out["lesser_artefacts"] = [
            _versioned(entry, table.get((entry.get("from"), entry.get("to"))))
            for entry in content["lesser_artefacts"]
        ]
    if isinstance(content.get("quests"), dict):
        theirs = pack.get("quests") or {}
        out["quests"] = {qid: _quest(q, theirs.get(qid)) for qid, q in content["quests"].items()}
    if isinstance(content.get("factions"), dict):
        theirs = pack.get("factions") or {}
        out["factions"] = {
            fid: _faction(f, theirs.get(fid)) for fid, f in content["factions"].items()
        }
    return out


def _versioned(entry, theirs):
    if not isinstance(entry, dict) or not isinstance(theirs, dict) or "i18n" not in theirs:
        return entry
    versions = {}
    for lang, words in (theirs.get("i18n") or {}).items():
        same = {k: v for k, v in (words or {}).items() if entry.get(k) == theirs.get(k)}
        if same:
            versions[lang] = same
    return dict(entry, i18n=versions) if versions else entry


def _by_id(entries, theirs):
    found = {e.get("id"): e for e in theirs or [] if isinstance(e, dict)}
    return [_versioned(e, found.get(e.get("id"))) if isinstance(e, dict) else e for e in entries]


def _quest(quest, theirs):
    if not isinstance(quest, dict) or not isinstance(theirs, dict):
        return quest
    out = _versioned(quest, theirs)
    points = theirs.get("map") or []
    out = dict(
        out,
        map=[
            _versioned(p, points[i] if i < len(points) else None)
            for i, p in enumerate(quest.get("map") or [])
        ],
        artefacts_of_power=_by_id(
            quest.get("artefacts_of_power") or [], theirs.get("artefacts_of_power")
        ),
        command_traits=_by_id(quest.get("command_traits") or [], theirs.get("command_traits")),
    )
    if isinstance(quest.get("reward"), dict):
        out["reward"] = _versioned(quest["reward"], theirs.get("reward"))
    return out


def _faction(faction, theirs):
    if not isinstance(faction, dict) or not isinstance(theirs, dict):
        return faction
    out = _versioned(faction, theirs)
    profiles = theirs.get("profiles") or {}
    if isinstance(faction.get("profiles"), dict):
        out = dict(
            out,
            profiles={
                pid: _versioned(p, profiles.get(pid)) for pid, p in faction["profiles"].items()
            },
        )
    return out
