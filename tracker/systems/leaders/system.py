"""The Leaders contract with the core: its events, board layouts, fold and words."""

from __future__ import annotations

from pathlib import Path

from tracker.errors import InvalidEvent
from tracker.systems.base import GameSystem, load_json
from tracker.systems.i18n import _, localised

from . import rules, views, words
from .names import without_versions
from .schemas import EVENTS, Settings


class LeadersSystem(GameSystem):
    name = "leaders"
    title = "Leaders"
    events = EVENTS
    settings_schema = Settings
    side_field = "player"
    handlers = rules.handlers
    views = views

    def _boards(self) -> dict[str, Path]:
        return {p.stem: p for p in sorted((self.content_dir / "boards").glob("*.json"))}

    def content_packs(self) -> dict[str, str]:
        """The board layouts a campaign may be played on, their titles in each language."""
        return {name: localised(load_json(path), "title") for name, path in self._boards().items()}

    def prepare_settings(self, settings: dict) -> dict:
        """Copy the chosen board layout (by id, "default" when none) and the characters in,
        without their versions per language: those are read from the pack where shown
        (names.py), so a translation never changes a campaign's first event."""
        settings = dict(settings)
        board = settings.get("board", "default")
        if isinstance(board, str):
            boards = self._boards()
            if board not in boards:
                known = ", ".join(boards)
                raise InvalidEvent(
                    _(
                        "there is no board layout %(board)s (there are: %(known)s)",
                        board=repr(board),
                        known=known,
                    ),
                    {"board": [_("unknown board layout")]},
                )
            settings["board"] = without_versions(load_json(boards[board]))
        if "characters" not in settings:
            characters = load_json(self.content_dir / "characters.json")
            settings["characters"] = without_versions(characters)
        return settings

    def initial_state(self, settings: dict) -> dict:
        return rules.initial_state(settings)

    def visible_state(self, state: dict, side: str | None) -> dict:
        return views.visible_state(state, side)

    def public_state(self, state: dict) -> dict:
        return views.visible_state(state, None)

    def visible_event_data(self, state, event_type, data, version, viewer):
        return views.visible_event_data(state, event_type, data, version, viewer)

    def describe(self, state: dict, event) -> str:
        return words.describe(state, event)

    def happening(self, state: dict, event) -> str | None:
        """A match over: the event that captured or encircled a Leader."""
        match = state.get("match") or {}
        last = match.get("last") or {}
        if match.get("phase") == "over" and last.get("version") == event.version:
            return "game-over"
        return None

    def sides(self, state: dict) -> dict[str, str]:
        return {p["id"]: p["name"] for p in state["players"]}

    def sides_of(self, state: dict, event_type: str, data: dict) -> set[str]:
        """The player an event acts for; setup draws and a new match belong to no side."""
        player = data.get("player")
        return {player} if isinstance(player, str) else set()
