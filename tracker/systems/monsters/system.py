"""The monster battles game system: its settings, its content and the contract with the core."""

from __future__ import annotations

from marshmallow import ValidationError

from tracker.errors import InvalidEvent
from tracker.systems.base import Event, GameSystem, _plain
from tracker.systems.i18n import N_, _

from . import formtext, packs, rules, views, words
from .schemas import EVENTS


def _check_typed(name: str, entries: dict) -> None:
    """Refuse a figure or map typed in the start form (or given in the settings) in words
    that name it (the settings schema would check it too, in words about dictionaries)."""
    schema = packs.MapSchema() if name == "own_map" else packs.FigureSchema()
    for entry_id, entry in entries.items():
        try:
            packs.SLUG(entry_id)
            errors = schema.validate(entry)
        except ValidationError as err:
            errors = {"id": err.messages}
        if errors:
            plain = _plain(entry_id, errors)
            raise InvalidEvent(
                _("settings: %(field)s: %(problem)s", field=name, problem=plain), {name: [plain]}
            )


class MonsterBattles(GameSystem):
    name = "monsters"
    title = N_("Monster battles")
    events = EVENTS
    settings_schema = packs.SettingsSchema
    handlers = rules.handlers
    views = views

    # -- content ---------------------------------------------------------------------------

    def content_packs(self) -> dict[str, str]:
        return dict(packs.PACKS)

    def prepare_settings(self, settings: dict) -> dict:
        """Copy the pack's maps and figures into settings that do not carry their own, and
        add the figures and map typed in the start form (`own_figures`, `own_map`) to them."""
        if not isinstance(settings, dict):
            return settings
        prepared = dict(settings)
        typed = {}
        for name, read in (("own_figures", formtext.figures), ("own_map", formtext.game_map)):
            text = prepared.pop(name, None)
            if text is None:
                continue
            if not isinstance(text, str):
                raise InvalidEvent(
                    _("settings: %(field)s: a text", field=name), {name: [_("a text")]}
                )
            try:
                typed[name] = read(text)
            except ValueError as err:
                problem = err.args[0]
                raise InvalidEvent(
                    _("settings: %(field)s: %(problem)s", field=name, problem=problem),
                    {name: [problem]},
                ) from None
            _check_typed(name, typed[name])
        pack = prepared.get("pack", "standard")
        if ("maps" not in prepared or "figures" not in prepared) and pack in packs.PACKS:
            loaded = packs.load_pack(self.content_dir, pack)
            prepared.setdefault("maps", loaded["maps"])
            prepared.setdefault("figures", loaded["figures"])
        # What is typed joins the pack's (and replaces an entry of the same id); the settings
        # schema checks every entry.
        for name, key in (("own_figures", "figures"), ("own_map", "maps")):
            if typed.get(name) and isinstance(prepared.get(key), dict):
                prepared[key] = {**prepared[key], **typed[name]}
        if isinstance(prepared.get("figures"), dict):
            given = {k: v for k, v in prepared["figures"].items() if isinstance(v, dict)}
            _check_typed("figures", given)
        return prepared

    # -- the fold --------------------------------------------------------------------------

    def initial_state(self, settings: dict) -> dict:
        state = rules.initial_state(settings)
        return packs.with_versions(state, self.content_dir, settings.get("pack", "standard"))

    # -- reading ---------------------------------------------------------------------------

    def sides(self, state: dict) -> dict[str, str]:
        return dict(state["sides"])

    def sides_of(self, state: dict, event_type: str, data: dict) -> set[str]:
        """Setup agreements act for both players; a figure's event for its owner."""
        everyone = set(state["order"])
        if event_type in ("BattleBegun", "FiguresChosen"):
            return everyone
        if event_type == "BattleEnded":
            winner = data.get("winner")
            if winner not in everyone:
                return everyone
            if data.get("reason") == "conceded":
                return {rules.other(state, winner)}
            return {winner}
        field = {
            "FigurePlaced": "piece",
            "FigureMoved": "piece",
            "AttackMade": "attacker",
            "FlierCameDown": "flier",
            "FlierStayedAloft": "flier",
        }.get(event_type)
        battle = state.get("battle") or {}
        piece = battle.get("pieces", {}).get(data.get(field)) if field else None
        return {piece["side"]} if piece else set()

    def visible_state(self, state: dict, side: str | None) -> dict:
        return views.visible_state(state, side)

    def public_state(self, state: dict) -> dict:
        """Nothing is hidden in monster battles: the whole state is public."""
        return state

    def describe(self, state: dict, event: Event) -> str:
        return words.describe(state, event)

    def happening(self, state: dict, event: Event) -> str | None:
        """A battle (this game's whole game) over."""
        return "game-over" if event.type == "BattleEnded" else None
