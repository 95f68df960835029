"""Combat cards: a deck per game (content), hands with a limit, draws, plays and discards.

A hand is hidden from the other players (the system's `public_state` shows only how many
cards each hand holds); the deck's order is nobody's to see. The fold checks every card an
event names against the deck, the hand or the discard pile it comes from.
"""

from __future__ import annotations

from collections import Counter

from tracker.errors import RuleViolation
from tracker.systems.i18n import _, localised, ngettext


def name(state: dict, player: str) -> str:
    return state["names"].get(player, player)


def card_name(state: dict, card: str) -> str:
    found = state["content"]["combat_cards"].get(card)
    return localised(found, "name") if found else card


def full_deck(content: dict) -> dict[str, int]:
    """The deck a game starts with: each card of the content, as many copies as it says."""
    return {cid: card.get("copies", 1) for cid, card in content["combat_cards"].items()}


def _total(pile: dict) -> int:
    return sum(pile.values())


def hand_limit(state: dict) -> int:
    return state["content"]["limits"]["hand"]


def draw_count(state: dict, game: dict, player: str, wanted: int) -> int:
    """How many cards a draw of `wanted` brings: no further than the hand limit, nor the cards
    left in the deck and the discard pile."""
    room = hand_limit(state) - len(game["hands"][player])
    return max(0, min(wanted, room, _total(game["deck"]) + _total(game["discard"])))


def check_draw(state: dict, game: dict, player: str, cards: list[str], wanted: int) -> None:
    """Refuse a draw that is not exactly what the deck gives now (state unchanged)."""
    who = name(state, player)
    expected = draw_count(state, game, player, wanted)
    if len(cards) != expected:
        limit = hand_limit(state)
        raise RuleViolation(
            ngettext(
                "%(player)s draws %(num)d combat card(s) here, not %(count)s (a draw of "
                "%(wanted)s, a hand holds at most %(limit)s, %(player)s holds %(held)s)",
                "%(player)s draws %(num)d combat card(s) here, not %(count)s (a draw of "
                "%(wanted)s, a hand holds at most %(limit)s, %(player)s holds %(held)s)",
                expected,
                player=who,
                count=len(cards),
                wanted=wanted,
                limit=limit,
                held=len(game["hands"][player]),
            )
        )
    source = Counter(game["deck"])
    if len(cards) > _total(game["deck"]):
        source.update(game["discard"])  # the discard pile is shuffled into the deck
    short = Counter(cards) - source
    if short:
        card = next(iter(short))
        raise RuleViolation(
            _(
                "a card is drawn from the deck: no %(card)s is left in it",
                card=card_name(state, card),
            )
            if card in state["content"]["combat_cards"]
            else _("there is no combat card %(card)r in this game's deck", card=card)
        )


def take_draw(state: dict, game: dict, player: str, cards: list[str]) -> None:
    """Move the drawn cards (checked by `check_draw`) from the deck into the hand."""
    if len(cards) > _total(game["deck"]):
        for cid, n in game["discard"].items():
            game["deck"][cid] = game["deck"].get(cid, 0) + n
        game["discard"] = {}
        game["reshuffles"] += 1
    for cid in cards:
        game["deck"][cid] -= 1
        if not game["deck"][cid]:
            del game["deck"][cid]
    game["hands"][player] = sorted(game["hands"][player] + list(cards))


def check_in_hand(state: dict, game: dict, player: str, cards: list[str]) -> None:
    for cid in cards:
        if cid not in state["content"]["combat_cards"]:
            raise RuleViolation(_("there is no combat card %(card)r", card=cid))
    short = Counter(cards) - Counter(game["hands"][player])
    if short:
        card = next(iter(short))
        raise RuleViolation(
            _(
                "a combat card is played from its player's hand (%(player)s holds no %(card)s)",
                player=name(state, player),
                card=card_name(state, card),
            )
        )


def play_from_hand(game: dict, player: str, cards: list[str]) -> None:
    hand = list(game["hands"][player])
    for cid in cards:
        hand.remove(cid)
    game["hands"][player] = hand


def discard(game: dict, cards: list[str]) -> None:
    for cid in cards:
        game["discard"][cid] = game["discard"].get(cid, 0) + 1


def deal_check(state: dict, order: list[str], hands: dict | None) -> dict[str, list[str]]:
    """The starting hands of a new game, checked against a fresh deck."""
    size = state["content"]["start"].get("cards", 0)
    hands = hands or {}
    if set(hands) - set(order):
        raise RuleViolation(_("starting hands go to the players of the game only"))
    deck = Counter(full_deck(state["content"]))
    for player in order:
        cards = hands.get(player, [])
        if len(cards) != size:
            raise RuleViolation(
                ngettext(
                    "each player starts with %(num)d combat card(s) (%(player)s has %(count)s)",
                    "each player starts with %(num)d combat card(s) (%(player)s has %(count)s)",
                    size,
                    player=name(state, player),
                    count=len(cards),
                )
            )
        for cid in cards:
            if cid not in deck:
                raise RuleViolation(
                    _("there is no combat card %(card)r in this game's deck", card=cid)
                )
        deck.subtract(cards)
        if any(n < 0 for n in deck.values()):
            raise RuleViolation(_("the starting hands hold more copies of a card than the deck"))
    return {p: sorted(hands.get(p, [])) for p in order}


# -- chance: what the server draws when the table does not say ----------------------------


def _draw_from(roller, deck: dict, discard: dict, n: int) -> list[str]:
    pile = [cid for cid, k in sorted(deck.items()) for _ in range(k)]
    if n > len(pile):
        pile += [cid for cid, k in sorted(discard.items()) for _ in range(k)]
    return roller.shuffle(pile)[:n]


def server_draw(state: dict, what: str, data: dict, roller):
    """The cards an event leaves out, drawn for it: starting hands, a hunt's, a grant's."""
    content = state["content"]
    if what == "game":
        size = content["start"].get("cards", 0)
        order = [p for p in data.get("order") or () if isinstance(p, str)]
        pile = roller.shuffle(
            [cid for cid, k in sorted(full_deck(content).items()) for _ in range(k)]
        )
        return {p: pile[i * size : (i + 1) * size] for i, p in enumerate(order)}
    game = state.get("game")
    player = data.get("player")
    if not game or game["over"] or player not in game["hands"]:
        return []
    if what == "hunt":
        wanted = game["heroes"][player]["strength"]
    else:
        grant = next(
            (g for g in game["grants"] if g["kind"] == "cards" and g["player"] == player), None
        )
        wanted = grant["count"] if grant else 0
    n = draw_count(state, game, player, wanted)
    return _draw_from(roller, game["deck"], game["discard"], n)
