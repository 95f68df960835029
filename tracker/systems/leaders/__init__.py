"""Leaders: a duel of two players on a hex board, each protecting its Leader."""

from __future__ import annotations

from pathlib import Path

from tracker.errors import InvalidEvent
from tracker.systems.base import GameSystem, load_json

from . import options, rules
from .schemas import EVENTS, SettingsSchema
from .secrecy import visible_event_data, visible_state
from .words import ability_help
from .words import describe as _describe

__all__ = ["system", "LeadersSystem", "visible_state", "visible_event_data"]


class LeadersSystem(GameSystem):
    name = "leaders"
    title = "Leaders"
    events = EVENTS
    settings_schema = SettingsSchema
    side_field = "player"

    def _boards(self) -> dict[str, Path]:
        return {p.stem: p for p in sorted((self.content_dir / "boards").glob("*.json"))}

    def content_packs(self) -> dict[str, str]:
        """The board layouts a campaign may be played on."""
        return {name: load_json(path)["title"] for name, path in self._boards().items()}

    def prepare_settings(self, settings: dict) -> dict:
        """Copy the chosen board layout (by id, "default" when none) and the characters in."""
        settings = dict(settings)
        board = settings.get("board", "default")
        if isinstance(board, str):
            boards = self._boards()
            if board not in boards:
                known = ", ".join(boards)
                raise InvalidEvent(
                    f"there is no board layout {board!r} (there are: {known})",
                    {"board": ["unknown board layout"]},
                )
            settings["board"] = load_json(boards[board])
        if "characters" not in settings:
            settings["characters"] = load_json(self.content_dir / "characters.json")
        return settings

    def initial_state(self, settings: dict) -> dict:
        return rules.initial_state(settings)

    def apply(self, state: dict, event) -> dict:
        return rules.apply(state, event)

    def public_state(self, state: dict) -> dict:
        return visible_state(state)

    def visible_event_data(self, state, event_type, data, version, viewer):
        return visible_event_data(state, event_type, data, version, viewer)

    def describe(self, state: dict, event) -> str:
        return _describe(state, event)

    def sides(self, state: dict) -> dict[str, str]:
        return {p["id"]: p["name"] for p in state["players"]}

    def sides_of(self, state: dict, event_type: str, data: dict) -> set[str]:
        """The player an event acts for; setup draws and a new match belong to no side."""
        player = data.get("player")
        return {player} if isinstance(player, str) else set()

    # -- what the pages offer (see options.py): only what the fold accepts ------------------

    def leader_options(self, state: dict) -> dict:
        return options.leader_options(state)

    def exile_options(self, state: dict):
        return options.exile_options(state)

    def action_options(self, state: dict, player: str) -> dict:
        return options.action_options(state, player)

    def nemesis_options(self, state: dict) -> list:
        return options.nemesis_options(state)

    def recruit_options(self, state: dict, player: str) -> dict:
        return options.recruit_options(state, player)

    def may_end_turn(self, state: dict, player: str) -> bool:
        return options.may_end_turn(state, player)

    def card_label(self, state: dict, card_id: str) -> str:
        return rules.card_label(state, card_id)

    def card_pieces(self, state: dict, card_id: str) -> list[dict]:
        """The pieces of a card (two for Hermit and Cub), each with its ability."""
        card = rules.card_index(state).get(card_id)
        return list(card["pieces"]) if card else []

    def ability_help(self, ability: str) -> str:
        """What a character with this ability does, in a sentence for the page."""
        return ability_help(ability)


system = LeadersSystem()
