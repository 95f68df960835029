"""Property test: any legal game of Claim ends after 26 tricks with all 52 cards accounted for.

Each event is applied as a writer applies it, to a copy made as the rules reach into it
(`copy_for_rules`): cards move between piles of the one `game` part, and the state copied
from must stay as it was."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.events import Event, state_text
from tracker.systems.base import copy_for_rules, settled
from tracker.systems.claim import system
from tracker.systems.claim.rules import legal_cards

PLAYERS = [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}]
SETTINGS = system.load_settings(system.prepare_settings({"players": PLAYERS}))
DECK = system.initial_state(SETTINGS)["deck"]


def accounted(game: dict) -> Counter:
    cards = Counter(game["stock"] + game["discards"])
    for pile in ("hands", "followers", "scores"):
        for held in game[pile].values():
            cards.update(held)
    if game["trick"]:
        cards.update(c["card"] for c in game["trick"]["cards"])
        if game["trick"]["turned_up"]:
            cards[game["trick"]["turned_up"]] += 1
    return cards


@settings(max_examples=60, deadline=None)
@given(
    deck=st.permutations(DECK),
    leader=st.sampled_from(["ana", "ben"]),
    picks=st.lists(st.integers(0, 12), min_size=52, max_size=52),
)
def test_random_legal_games_end_after_26_tricks_with_every_card_accounted_for(deck, leader, picks):
    state = system.initial_state(SETTINGS)
    version = 1
    deal = {"hands": {"ana": deck[:13], "ben": deck[13:26]}, "stock": deck[26:]}

    def apply(type_, **data):
        nonlocal version, state
        version += 1
        event = Event(None, "p", version, type_, data, {}, None, None)
        before = state_text(state)
        after = settled(system.apply(copy_for_rules(state), event))
        assert state_text(state) == before, "the state copied from changed"
        state = after

    apply("GameDealt", game=1, leader=leader, deal=deal)
    whole = Counter(DECK)
    plays = iter(picks)
    while not state["game"]["over"]:
        game = state["game"]
        if game["awaiting"] == "turn-up":
            apply("CardTurnedUp", game=1, card=game["stock"][0])
            continue
        trick = game["trick"]
        lead = trick["cards"][0]["card"] if trick["cards"] else None
        legal = legal_cards(game["hands"][game["turn"]], lead)
        apply("CardPlayed", game=1, player=game["turn"], card=legal[next(plays) % len(legal)])
        assert accounted(state["game"]) == whole

    game = state["game"]
    assert len(game["tricks"]) == 26
    assert [t["number"] for t in game["tricks"]] == list(range(1, 27))
    assert game["stock"] == [] and game["hands"] == {"ana": [], "ben": []}
    assert game["followers"] == {"ana": [], "ben": []}
    assert Counter(game["discards"] + game["scores"]["ana"] + game["scores"]["ben"]) == whole
    result = game["result"]
    assert sum(result["won"].values()) <= 5
    winners = [p for p, n in result["won"].items() if n >= 3]
    assert result["winner"] == (winners[0] if winners else None)
    assert state["games_played"] == 1
