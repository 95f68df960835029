"""The content a campaign carries: players, maps and figures, with the schema of the settings."""

from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from tracker.systems.base import EventSchema, IdPattern, load_json

from . import hexes

SLUG = IdPattern(40)
MOVEMENTS = ("walker", "runner", "flier")

#: content pack id -> title; a pack is the maps.json and figures.json of content/
PACKS = {
    "standard": "The two sample maps and the figures the source names, with a Stone Giant",
}


class PlayerSchema(EventSchema):
    id = fields.Str(required=True, validate=SLUG)
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
                f"a figure with {data['lives']} lives has a strength for each of "
                + ", ".join(sorted(wanted))
                + " lives left",
                "strength",
            )
        # the source: "if it is wounded, it has less strength"
        lives = data["lives"]
        for more in range(lives, 1, -1):
            fewer = more - 1
            if data["strength"][str(fewer)] >= data["strength"][str(more)]:
                raise ValidationError(
                    f"a wounded figure has less strength ({data['name']}: "
                    f"{data['strength'][str(fewer)]} with {_lives(fewer)} left is not less "
                    f"than {data['strength'][str(more)]} with {_lives(more)})",
                    "strength",
                )


def _lives(n: int) -> str:
    return f"{n} life" if n == 1 else f"{n} lives"


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
            raise ValidationError(str(err), "rows") from None


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
            raise ValidationError("the two players have different ids", "players")


def load_pack(content_dir, pack: str) -> dict:
    """The maps and figures of a content pack, read from the content files.

    There is one pack today; users add maps and figures to those files, or give their own
    `maps` and `figures` in a campaign's settings.
    """
    return {
        "maps": load_json(content_dir / "maps.json"),
        "figures": load_json(content_dir / "figures.json"),
    }
