"""The expert mode: no deck, exiles, any available character recruited."""

from __future__ import annotations

from leaders_table import ALICE, BOB, QUEEN, REGENT, Table


def expert(first: str = ALICE) -> Table:
    return Table().start(mode="expert", first=first)


def test_the_expert_mode_has_no_deck():
    table = Table()
    table.do("MatchStarted", match="m1", mode="expert")
    table.do("LeaderChosen", player=ALICE, leader=QUEEN)
    table.do("LeaderChosen", player=BOB, leader=REGENT)
    table.refuses("DeckShuffled", "the expert mode has no deck", deck=[])
    assert len(table.match["available"]) == 16


def test_in_expert_mode_each_player_exiles_one_character_before_the_first_turn_first_player_first():
    table = expert(first=BOB)
    assert table.match["phase"] == "exile"
    table.refuses(
        "CharacterExiled", "it is Bob's turn to exile, not Alice's", player=ALICE, card="rider"
    )
    table.refuses(
        "CharacterMoved",
        "the match waits for Bob to exile a character first",
        player=BOB,
        character=REGENT,
        path=[[0, -2]],
    )
    table.do("CharacterExiled", player=BOB, card="assassin")
    table.refuses(
        "CharacterExiled",
        "cannot exile 'assassin': it is already exiled",
        player=ALICE,
        card="assassin",
    )
    table.do("CharacterExiled", player=ALICE, card="nemesis")
    assert (table.match["phase"], table.match["active"], table.match["turn"]) == (
        "action",
        BOB,
        1,
    )
    assert table.match["exiled"] == ["assassin", "nemesis"]


def test_exiles_belong_to_the_expert_mode_only():
    table = Table().start()
    table.refuses(
        "CharacterExiled",
        "characters are exiled only in the expert mode",
        player=ALICE,
        card="rider",
    )


def test_in_expert_mode_a_player_recruits_any_available_character():
    table = expert()
    table.do("CharacterExiled", player=ALICE, card="assassin")
    table.do("CharacterExiled", player=BOB, card="jailer")
    table.do("ActionPhaseEnded", player=ALICE)
    table.refuses(
        "CharacterRecruited",
        "Alice cannot recruit 'assassin': it is not available",
        player=ALICE,
        card="assassin",
        spaces=[[1, 2]],
    )
    table.recruit(ALICE, "vizier", (1, 2))
    assert "vizier" not in table.match["available"]


def test_in_expert_mode_a_second_exile_comes_when_both_players_hold_three_characters():
    table = expert()
    table.do("CharacterExiled", player=ALICE, card="assassin")
    table.do("CharacterExiled", player=BOB, card="jailer")
    table.do("ActionPhaseEnded", player=ALICE)
    table.recruit(ALICE, "vizier", (1, 2))
    table.do("TurnEnded", player=ALICE)
    table.do("ActionPhaseEnded", player=BOB)
    table.recruit(BOB, "rider", (1, -3))
    table.recruit(BOB, "claw", (2, -3))
    assert table.match["exile"] is None  # Alice holds two cards
    table.do("TurnEnded", player=BOB)
    table.do("ActionPhaseEnded", player=ALICE)
    table.recruit(ALICE, "archer", (2, 1))
    assert table.match["phase"] == "exile" and table.match["exile"]["round"] == 2
    table.refuses("TurnEnded", "the match waits for Alice to exile a character first", player=ALICE)
    table.do("CharacterExiled", player=ALICE, card="nemesis")
    table.do("CharacterExiled", player=BOB, card="protector")
    assert table.match["phase"] == "recruitment"
    table.do("TurnEnded", player=ALICE)
    assert table.match["active"] == BOB
    assert table.match["exiled"] == ["assassin", "jailer", "nemesis", "protector"]


def test_an_expert_exile_outside_its_two_moments_is_refused():
    table = expert()
    table.do("CharacterExiled", player=ALICE, card="assassin")
    table.do("CharacterExiled", player=BOB, card="jailer")
    table.refuses(
        "CharacterExiled",
        "exiles happen before the first turn and when both players reach three characters",
        player=ALICE,
        card="rider",
    )
