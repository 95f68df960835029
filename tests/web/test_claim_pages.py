"""Claim's pages through Flask's test client: the start form, the standings, a seat at the
table and its forms (error paths included), a finished game's factions, the replay."""

import re

import pytest
from pagetools import defaults_refused, form, member, post_form, posts, start_form, text, version

from tracker import config

SAMPLE = config.SAMPLES / "claim-tavern-nights.jsonl"
TAVERN = "claim-tavern-nights"
PLAYERS = [{"id": "ana", "name": "Ana"}, {"id": "ben", "name": "Ben"}]


@pytest.fixture
def tavern(svc):
    """The sample: Mara and Tobin, two finished games (Mara won game 1, Tobin game 2)."""
    svc.import_lines(SAMPLE.read_text().splitlines())
    return TAVERN


@pytest.fixture
def started(svc):
    """Campaign "c": Ana and Ben, no game dealt."""
    svc.start("c", "claim", "Ana against Ben", {"players": PLAYERS})
    return "c"


@pytest.fixture
def dealt(svc, started):
    """Game 1 dealt from the deck in order, Ana leading.

    Ana holds goblins-0 (five), goblins-1 to 8; Ben goblins-9, knights-2 to 9, undead-0 to 3;
    the deck starts undead-4, undead-5, undead-6, ...
    """
    deck = svc.state("c").state["deck"]
    deal = {"hands": {"ana": deck[:13], "ben": deck[13:26]}, "stock": deck[26:]}
    svc.append(
        "c",
        [{"type": "GameDealt", "data": {"game": 1, "leader": "ana", "deal": deal}}],
        version(svc),
    )
    return "c"


def turn_up(svc, cid="c"):
    svc.append(cid, [{"type": "CardTurnedUp", "data": {"game": 1}}], version(svc, cid))


def play(svc, player, card, cid="c"):
    svc.append(
        cid,
        [{"type": "CardPlayed", "data": {"game": 1, "player": player, "card": card}}],
        version(svc, cid),
    )


def first_trick(svc):
    """Trick 1: undead-4 turned up; Ana leads goblins-0, Ben follows goblins-9 and wins;
    Ben takes undead-4 into his followers, Ana undead-5 unseen."""
    turn_up(svc)
    play(svc, "ana", "goblins-0")
    play(svc, "ben", "goblins-9")


def deal_form(client, svc, expected=None, **fields):
    """Post the dashboard's deal form, at the version the page showed (the latest unless
    `expected` says otherwise)."""
    seen = version(svc) if expected is None else expected
    return client.post("/c/c/", data=form("GameDealt", seen, **fields))


def play_at_seat(client, svc, card, player="ana"):
    """Post the play form of `player`'s seat with `card`."""
    return client.post(f"/c/c/table?player={player}", data=play_form(svc, card, player=player))


def play_form(svc, card, player="ana", cid="c", **extra):
    return form(
        "CardPlayed", version(svc, cid), form_id="play", game="1", player=player, card=card, **extra
    )


# -- starting a campaign ------------------------------------------------------------------


def test_the_start_form_asks_for_two_players_and_a_deck(client):
    html = client.get("/").get_data(as_text=True)
    for name in (
        "settings-players-0-id",
        "settings-players-0-name",
        "settings-players-1-id",
        "settings-players-1-name",
        "settings-deck",
    ):
        assert f'name="{name}"' in html
    assert '<option value="standard">' in html


def test_a_claim_campaign_starts_from_the_form_with_its_players_and_the_deck(client, svc):
    page = start_form(
        client, "claim", "Friday cards", [("mara", "Mara"), ("tobin", "Tobin")], deck="standard"
    )
    assert page.status_code == 302 and page.location.endswith("/c/friday-cards/")
    settings = svc.store.event("friday-cards", 1).data["settings"]
    assert settings["players"] == [{"id": "mara", "name": "Mara"}, {"id": "tobin", "name": "Tobin"}]
    assert settings["hand_size"] == 13 and len(settings["factions"]) == 5


def test_a_start_form_with_the_same_id_for_both_players_says_why(client, svc):
    page = start_form(client, "claim", "Twins", [("sam", "Sam"), ("sam", "Samantha")])
    assert page.status_code == 422
    assert "the two players need different ids" in text(page)
    assert not svc.store.exists("twins")


def test_a_start_form_with_a_bad_player_id_shows_the_error_beside_the_players(client):
    page = start_form(client, "claim", "Bad", [("Not An Id", "X"), ("y", "Y")])
    assert page.status_code == 422
    assert re.search(
        r'<span class="field-error"[^>]*>[^<]*a player id is lower-case letters',
        page.get_data(as_text=True),
    )


def test_a_player_name_typed_in_is_escaped_on_every_page(client, svc):
    svc.start(
        "x",
        "claim",
        "Escapes",
        {
            "players": [
                {"id": "eve", "name": "<script>alert(1)</script>"},
                {"id": "bob", "name": "Bob"},
            ]
        },
    )
    deck = svc.state("x").state["deck"]
    svc.append(
        "x",
        [
            {
                "type": "GameDealt",
                "data": {
                    "game": 1,
                    "leader": "eve",
                    "deal": {"hands": {"eve": deck[:13], "bob": deck[13:26]}, "stock": deck[26:]},
                },
            }
        ],
        1,
    )
    for path in ("", "table?player=eve", "table", "games", "audit"):
        html = client.get(f"/c/x/{path}").get_data(as_text=True)
        assert "<script>alert(1)</script>" not in html, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, path


# -- every page ---------------------------------------------------------------------------


def test_every_claim_page_answers_and_shows_the_head_hash(client, tavern, svc):
    head = svc.store.head(tavern)[1]
    for path in (
        "",
        "table",
        "table?player=mara",
        "table?player=tobin",
        "games",
        "game?game=1",
        "game?game=2",
        "replay?game=1",
        "replay?game=2&trick=0",
        "replay?game=2&trick=26",
        "audit",
        "dice",
    ):
        page = client.get(f"/c/{tavern}/{path}")
        assert page.status_code == 200, path
        assert head in page.get_data(as_text=True), path


@pytest.mark.parametrize(
    "path, message",
    [
        ("table?player=zed", 'this campaign has no player "zed"'),
        ("game?game=9", 'this campaign has no game "9"'),
        ("game?game=one", 'this campaign has no game "one"'),
        ("replay?game=9", 'this campaign has no finished game "9"'),
        ("replay?game=1&trick=27", 'game 1 has tricks 1 to 26 (0 is the deal), not "27"'),
        ("replay?game=1&trick=x", 'game 1 has tricks 1 to 26 (0 is the deal), not "x"'),
    ],
)
def test_an_unknown_player_game_or_trick_is_not_found(client, tavern, path, message):
    page = client.get(f"/c/{tavern}/{path}")
    assert page.status_code == 404 and message in text(page)


def test_the_replay_of_a_game_still_being_played_is_not_found(client, dealt):
    page = client.get("/c/c/replay?game=1")
    assert page.status_code == 404 and "game 1 is still being played" in text(page)


# -- standings and games ------------------------------------------------------------------


def test_the_dashboard_shows_the_standings_games_won_and_factions_won(client, tavern, svc):
    body = text(client.get(f"/c/{tavern}/"))
    standings = svc.state(tavern).state["standings"]
    assert standings["mara"] == {"games_won": 1, "games_lost": 1, "factions_won": 4}
    assert "Mara mara 1 1 4" in body and "Tobin tobin 1 1 6" in body
    assert "2 games played, 0 without a winner" in body


def test_the_dashboard_lists_each_finished_game_with_its_winner_and_factions(client, tavern):
    body = text(client.get(f"/c/{tavern}/"))
    assert "1 Mara 3 2" in body and "2 Tobin 1 4" in body


def test_the_dashboard_tells_the_latest_events_in_words(client, tavern):
    body = text(client.get(f"/c/{tavern}/"))
    assert "game 2 is over: Tobin wins (Mara won 1 faction, Tobin 4)" in body


def test_the_games_page_links_each_game_to_its_factions_and_its_replay(client, tavern):
    html = client.get(f"/c/{tavern}/games").get_data(as_text=True)
    for number in (1, 2):
        assert f"/c/{tavern}/game?game={number}" in html
        assert f"/c/{tavern}/replay?game={number}" in html


def test_a_game_is_dealt_from_the_dashboard_form_by_the_server(client, started, svc):
    page = deal_form(client, svc, game="1", leader="ben")
    assert page.status_code == 302
    game = svc.state("c").state["game"]
    assert game["number"] == 1 and game["leader"] == "ben"
    assert {p: len(h) for p, h in game["hands"].items()} == {"ana": 13, "ben": 13}
    event = svc.store.event("c", 2)  # the server shuffled, and the deal is recorded
    assert event.meta["source"] == "server-roll" and len(event.data["deal"]["stock"]) == 26


def test_the_first_leader_is_drawn_by_lot_when_the_form_leaves_it_to_the_server(
    client, started, svc
):
    page = deal_form(client, svc, game="1", leader="")
    assert page.status_code == 302
    assert svc.state("c").state["game"]["leader"] in ("ana", "ben")


def test_dealing_the_wrong_game_number_is_refused_with_the_rule(client, started, svc):
    before = version(svc)
    page = deal_form(client, svc, expected=before, game="5", leader="ana")
    assert page.status_code == 422
    assert "the next game to deal is game 1, not game 5" in text(page)
    assert version(svc) == before


def test_a_game_number_that_is_not_a_number_shows_its_error_beside_the_field(client, started, svc):
    page = deal_form(client, svc, game="first")
    assert page.status_code == 422
    assert re.search(
        r'</label>\s*<span class="field-error" role="alert"[^>]*>Game must be a whole number',
        page.get_data(as_text=True),
    )


def test_no_deal_form_is_offered_while_a_game_is_under_way(client, dealt):
    assert 'name="type" value="GameDealt"' not in client.get("/c/c/").get_data(as_text=True)


def typed_deal(client, svc, hands: dict, stock: str, **extra):
    """Post the form of a deal typed in from a deck at the table."""
    boxes = {f"deal-hands[{player}]": cards for player, cards in hands.items()}
    data = form(
        "GameDealt",
        version(svc),
        form_id="deal-typed",
        game="1",
        **boxes,
        **{"deal-stock": stock},
        **extra,
    )
    return client.post("/c/c/", data=data)


def test_the_dashboard_offers_a_deal_typed_in_from_a_deck_at_the_table(client, started):
    html = client.get("/c/c/").get_data(as_text=True)
    for box in ("deal-hands[ana]", "deal-hands[ben]", "deal-stock"):
        assert f'name="{box}"' in html
    assert "Hand of Ana (13 cards)" in text(client.get("/c/c/"))


def test_a_deal_typed_in_from_a_deck_at_the_table_is_recorded_as_typed(client, started, svc):
    deck = svc.state("c").state["deck"]
    page = typed_deal(
        client,
        svc,
        # spaces, commas and lines between the cards, as people type them
        {"ana": " ".join(deck[:13]), "ben": ", ".join(deck[13:26])},
        "\n".join(deck[26:]),
        leader="ben",
    )
    assert page.status_code == 302
    event = svc.store.event("c", 2)
    assert event.data["deal"] == {
        "hands": {"ana": deck[:13], "ben": deck[13:26]},
        "stock": deck[26:],
    }
    assert event.meta["source"] == "table-roll"  # typed in, not shuffled by the server
    game = svc.state("c").state["game"]
    assert game["leader"] == "ben" and game["hands"]["ana"] == deck[:13]


def test_a_typed_deal_short_of_a_card_is_refused_with_the_rule_and_kept_in_its_boxes(
    client, started, svc
):
    deck = svc.state("c").state["deck"]
    before = version(svc)
    hand = " ".join(deck[:12])  # a card short
    page = typed_deal(client, svc, {"ana": hand, "ben": " ".join(deck[13:26])}, " ".join(deck[26:]))
    assert page.status_code == 422
    assert "each player is dealt 13 cards (Ana was dealt 12)" in text(page)
    assert f">{hand}</textarea>" in page.get_data(as_text=True)  # kept: nobody types it again
    assert "<details open>" in page.get_data(as_text=True)
    assert version(svc) == before


def test_a_typed_deal_with_a_card_not_written_faction_value_shows_the_error_beside_it(
    client, started, svc
):
    deck = svc.state("c").state["deck"]
    before = version(svc)
    page = typed_deal(
        client,
        svc,
        {"ana": " ".join(["seven of knights", *deck[1:13]]), "ben": " ".join(deck[13:26])},
        " ".join(deck[26:]),
    )
    assert page.status_code == 422
    assert "a card is written faction-value, such as knights-7, not 'seven'" in text(page)
    assert version(svc) == before


def test_a_typed_deal_left_blank_is_refused_not_shuffled_by_the_server(client, started, svc):
    before = version(svc)
    page = typed_deal(client, svc, {"ana": "", "ben": ""}, "")
    assert page.status_code == 422
    assert "a deal gives one hand to each player" in text(page)
    assert version(svc) == before


# -- a seat at the table ------------------------------------------------------------------


def test_a_seat_shows_the_players_hand_and_only_counts_of_the_other_hand(client, dealt, svc):
    turn_up(svc)
    html = client.get("/c/c/table?player=ana").get_data(as_text=True)
    assert 'value="goblins-8"' in html and "the 8 of Goblins" in html
    assert "of Knights" not in html  # Ben's hand
    assert "13 in hand" in text(client.get("/c/c/table?player=ana"))
    ben = client.get("/c/c/table?player=ben").get_data(as_text=True)
    assert "the 8 of Goblins" not in ben and "the 9 of Knights" in ben


def test_a_seat_never_shows_a_follower_pile(client, dealt, svc):
    first_trick(svc)
    for who in ("ana", "ben", None):
        page = client.get("/c/c/table" + (f"?player={who}" if who else ""))
        assert "the 5 of Undead" not in page.get_data(as_text=True)  # Ana's unseen follower
        assert "1 follower" in text(page)


def test_a_seat_shows_both_score_piles_and_the_turned_up_card(client, dealt, svc):
    first_trick(svc)
    turn_up(svc)  # trick 2: undead-6
    play(svc, "ben", "undead-0")
    play(svc, "ana", "goblins-1")  # Ana holds no Undead; Ben wins, scores his undead-0
    turn_up(svc)  # trick 3: undead-8 (undead-7 went to Ana unseen)
    assert svc.state("c").state["game"]["scores"]["ben"] == ["undead-0"]
    page = client.get("/c/c/table?player=ana")
    html = page.get_data(as_text=True)
    assert "Ben's score pile: 1 card" in text(page) and "Ana's score pile: 0 cards" in text(page)
    assert "the 0 of Undead" in html and "the 8 of Undead (turned up)" in html
    assert "the 7 of Undead" not in html


def test_the_last_move_is_outlined_on_the_table(client, dealt, svc):
    turn_up(svc)
    play(svc, "ana", "goblins-3")
    html = client.get("/c/c/table?player=ben").get_data(as_text=True)
    assert re.search(r'<g class="card last"[^>]*>\s*<title>the 3 of Goblins \(led by Ana\)', html)


def test_an_onlooker_sees_no_hand(client, dealt, svc):
    turn_up(svc)
    html = client.get("/c/c/table").get_data(as_text=True)
    assert "of Goblins" not in html and "of Knights" not in html
    assert 'name="card"' not in html


def test_the_card_is_turned_up_from_the_table_form(client, dealt, svc):
    page = client.post("/c/c/table?player=ben", data=form("CardTurnedUp", version(svc), game="1"))
    assert page.status_code == 302 and page.location.endswith("/c/c/table?player=ben")
    assert svc.state("c").state["game"]["trick"]["turned_up"] == "undead-4"


def test_a_second_card_turned_up_for_a_trick_is_refused_with_the_rule(client, dealt, svc):
    turn_up(svc)
    page = client.post("/c/c/table", data=form("CardTurnedUp", version(svc), game="1"))
    assert page.status_code == 422
    assert "a card is already turned up for trick 1 (the 4 of Undead)" in text(page)


def test_the_player_to_lead_plays_a_card_from_its_seat(client, dealt, svc):
    turn_up(svc)
    page = play_at_seat(client, svc, "goblins-0")
    assert page.status_code == 302 and page.location.endswith("/c/c/table?player=ana")
    assert svc.state("c").state["game"]["trick"]["cards"] == [
        {"player": "ana", "card": "goblins-0"}
    ]
    flashed = text(client.get("/c/c/table?player=ana"))
    assert "Recorded: Ana led the 0 of Goblins in trick 1." in flashed


def test_the_follower_is_offered_only_the_cards_it_may_play(client, dealt, svc):
    turn_up(svc)
    play(svc, "ana", "goblins-0")
    html = client.get("/c/c/table?player=ben").get_data(as_text=True)
    assert "follow Goblins, or play one of your Doppelgangers" in html
    assert re.search(r'value="goblins-9"[^>]*title="play the 9 of Goblins">', html)
    assert re.search(r'value="knights-2"[^>]*title="[^"]*not allowed now" disabled>', html)


def test_only_the_player_whose_turn_it_is_gets_the_play_form(client, dealt, svc):
    turn_up(svc)
    ben = client.get("/c/c/table?player=ben")
    assert 'name="card"' not in ben.get_data(as_text=True)
    assert "Waiting for Ana to lead" in text(ben)


def test_a_card_the_player_does_not_hold_is_refused_with_the_rule(client, dealt, svc):
    turn_up(svc)
    before = version(svc)
    page = play_at_seat(client, svc, "knights-2")
    assert page.status_code == 422
    assert "Ana does not hold the 2 of Knights in hand" in text(page)
    assert version(svc) == before


def test_a_card_played_out_of_turn_is_refused_with_the_rule(client, dealt, svc):
    turn_up(svc)
    page = play_at_seat(client, svc, "knights-2", player="ben")
    assert page.status_code == 422
    assert "it is Ana's turn to lead trick 1, not Ben's" in text(page)


def test_a_wrong_follow_is_refused_with_the_rule(client, dealt, svc):
    turn_up(svc)
    play(svc, "ana", "goblins-0")
    page = play_at_seat(client, svc, "knights-2", player="ben")
    assert page.status_code == 422
    assert (
        "a player holding Goblins must follow Goblins or play a Doppelganger "
        "(Ben played the 2 of Knights on the 0 of Goblins)"
    ) in text(page)


def test_a_card_played_after_the_end_of_the_game_is_refused_with_the_rule(client, tavern, svc):
    page = client.post(
        f"/c/{tavern}/table?player=mara",
        data=form(
            "CardPlayed",
            version(svc, tavern),
            form_id="play",
            game="2",
            player="mara",
            card="goblins-0",
        ),
    )
    assert page.status_code == 422
    assert "game 2 is over after 26 tricks: deal game 3 before playing a card" in text(page)


def test_a_badly_written_card_shows_its_error_beside_the_cards(client, dealt, svc):
    turn_up(svc)
    page = play_at_seat(client, svc, "joker")
    assert page.status_code == 422
    html = page.get_data(as_text=True)
    assert re.search(
        r'</button>\s*<span class="field-error" role="alert"[^>]*>a card is written '
        r"faction-value, such as knights-7</span>",
        html,
    )


def test_forms_are_off_when_looking_at_the_past(client, dealt, svc):
    turn_up(svc)
    play(svc, "ana", "goblins-0")
    before_turn_up = client.get("/c/c/table?player=ana&at=2")
    assert "as it stood after event 2 of 4" in text(before_turn_up)
    assert re.search(
        r'<button type="submit" disabled>Turn up the top card',
        before_turn_up.get_data(as_text=True),
    )
    ana_to_lead = client.get("/c/c/table?player=ana&at=3").get_data(as_text=True)
    assert re.search(r'value="goblins-0"[^>]*title="play the 0 of Goblins" disabled>', ana_to_lead)
    assert not re.search(r'title="play [^"]*"\s*>', ana_to_lead)


def test_a_finished_game_at_the_table_tells_its_result_and_offers_the_next_deal(client, tavern):
    page = client.get(f"/c/{tavern}/table?player=mara")
    body = text(page)
    assert "Game 2 is over: Tobin wins (Mara 1, Tobin 4 factions)" in body
    assert 'name="game" value="3"' in page.get_data(as_text=True)


# -- a finished game, and its replay ------------------------------------------------------


def test_the_game_page_shows_the_factions_table_and_the_winner(client, tavern, svc):
    page = client.get(f"/c/{tavern}/game?game=1")
    body = text(page)
    assert "Mara wins game 1 : Mara won 3 factions, Tobin won 2 factions" in body
    end = svc.state(tavern, svc.state(tavern).state["games"][0]["last_version"]).state
    for faction in end["factions"]:
        result = end["game"]["result"]["factions"][faction["id"]]
        mara, tobin = result["counts"]["mara"], result["counts"]["tobin"]
        hm, ht = result["highest"]["mara"], result["highest"]["tobin"]
        winner = {"mara": "Mara", "tobin": "Tobin", None: "nobody"}[result["winner"]]
        assert f"{faction['name']} {mara} {hm} {tobin} {ht} {winner}" in body
    assert "Factions won 3 2 Mara" in body


def test_the_game_page_lists_every_trick_with_links_to_its_replay(client, tavern):
    html = client.get(f"/c/{tavern}/game?game=2").get_data(as_text=True)
    assert html.count(f"/c/{tavern}/replay?game=2&amp;trick=") == 26


def test_a_game_under_way_points_to_the_table(client, dealt):
    body = text(client.get("/c/c/game?game=1"))
    assert "Game 1 is being played: trick 1 of 26" in body


def test_the_replay_steps_through_a_game_trick_by_trick(client, tavern):
    page = client.get(f"/c/{tavern}/replay?game=1&trick=5")
    html, body = page.get_data(as_text=True), text(page)
    assert "Replay of game 1: trick 5" in body and "Mara wins trick 5" in body
    assert f'rel="prev" href="/c/{tavern}/replay?game=1&amp;trick=4"' in html
    assert f'rel="next" href="/c/{tavern}/replay?game=1&amp;trick=6"' in html
    first = client.get(f"/c/{tavern}/replay?game=1")
    assert "Replay of game 1: trick 1" in text(first)
    deal = client.get(f"/c/{tavern}/replay?game=1&trick=0")
    assert "Replay of game 1: the deal" in text(deal) and 'rel="prev"' not in text(deal)
    last = client.get(f"/c/{tavern}/replay?game=1&trick=26").get_data(as_text=True)
    assert 'rel="next"' not in last and f"/c/{tavern}/game?game=1" in last


def test_each_replay_step_is_the_game_as_it_stood_after_its_trick(client, tavern, svc):
    page = client.get(f"/c/{tavern}/replay?game=1&trick=5")
    version_5 = int(re.search(r"as it stood after event (\d+)", text(page)).group(1))
    then = svc.state(tavern, version_5).state["game"]
    assert len(then["tricks"]) == 5
    assert svc.state(tavern, version_5 - 1).state["game"]["tricks"].__len__() == 4
    for player, name in (("mara", "Mara"), ("tobin", "Tobin")):
        count = len(then["scores"][player])
        assert f"{name}'s score pile: {count} card" in text(page)
    trick = then["tricks"][-1]
    assert trick["moves"][-1]["blind"] and "(the next card of the deck, unseen)" in text(page)


def test_the_replay_of_the_deal_shows_both_hands_of_the_finished_game(client, tavern, svc):
    deal = svc.store.event(tavern, 2).data["deal"]
    html = client.get(f"/c/{tavern}/replay?game=1&trick=0").get_data(as_text=True)
    for card in deal["hands"]["mara"] + deal["hands"]["tobin"]:
        faction, _, value = card.rpartition("-")
        assert f"the {value} of {faction.capitalize()}" in html


def test_the_replay_links_each_step_to_the_table_as_it_stood(client, tavern):
    html = client.get(f"/c/{tavern}/replay?game=1&trick=5").get_data(as_text=True)
    step = re.search(r"table\?player=mara&amp;at=(\d+)", html)
    assert step
    past = client.get(f"/c/{tavern}/table?player=mara&at={step.group(1)}")
    assert past.status_code == 200 and "Trick 6 of 26" in text(past)


# -- shared pages -------------------------------------------------------------------------


def test_the_audit_log_tells_every_claim_event_in_words(client, tavern, svc):
    from tracker.web.rendering import AUDIT_PAGE

    latest = svc.store.version(tavern)
    body = " ".join(  # every page of the log
        text(client.get(f"/c/{tavern}/audit?upto={upto}"))
        for upto in range(AUDIT_PAGE, latest + AUDIT_PAGE, AUDIT_PAGE)
    )
    assert "Game 1 was dealt, 13 cards each; Mara leads the first trick" in body
    assert "was turned up for trick 1" in body


def test_a_voided_card_is_back_in_the_hand_at_the_table(client, dealt, svc):
    first_trick(svc)
    turn_up(svc)
    play(svc, "ben", "knights-2")
    svc.append(
        "c",
        [{"type": "EventVoided", "data": {"version": version(svc), "reason": "misplayed"}}],
        version(svc),
    )
    assert svc.state("c").state["game"]["trick"]["cards"] == []
    page = client.get("/c/c/table?player=ben")
    assert 'value="knights-2"' in page.get_data(as_text=True)


def test_the_audit_log_hides_a_deal_in_progress_from_the_players(client, svc, app):
    from pagetools import text as page_text

    from tracker.accounts import Accounts
    from tracker.store import open_store

    svc.start(
        "hid",
        "claim",
        "Hidden",
        {"players": [{"id": "mara", "name": "Mara"}, {"id": "tobin", "name": "Tobin"}]},
    )
    svc.append("hid", [{"type": "GameDealt", "data": {"game": 1}}], 1)
    deal = svc.store.event("hid", 2).data["deal"]
    secret = deal["hands"]["tobin"][0]
    store = open_store(app.config["DATABASE"])
    accounts = Accounts(store)
    mara = accounts.sign_up("mara", "a long password!")
    accounts.add_member("hid", mara, "player", "mara")
    player = app.test_client()
    player.post("/login", data={"name": "mara", "password": "a long password!"})
    shown = page_text(player.get("/c/hid/audit"))
    assert "13 cards, hidden" in shown and "26 cards, hidden" in shown
    assert deal["hands"]["mara"][0] in shown
    organiser_view = page_text(client.get("/c/hid/audit"))
    assert "cards, hidden" not in organiser_view and secret in organiser_view


def test_a_player_may_sit_only_at_its_own_seat(svc, app):
    from tracker.accounts import Accounts
    from tracker.store import open_store

    svc.start(
        "seats",
        "claim",
        "Seats",
        {"players": [{"id": "mara", "name": "Mara"}, {"id": "tobin", "name": "Tobin"}]},
    )
    svc.append("seats", [{"type": "GameDealt", "data": {"game": 1}}], 1)
    accounts = Accounts(open_store(app.config["DATABASE"]))
    accounts.add_member("seats", accounts.sign_up("mara", "a long password!"), "player", "mara")
    client = app.test_client()
    client.post("/login", data={"name": "mara", "password": "a long password!"})
    assert client.get("/c/seats/table?player=mara").status_code == 200
    refused = client.get("/c/seats/table?player=tobin")
    assert refused.status_code == 403 and b"hidden from you" in refused.data
    assert b"table?player=tobin" not in client.get("/c/seats/").data


# -- the replay's closing sentence --------------------------------------------------------


def _closing(page) -> str:
    html = page.get_data(as_text=True)
    found = re.search(r'<p class="muted" id="replay-closing">(.*?)</p>', html, re.S)
    assert found, "the replay closes with a sentence"
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split())


def test_the_replays_closing_sentence_names_the_seats_the_reader_may_open(client, tavern):
    closing = _closing(client.get(f"/c/{tavern}/replay?game=1&trick=3"))
    assert closing.endswith("See it at the table then: Mara's seat · Tobin's seat.")


def test_the_replays_closing_sentence_is_never_empty_for_a_reader_with_no_seat(svc, app, tavern):
    from tracker.accounts import Accounts
    from tracker.store import open_store

    accounts = Accounts(open_store(app.config["DATABASE"]))
    accounts.add_member(tavern, accounts.sign_up("wren", "a long password!"), "player")
    reader = app.test_client()
    reader.post("/login", data={"name": "wren", "password": "a long password!"})
    page = reader.get(f"/c/{tavern}/replay?game=1&trick=3")
    assert page.status_code == 200
    closing = _closing(page)
    assert "See it at the table then" not in closing and ": ." not in closing
    assert closing.endswith(
        "Each seat's view of that moment is open only to its own player and to the organiser."
    )


# -- each player sees the forms of its own seat -------------------------------------------------


def test_only_the_player_to_lead_is_offered_its_cards_and_the_other_waits(app, client, svc, dealt):
    ana, ben = member(app, "c", "anabel", "ana"), member(app, "c", "benno", "ben")
    assert {t for t, _ in posts(ben.get("/c/c/table?player=ben"))} == {"CardTurnedUp"}
    post_form(ben, "/c/c/table?player=ben", svc, "CardTurnedUp", game="1")
    assert ("CardPlayed", "ana") in posts(ana.get("/c/c/table?player=ana"))
    waiting = ben.get("/c/c/table?player=ben")
    assert posts(waiting) == set() and "Waiting for Ana to lead." in text(waiting)
    assert ("CardPlayed", "ana") in posts(client.get("/c/c/table?player=ana"))
    # Ben's seat is played: the organiser may not sit there too, and stays the referee.
    assert client.post("/c/c/members", data={"action": "seat", "side": "ben"}).status_code == 409
    assert client.get("/c/c/table?player=ana").status_code == 200
    refused = post_form(
        ben, "/c/c/table?player=ben", svc, "CardPlayed", game="1", player="ana", card="goblins-0"
    )
    assert refused.status_code == 403


def test_a_reader_who_is_no_member_is_shown_no_form(app, anon, svc, dealt):
    from tracker.accounts import Accounts
    from tracker.store import open_store

    Accounts(open_store(app.config["DATABASE"])).set_public("c", True)
    for page in ("/c/c/", "/c/c/table", "/c/c/games"):
        assert posts(anon.get(page)) == set(), page
    assert "A player turns up the top card" in text(anon.get("/c/c/table"))


def test_a_deal_is_offered_to_the_players_and_not_to_a_reader_who_is_no_member(
    app, anon, svc, started
):
    from tracker.accounts import Accounts
    from tracker.store import open_store

    Accounts(open_store(app.config["DATABASE"])).set_public("c", True)
    assert posts(anon.get("/c/c/")) == set()
    assert "A player of the campaign deals game 1 here." in text(anon.get("/c/c/"))
    ben = member(app, "c", "benno", "ben")
    assert {t for t, _ in posts(ben.get("/c/c/"))} == {"GameDealt"}


# -- defaults are legal choices ----------------------------------------------------------------


def test_every_form_left_at_its_defaults_is_accepted_from_the_deal_to_a_play(client, svc, started):
    assert defaults_refused(client, svc, "c", "/c/c/") == []  # the deal
    svc.append("c", [{"type": "GameDealt", "data": {"game": 1, "leader": "ana"}}], version(svc))
    assert defaults_refused(client, svc, "c", "/c/c/table?player=ana") == []  # the turn-up
    svc.append("c", [{"type": "CardTurnedUp", "data": {"game": 1}}], version(svc))
    assert defaults_refused(client, svc, "c", "/c/c/table?player=ana") == []  # a card led
