"""The content a campaign carries: players, maps and figures, with the schema of the settings."""

from __future__ import annotations

import functools

from marshmallow import ValidationError, fields, validate, validates_schema

from tracker.systems.base import EventSchema, IdPattern, load_json
from tracker.systems.i18n import N_, _, ngettext

from . import hexes

SLUG = IdPattern(40)
MOVEMENTS = ("walker", "runner", "flier")

#: content pack id -> title; a pack is the maps.json and figures.json of content/
PACKS = {
    "standard": N_("The two sample maps and the figures the source names, with a Stone Giant"),
}


class PlayerSchema(EventSchema):
    id = fields.Str(required=True, validate=SLUG, metadata={"made_from": "name"})
    name = fields.Str(required=True, validate=validate.Length(min=1, max=60))


class FigureSchema(EventSchema):
    name = fields.Str(required=True, validate=validate.Length(min=1, max=60))
    movement = fields.Str(required=True, validate=validate.OneOf(MOVEMENTS))
    lives = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=3))
    strength = fields.Dict(
        keys=fields.Str(),
        values=fields.Integer(strict=True, validate=validate.Range(min=0, max=99)),
        required=True,
    )

    @validates_schema
    def _strength_for_each_life(self, data, **kwargs):
        wanted = {str(n) for n in range(1, data["lives"] + 1)}
        if set(data["strength"]) != wanted:
            raise ValidationError(
                ngettext(
                    "a figure with %(num)d life has a strength for each of %(lives)s lives left",
                    "a figure with %(num)d lives has a strength for each of %(lives)s lives left",
                    data["lives"],
                    lives=", ".join(sorted(wanted)),
                ),
                "strength",
            )
        # the source: "if it is wounded, it has less strength"
        lives = data["lives"]
        for more in range(lives, 1, -1):
            fewer = more - 1
            if data["strength"][str(fewer)] >= data["strength"][str(more)]:
                raise ValidationError(
                    _(
                        "a wounded figure has less strength (%(figure)s: %(weaker)s with "
                        "%(fewer)s left is not less than %(stronger)s with %(more)s)",
                        figure=data["name"],
                        weaker=data["strength"][str(fewer)],
                        fewer=_lives(fewer),
                        stronger=data["strength"][str(more)],
                        more=_lives(more),
                    ),
                    "strength",
                )


def _lives(n: int) -> str:
    return ngettext("%(num)d life", "%(num)d lives", n)


class MapSchema(EventSchema):
    name = fields.Str(required=True, validate=validate.Length(min=1, max=80))
    rows = fields.List(
        fields.Str(validate=validate.Length(max=400)),
        required=True,
        validate=validate.Length(min=1, max=60),
    )

    @validates_schema
    def _readable(self, data, **kwargs):
        try:
            hexes.parse_rows(data["rows"])
        except ValueError as err:
            raise ValidationError(err.args[0], "rows") from None


class SettingsSchema(EventSchema):
    players = fields.List(
        fields.Nested(PlayerSchema), required=True, validate=validate.Length(equal=2)
    )
    pack = fields.Str(load_default="standard", validate=validate.OneOf(sorted(PACKS)))
    maps = fields.Dict(
        keys=fields.Str(validate=SLUG),
        values=fields.Nested(MapSchema),
        required=True,
        validate=validate.Length(min=1),
    )
    figures = fields.Dict(
        keys=fields.Str(validate=SLUG),
        values=fields.Nested(FigureSchema),
        required=True,
        validate=validate.Length(min=1),
    )
    # Typed in the start form, one figure a line and a map's rows (`formtext`): read into
    # `figures` and `maps` before the settings are loaded (`prepare_settings`), never kept.
    own_figures = fields.Str()
    own_map = fields.Str()

    @validates_schema
    def _two_players(self, data, **kwargs):
        ids = [p["id"] for p in data["players"]]
        if len(set(ids)) != len(ids):
            raise ValidationError(_("the two players have different ids"), "players")


def load_pack(content_dir, pack: str) -> dict:
    """The maps and figures of a content pack, read from the content files, without their
    names in other languages (`versions` gives those).

    There is one pack today; users add maps and figures to those files, or give their own
    `maps` and `figures` in a campaign's settings.
    """
    read = _read(content_dir, pack)
    return {
        key: {eid: {k: v for k, v in entry.items() if k != "i18n"} for eid, entry in found.items()}
        for key, found in read.items()
    }


@functools.cache
def _read(content_dir, pack: str) -> dict:
    return {
        "maps": load_json(content_dir / "maps.json"),
        "figures": load_json(content_dir / "figures.json"),
    }


def with_versions(state: dict, content_dir, pack: str) -> dict:
    """`state` with the pack's names in other languages beside the names the campaign carries.

    The names in other languages stay out of the settings (the first event, which the log's
    hashes cover): a campaign keeps its content as it started, and reads in any language the
    pack speaks now. An entry the campaign renamed keeps its own name in every language.
    """
    read = _read(content_dir, pack) if pack in PACKS else {}
    out = dict(state)
    for key in ("maps", "figures"):
        known = read.get(key, {})
        out[key] = {
            eid: (
                {**entry, "i18n": known[eid]["i18n"]}
                if isinstance(entry, dict)
                and eid in known
                and "i18n" in known[eid]
                and known[eid].get("name") == entry.get("name")
                else entry
            )
            for eid, entry in state[key].items()
        }
    return out
