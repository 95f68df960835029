"""The Lords of Hellas game system: its content, its initial state and the contract with the core."""

from __future__ import annotations

import functools

from tracker.errors import RuleViolation
from tracker.systems.base import GameSystem, Handlers, load_json
from tracker.systems.i18n import _, localised

from . import effects, quests, rules, views, words
from .board import check_content, neighbours
from .schemas import EVENTS, SettingsSchema
from .texts import with_versions, without_versions


class Hellas(GameSystem):
    name = "hellas"
    title = "Lords of Hellas"
    events = EVENTS
    settings_schema = SettingsSchema
    side_field = "player"
    #: the rules' handlers: the game's own (rules.py), the effects' and the quests'
    handlers = Handlers({**rules.handlers, **effects.handlers, **quests.handlers})
    views = views

    def content_packs(self) -> dict[str, str]:
        return {
            path.stem: localised(load_json(path), "title")
            for path in sorted(self.content_dir.glob("*.json"))
        }

    @functools.cache  # noqa: B019 - one system object lives as long as the process
    def _shipped(self, pack) -> dict | None:
        path = self.content_dir / f"{pack}.json"
        return load_json(path) if path.is_file() else None

    def prepare_settings(self, settings: dict) -> dict:
        if "content" in settings:
            return settings
        pack = settings.get("pack", "base")
        if pack not in self.content_packs():
            raise RuleViolation(
                _(
                    "there is no board %(pack)r (there are: %(packs)s)",
                    pack=pack,
                    packs=", ".join(self.content_packs()),
                )
            )
        # The names in other languages are no part of what the log keeps (texts.py).
        content = without_versions(load_json(self.content_dir / f"{pack}.json"))
        return {**settings, "content": content}

    def initial_state(self, settings: dict) -> dict:
        content = settings["content"]
        check_content(content)
        pack = content.get("id")
        known = isinstance(pack, str) and pack in self.content_packs()
        shipped = self._shipped(pack) if known else None
        content = with_versions(content, shipped)
        players = [p["id"] for p in settings["players"]]
        if len(set(players)) != len(players):
            raise RuleViolation(_("each player of a campaign has an id of its own"))
        return {
            "players": players,
            "names": {p["id"]: p["name"] for p in settings["players"]},
            "content": content,
            "neighbours": neighbours(content),
            "standings": {
                p: {"played": 0, "won": 0, "by": {c: 0 for c in rules.CONDITIONS}} for p in players
            },
            "games": [],
            "game": None,
        }

    def public_state(self, state: dict) -> dict:
        return views.public_view(state)

    def visible_state(self, state: dict, side: str | None) -> dict:
        return views.visible_state(state, side)

    def visible_event_data(self, state, event_type, data, version, viewer):
        return views.visible_event_data(state, event_type, data, version, viewer)

    def describe(self, state: dict, event) -> str:
        return words.describe(state, event)

    def happening(self, state: dict, event) -> str | None:
        """A game over: won (a victory condition met) or abandoned, by this event."""
        game = state.get("game")
        over = game and game["over"]
        if over and over["version"] == event.version:
            return "game-over"
        return None

    def sides(self, state: dict) -> dict[str, str]:
        return {p: state["names"][p] for p in state["players"]}

    def sides_of(self, state: dict, event_type: str, data: dict) -> set[str]:
        player = data.get("player")
        if player:
            return {player}
        game = state.get("game") if state else None
        if event_type in rules.EFFECTS and game and not game["over"]:
            return {game["turn"]["player"]}
        return set()
