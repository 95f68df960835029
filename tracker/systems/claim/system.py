"""The Claim game system: its settings, its state, the fold of its events and their words."""

from __future__ import annotations

from tracker.errors import InvalidEvent, RuleViolation
from tracker.events import Event
from tracker.systems.base import GameSystem

from . import display, rules, views
from .cards import (
    DOPPELGANGERS,
    FACTIONS,
    card_name,
    deck_cards,
    decks,
    difference,
    faction,
    load_deck,
)
from .schemas import CardPlayedSchema, CardTurnedUpSchema, GameDealtSchema, SettingsSchema
from .views import player_view, public_view


class ClaimSystem(GameSystem):
    name = "claim"
    title = "Claim"
    events = {
        "GameDealt": GameDealtSchema,
        "CardTurnedUp": CardTurnedUpSchema,
        "CardPlayed": CardPlayedSchema,
    }
    settings_schema = SettingsSchema
    side_field = "player"

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
                f"settings: there is no deck {deck_id!r} (there are: {known})",
                {"deck": [f"unknown deck {deck_id!r}"]},
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
                f"the two players need different ids (both are {players[0]['id']!r})"
            )
        factions = settings.get("factions")
        size = settings.get("hand_size")
        if not factions or not size:
            raise RuleViolation("a campaign of Claim needs a deck (factions and hand size)")
        unknown = [f["id"] for f in factions if f["id"] not in FACTIONS]
        if unknown:
            raise RuleViolation(
                f"the rules know the factions {', '.join(FACTIONS)}, not {', '.join(unknown)}"
            )
        deck = deck_cards(factions)
        if len(deck) != 4 * size:
            raise RuleViolation(
                f"a deck holds four times a hand ({4 * size} cards for hands of {size}), "
                f"not {len(deck)}"
            )
        return {
            "players": players,
            "factions": [{"id": f["id"], "name": f["name"], "one": f["one"]} for f in factions],
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

    def apply(self, state: dict, event: Event) -> dict:
        handler = _HANDLERS.get(event.type)
        if handler is None:
            raise RuleViolation(f"Claim has no event {event.type}")
        return handler(state, event.data, event.version)

    # -- reading ---------------------------------------------------------------------------

    def public_state(self, state: dict) -> dict:
        return public_view(state)

    def visible_event_data(self, state, event_type, data, version, viewer):
        return views.visible_event_data(state, event_type, data, version, viewer)

    def player_view(self, state: dict, player: str | None) -> dict:
        """What `player` may see (None: an onlooker); see views.player_view."""
        return player_view(state, player)

    # -- helpers for the pages (see display.py) -------------------------------------------

    def next_game(self, state: dict) -> int | None:
        return display.next_game(state)

    def play_hint(self, state: dict, player: str) -> str | None:
        return display.play_hint(state, player)

    def face(self, state: dict, card: str | None) -> dict:
        return display.face(state, card)

    def by_faction(self, state: dict, cards: list[str]) -> list[dict]:
        return display.by_faction(state, cards)

    def trick_versions(self, events, game: int) -> list[int]:
        return display.trick_versions(events, game)

    def sides(self, state: dict) -> dict[str, str]:
        return {p["id"]: p["name"] for p in state["players"]}

    def sides_of(self, state: dict, event_type: str, data: dict) -> set[str]:
        """A card is played for its player; a deal or a turn-up is done for both at the table."""
        if event_type == "CardPlayed":
            return {data.get("player")}
        return {p["id"] for p in state["players"]}

    def describe(self, state: dict, event: Event) -> str:
        data = event.data
        names = self.sides(state)
        factions = {f["id"]: f["name"] for f in state["factions"]}
        number = data.get("game")
        if event.type == "GameDealt":
            leader = names.get(data["leader"], data["leader"])
            size = state["hand_size"]
            return f"Game {number} was dealt, {size} cards each; {leader} leads the first trick"
        if event.type == "CardTurnedUp":
            trick = state["game"]["trick"]["number"]
            card = card_name(data["card"], factions)
            return f"{card[0].upper()}{card[1:]} was turned up for trick {trick}"
        if event.type == "CardPlayed":
            player = names.get(data["player"], data["player"])
            card = card_name(data["card"], factions)
            game = state["game"]
            current = game["trick"]
            if current and current["cards"] and current["cards"][-1]["player"] == data["player"]:
                return f"{player} led {card} in trick {current['number']}"
            done = game["tricks"][-1]
            winner = names[done["winner"]]
            words = f"{player} followed with {card}; {winner} won trick {done['number']}"
            if game["over"]:
                words += "; " + result_words(state, game)
            elif current and current["number"] == state["hand_size"] + 1:
                words += "; phase two begins"
            return words
        return event.type


def result_words(state: dict, game: dict) -> str:
    names = {p["id"]: p["name"] for p in state["players"]}
    result = game["result"]
    counts = list(result["won"].items())
    won = ", ".join(
        f"{names[p]} won {n} faction{'' if n == 1 else 's'}" if i == 0 else f"{names[p]} {n}"
        for i, (p, n) in enumerate(counts)
    )
    if result["winner"]:
        return f"game {game['number']} is over: {names[result['winner']]} wins ({won})"
    return f"game {game['number']} is over with no winner ({won})"


# -- handlers: each checks every rule, then changes the state ------------------------------


def _name(state: dict, player: str) -> str:
    for p in state["players"]:
        if p["id"] == player:
            return p["name"]
    return repr(player)


def _other(state: dict, player: str) -> str:
    first, second = state["players"]
    return second["id"] if player == first["id"] else first["id"]


def _faction_names(state: dict) -> dict[str, str]:
    return {f["id"]: f["name"] for f in state["factions"]}


def _game_under_way(state: dict, data: dict, what: str) -> dict:
    """The game in progress, or RuleViolation when there is none or it is another game."""
    game = state["game"]
    if game is None:
        raise RuleViolation(f"no game has been dealt yet: deal game 1 before {what}")
    if game["over"]:
        raise RuleViolation(
            f"game {game['number']} is over after {2 * state['hand_size']} tricks: "
            f"deal game {game['number'] + 1} before {what}"
        )
    if data["game"] != game["number"]:
        raise RuleViolation(f"game {game['number']} is being played, not game {data['game']}")
    return game


def _dealt(state: dict, data: dict, version: int) -> dict:
    game = state["game"]
    if game is not None and not game["over"]:
        raise RuleViolation(
            f"game {game['number']} is still being played (trick {game['trick']['number']} of "
            f"{2 * state['hand_size']}): finish it before dealing another"
        )
    number = game["number"] + 1 if game else 1
    if data["game"] != number:
        raise RuleViolation(f"the next game to deal is game {number}, not game {data['game']}")
    ids = [p["id"] for p in state["players"]]
    leader = data["leader"]
    if leader not in ids:
        raise RuleViolation(
            f"the first leader is one of the players ({' or '.join(ids)}), not {leader!r}"
        )
    deal = data["deal"]
    hands = deal["hands"]
    if sorted(hands) != sorted(ids):
        raise RuleViolation(
            f"a deal gives one hand to each player ({' and '.join(ids)}), "
            f"not to {', '.join(sorted(hands)) or 'nobody'}"
        )
    size = state["hand_size"]
    for player in ids:
        if len(hands[player]) != size:
            raise RuleViolation(
                f"each player is dealt {size} cards ({_name(state, player)} was dealt "
                f"{len(hands[player])})"
            )
    if len(deal["stock"]) != 2 * size:
        raise RuleViolation(
            f"the deck left after the deal holds {2 * size} cards, not {len(deal['stock'])}"
        )
    wrong = difference(hands[ids[0]] + hands[ids[1]] + deal["stock"], state["deck"])
    if wrong:
        raise RuleViolation(f"a deal uses every card of the deck exactly once (it has {wrong})")

    state["game"] = {
        "number": number,
        "leader": leader,
        "phase": 1,
        "over": False,
        # Copies: the event's own lists are stored as they came and must not change.
        "hands": {p: list(hands[p]) for p in ids},
        "followers": {p: [] for p in ids},
        "scores": {p: [] for p in ids},
        "discards": [],
        "stock": list(deal["stock"]),
        "trick": _new_trick(1, 1, leader),
        "tricks": [],
        "awaiting": "turn-up",
        "turn": None,
        "result": None,
        "first_version": version,
        "last_version": version,
    }
    state["last"] = {"event": "GameDealt", "game": number, "player": leader, "card": None}
    return state


def _new_trick(number: int, phase: int, leader: str) -> dict:
    return {"number": number, "phase": phase, "leader": leader, "turned_up": None, "cards": []}


def _turned_up(state: dict, data: dict, version: int) -> dict:
    game = _game_under_way(state, data, "turning up a card")
    trick = game["trick"]
    if game["phase"] != 1:
        raise RuleViolation(f"nothing is turned up in phase two (trick {trick['number']})")
    if trick["turned_up"] is not None:
        names = _faction_names(state)
        raise RuleViolation(
            f"a card is already turned up for trick {trick['number']} "
            f"({card_name(trick['turned_up'], names)})"
        )
    card = data["card"]
    if card is None or card != game["stock"][0]:
        raise RuleViolation(
            f"the turned-up card is the top card of the deck, and {card or 'nothing'} is not "
            f"(trick {trick['number']})"
        )
    trick["turned_up"] = game["stock"].pop(0)
    game["awaiting"], game["turn"] = "lead", trick["leader"]
    game["last_version"] = version
    state["last"] = {"event": "CardTurnedUp", "game": game["number"], "player": None, "card": card}
    return state


def _played(state: dict, data: dict, version: int) -> dict:
    game = _game_under_way(state, data, "playing a card")
    player, card = data["player"], data["card"]
    ids = [p["id"] for p in state["players"]]
    if player not in ids:
        raise RuleViolation(f"{player!r} is not a player of this campaign ({' or '.join(ids)})")
    trick = game["trick"]
    names = _faction_names(state)
    if game["phase"] == 1 and trick["turned_up"] is None:
        raise RuleViolation(
            f"a card is turned up before the leader plays (trick {trick['number']}: "
            f"{_name(state, player)} played {card_name(card, names)} too soon)"
        )
    leading = not trick["cards"]
    due = trick["leader"] if leading else _other(state, trick["leader"])
    if player != due:
        role = "lead" if leading else "follow in"
        raise RuleViolation(
            f"it is {_name(state, due)}'s turn to {role} trick {trick['number']}, "
            f"not {_name(state, player)}'s"
        )
    hand = game["hands"][player]
    if card not in hand:
        where = "hand" if game["phase"] == 1 else "hand (the followers won in phase one)"
        raise RuleViolation(
            f"{_name(state, player)} does not hold {card_name(card, names)} in {where}"
        )
    if not leading:
        lead = trick["cards"][0]["card"]
        if not rules.may_follow(hand, lead, card):
            led = names.get(faction(lead), faction(lead))
            rule = (
                "a Doppelganger led must be followed by a Doppelganger while you hold one"
                if faction(lead) == DOPPELGANGERS
                else f"a player holding {led} must follow {led} or play a Doppelganger"
            )
            raise RuleViolation(
                f"{rule} ({_name(state, player)} played {card_name(card, names)} on "
                f"{card_name(lead, names)})"
            )

    hand.remove(card)
    trick["cards"].append({"player": player, "card": card})
    game["last_version"] = version
    state["last"] = {"event": "CardPlayed", "game": game["number"], "player": player, "card": card}
    if leading:
        game["awaiting"], game["turn"] = "follow", _other(state, player)
        return state
    _resolve_trick(state, game, trick)
    return state


def _resolve_trick(state: dict, game: dict, trick: dict) -> None:
    """Move the trick's cards where the rules send them and set up the next trick."""
    lead, follow = trick["cards"]
    winner = (
        follow["player"] if rules.follower_wins(lead["card"], follow["card"]) else lead["player"]
    )
    loser = _other(state, winner)
    phase = game["phase"]
    moves = []
    for played in (lead, follow):
        pile, owner = rules.played_card_goes(phase, played["card"], winner, loser)
        if pile == rules.SCORE:
            game["scores"][owner].append(played["card"])
        else:
            game["discards"].append(played["card"])
        moves.append({"card": played["card"], "pile": pile, "player": owner})
    blind = None
    if phase == 1:
        game["followers"][winner].append(trick["turned_up"])
        moves.append({"card": trick["turned_up"], "pile": rules.FOLLOWERS, "player": winner})
        blind = game["stock"].pop(0)
        game["followers"][loser].append(blind)
        moves.append({"card": blind, "pile": rules.FOLLOWERS, "player": loser, "blind": True})
    game["tricks"].append(
        {
            "number": trick["number"],
            "phase": phase,
            "leader": lead["player"],
            "turned_up": trick["turned_up"],
            "cards": trick["cards"],
            "led": faction(lead["card"]),
            "winner": winner,
            "loser": loser,
            "moves": moves,
        }
    )
    size = state["hand_size"]
    done = trick["number"]
    if done == 2 * size:
        _end_game(state, game)
        return
    if done == size:
        # Phase two: each player takes up the followers it collected as its new hand.
        game["phase"] = 2
        game["hands"] = game["followers"]
        game["followers"] = {p: [] for p in game["hands"]}
    game["trick"] = _new_trick(done + 1, game["phase"], winner)
    if game["phase"] == 1:
        game["awaiting"], game["turn"] = "turn-up", None
    else:
        game["awaiting"], game["turn"] = "lead", winner


def _end_game(state: dict, game: dict) -> None:
    ids = [p["id"] for p in state["players"]]
    results = rules.faction_results(game["scores"], [f["id"] for f in state["factions"]])
    won = {p: sum(1 for r in results.values() if r["winner"] == p) for p in ids}
    winner = rules.game_winner(results, ids)
    game["over"] = True
    game["trick"] = None
    game["awaiting"], game["turn"] = None, None
    game["result"] = {"factions": results, "won": won, "winner": winner}
    for player in ids:
        standing = state["standings"][player]
        standing["factions_won"] += won[player]
        if winner == player:
            standing["games_won"] += 1
        elif winner is not None:
            standing["games_lost"] += 1
    state["games_played"] += 1
    if winner is None:
        state["games_drawn"] += 1
    state["games"].append(
        {
            "number": game["number"],
            "winner": winner,
            "won": won,
            "factions": {kind: r["winner"] for kind, r in results.items()},
            "first_version": game["first_version"],
            "last_version": game["last_version"],
        }
    )


_HANDLERS = {"GameDealt": _dealt, "CardTurnedUp": _turned_up, "CardPlayed": _played}
