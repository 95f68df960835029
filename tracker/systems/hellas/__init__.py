"""Lords of Hellas: heroes, hoplites, hunts, monuments and battles over a board of Lands.

A campaign is a series of games between the same players; the state holds the game under
way (or the last one) and the standings over all games.
"""

from __future__ import annotations

import copy

from tracker.errors import RuleViolation
from tracker.systems.base import GameSystem, load_json

from . import effects, quests, rules, views
from .board import check_content, neighbours
from .schemas import EVENTS, SettingsSchema
from .words import describe as _describe

rules.HANDLERS.update(effects.HANDLERS)
rules.HANDLERS.update(quests.HANDLERS)

#: the events that hold drawn combat cards, and the field that holds them
HIDDEN_CARDS = {"GameStarted": "hands", "HuntBegan": "cards", "CombatCardsDrawn": "cards"}


class Hellas(GameSystem):
    name = "hellas"
    title = "Lords of Hellas"
    events = EVENTS
    settings_schema = SettingsSchema
    side_field = "player"

    def content_packs(self) -> dict[str, str]:
        return {
            path.stem: load_json(path)["title"] for path in sorted(self.content_dir.glob("*.json"))
        }

    def prepare_settings(self, settings: dict) -> dict:
        if "content" in settings:
            return settings
        pack = settings.get("pack", "base")
        if pack not in self.content_packs():
            raise RuleViolation(
                f"there is no board {pack!r} (there are: {', '.join(self.content_packs())})"
            )
        return {**settings, "content": load_json(self.content_dir / f"{pack}.json")}

    def initial_state(self, settings: dict) -> dict:
        content = settings["content"]
        check_content(content)
        players = [p["id"] for p in settings["players"]]
        if len(set(players)) != len(players):
            raise RuleViolation("each player of a campaign has an id of its own")
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

    def apply(self, state: dict, event) -> dict:
        return rules.apply(state, event)

    def public_state(self, state: dict) -> dict:
        """The state as anyone may see it: every piece on the board, and of the combat cards
        only the discard pile and how many cards each hand and the deck hold."""
        public = {k: v for k, v in state.items() if k != "neighbours"}
        game = state["game"]
        if game:
            shown = {k: v for k, v in game.items() if k not in ("hands", "deck")}
            shown["hand_counts"] = {p: len(cards) for p, cards in game["hands"].items()}
            shown["deck_count"] = sum(game["deck"].values())
            public["game"] = shown
            public["progress"] = {p: rules.progress(state, p) for p in game["order"]}
            public["waiting"] = rules.waiting_for(state)
        return public

    def view_for(self, state: dict, side: str | None) -> dict:
        """What one player sees: the public state, its own hand and its own choices."""
        public = copy.deepcopy(self.public_state(state))
        game = state["game"]
        if side is not None and game:
            public["open_actions"] = rules.open_actions(state, side)
            if side in game["hands"]:
                public["hand"] = list(game["hands"][side])
        return public

    def visible_event_data(self, state, event_type, data, version, viewer):
        """Cards drawn in a game under way show only to the player who drew them."""
        field = HIDDEN_CARDS.get(event_type)
        game = state.get("game") if state else None
        if not field or not isinstance(data.get(field), dict | list) or not game:
            return data
        if game["over"] or version < game["started_at"]:
            return data
        drawn = data[field]
        if event_type == "GameStarted":
            hands = {
                p: (cards if p == viewer else f"{len(cards)} cards, hidden")
                for p, cards in drawn.items()
            }
            return {**data, field: hands}
        if data.get("player") == viewer:
            return data
        return {**data, field: f"{len(drawn)} cards, hidden"}

    def player_board(self, state: dict, player: str) -> dict:
        """A player's counts in the game, each with its limit (views.player_board)."""
        return views.player_board(state, player)

    def choices(self, state: dict, player: str) -> dict:
        """The options the forms of a page may offer a player now (views.choices)."""
        return views.choices(state, player)

    def grant_words(self, state: dict, grant: dict) -> str:
        """A grant waiting to be taken, in words (effects.grant_words)."""
        return effects.grant_words(state, grant)

    def touched(self, state: dict, event_type: str, data: dict) -> list[str]:
        """The regions an event acted on, for the map's highlight (views.touched)."""
        return views.touched(state, event_type, data)

    def describe(self, state: dict, event) -> str:
        return _describe(state, event)

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


system = Hellas()
