"""The Claim game system: its settings, its initial state and the contract with the core."""

from __future__ import annotations

from tracker.errors import InvalidEvent, RuleViolation
from tracker.events import Event
from tracker.systems.base import GameSystem
from tracker.systems.i18n import N_, _

from . import rules, views, words
from .cards import FACTIONS, deck_cards, decks, load_deck, with_versions
from .schemas import EVENTS, SettingsSchema


class ClaimSystem(GameSystem):
    name = "claim"
    title = N_("Claim")
    events = EVENTS
    settings_schema = SettingsSchema
    side_field = "player"
    handlers = rules.handlers
    views = views
    side_pages = {"table": "player"}

    # -- content ---------------------------------------------------------------------------

    def content_packs(self) -> dict[str, str]:
        return decks()

    def prepare_settings(self, settings: dict) -> dict:
        """Copy the chosen deck's factions and hand size into the settings.

        Settings that already hold factions are left as they are; an empty list (what the
        start form sends for a nested field it has no rows for) holds none.
        """
        if not isinstance(settings, dict) or settings.get("factions"):
            return settings
        deck_id = settings.get("deck", "standard")
        packs = decks()
        if deck_id not in packs:
            known = ", ".join(packs)
            raise InvalidEvent(
                _(
                    "settings: there is no deck %(deck)s (there are: %(known)s)",
                    deck=repr(deck_id),
                    known=known,
                ),
                {"deck": [_("unknown deck %(deck)s", deck=repr(deck_id))]},
            )
        deck = load_deck(deck_id)
        return {
            **settings,
            "deck": deck_id,
            "title": deck["title"],
            "hand_size": deck["hand_size"],
            "factions": deck["factions"],
        }

    # -- the fold --------------------------------------------------------------------------

    def initial_state(self, settings: dict) -> dict:
        players = [{"id": p["id"], "name": p["name"]} for p in settings["players"]]
        if players[0]["id"] == players[1]["id"]:
            raise RuleViolation(
                _(
                    "the two players need different ids (both are %(player)s)",
                    player=repr(players[0]["id"]),
                )
            )
        factions = settings.get("factions")
        size = settings.get("hand_size")
        if not factions or not size:
            raise RuleViolation(_("a campaign of Claim needs a deck (factions and hand size)"))
        unknown = [f["id"] for f in factions if f["id"] not in FACTIONS]
        if unknown:
            raise RuleViolation(
                _(
                    "the rules know the factions %(known)s, not %(unknown)s",
                    known=", ".join(FACTIONS),
                    unknown=", ".join(unknown),
                )
            )
        deck = deck_cards(factions)
        if len(deck) != 4 * size:
            raise RuleViolation(
                _(
                    "a deck holds four times a hand (%(cards)s cards for hands of %(size)s), "
                    "not %(deck)s",
                    cards=4 * size,
                    size=size,
                    deck=len(deck),
                )
            )
        return {
            "players": players,
            "factions": with_versions(
                [{"id": f["id"], "name": f["name"], "one": f["one"]} for f in factions],
                settings.get("deck", "standard"),
            ),
            "deck": deck,
            "hand_size": size,
            "standings": {
                p["id"]: {"games_won": 0, "games_lost": 0, "factions_won": 0} for p in players
            },
            "games_played": 0,
            "games_drawn": 0,
            "games": [],
            "game": None,
            "last": None,
        }

    # -- reading ---------------------------------------------------------------------------

    def visible_state(self, state: dict, side: str | None) -> dict:
        """What `side` may see (None: an onlooker); see views.visible_state."""
        return views.visible_state(state, side)

    def public_state(self, state: dict) -> dict:
        return views.public_view(state)

    def visible_event_data(self, state, event_type, data, version, viewer):
        return views.visible_event_data(state, event_type, data, version, viewer)

    def sides(self, state: dict) -> dict[str, str]:
        return {p["id"]: p["name"] for p in state["players"]}

    def sides_of(self, state: dict, event_type: str, data: dict) -> set[str]:
        """A card is played for its player; a deal or a turn-up is done for both at the table."""
        if event_type == "CardPlayed":
            return {data.get("player")}
        return {p["id"] for p in state["players"]}

    def describe(self, state: dict, event: Event) -> str:
        return words.describe(state, event)

    def happening(self, state: dict, event: Event) -> str | None:
        """A game over: the card that ends it (no card is played in a game that is over)."""
        game = state.get("game")
        if event.type == "CardPlayed" and game is not None and game["over"]:
            return "game-over"
        return None
