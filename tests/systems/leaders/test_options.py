"""The choices the pages offer: every one accepted by the fold, none that it refuses."""

from __future__ import annotations

import json

from leaders_table import ALICE, BOB, QUEEN, Table, arranged

from tracker.systems.leaders import views


def spaces(found) -> set:
    return {tuple(o["data"]["path"][-1]) for o in found if o["type"] == "CharacterMoved"}


def test_a_leader_on_its_corner_is_offered_its_three_adjacent_free_spaces():
    table = Table().start()
    offered = views.action_options(table.state, ALICE)
    assert spaces(offered[QUEEN]) == {(0, 2), (1, 2), (-1, 3)}
    assert all(len(o["data"]["path"]) == 1 for o in offered[QUEEN])


def test_every_offered_action_is_accepted_by_the_fold_and_trying_them_changes_nothing():
    table = arranged(
        {
            "acrobat": (ALICE, (0, 1)),
            "wanderer": (ALICE, (-2, 2)),
            "rider": (BOB, (0, 0)),
            "claw": (ALICE, (2, -2)),
        }
    )
    before = json.dumps(table.state, sort_keys=True)
    offered = views.action_options(table.state, ALICE)
    assert json.dumps(table.state, sort_keys=True) == before
    assert {"acrobat", "wanderer", "claw", QUEEN} <= set(offered)
    for found in offered.values():
        for option in found:
            Table(json.loads(before)).do(option["type"], **option["data"])


def test_the_acrobat_is_offered_its_jump_over_an_adjacent_character():
    table = arranged({"acrobat": (ALICE, (0, 1)), "rider": (BOB, (0, 0))})
    jumps = [
        o for o in views.action_options(table.state, ALICE)["acrobat"] if o["type"] == "AbilityUsed"
    ]
    assert [[0, -1]] in [o["data"]["path"] for o in jumps]


def test_a_leader_with_a_vizier_is_offered_moves_of_two_spaces():
    table = arranged({"vizier": (ALICE, (-2, 3))})
    paths = [o["data"]["path"] for o in views.action_options(table.state, ALICE)[QUEEN]]
    assert any(len(p) == 2 for p in paths) and any(len(p) == 1 for p in paths)


def test_nothing_is_offered_to_the_player_whose_turn_it_is_not():
    table = Table().start()
    assert views.action_options(table.state, BOB) == {}
    assert views.recruit_options(table.state, BOB) == {}


def test_the_nemesis_is_offered_only_paths_of_the_steps_it_owes():
    table = arranged({"nemesis": (BOB, (0, 0)), "rider": (ALICE, (-2, 0))})
    table.move(ALICE, QUEEN, (0, 2))
    offered = views.nemesis_options(table.state)
    assert offered and all(len(o["data"]["path"]) == 2 for o in offered)
    assert all(o["data"]["player"] == BOB for o in offered)
    assert all(tuple(o["data"]["path"][-1]) != (0, 0) for o in offered)
    assert views.action_options(table.state, ALICE) == {}


def test_hermit_and_cub_are_offered_in_both_orders_of_two_free_spaces():
    deck = ["hermit-and-cub", "acrobat", "rider"]
    cards = [c["id"] for c in Table().state["characters"]["cards"]]
    table = Table().start(deck=deck + [c for c in cards if c not in deck])
    table.do("ActionPhaseEnded", player=ALICE)
    offered = views.recruit_options(table.state, ALICE)
    pairs = [tuple(map(tuple, o["data"]["spaces"])) for o in offered["hermit-and-cub"]]
    assert len(pairs) == 12 and ((-1, 3), (1, 2)) in pairs and ((1, 2), (-1, 3)) in pairs
    assert all(len(o["data"]["spaces"]) == 1 for o in offered["acrobat"])


def test_the_turn_may_end_only_once_no_recruitment_is_left():
    table = Table().start()
    assert not views.may_end_turn(table.state, ALICE)  # still in the action phase
    table.do("ActionPhaseEnded", player=ALICE)
    assert not views.may_end_turn(table.state, ALICE)  # a recruitment is due
    table.recruit(ALICE, "acrobat", (-1, 3))
    assert views.may_end_turn(table.state, ALICE)


def test_leaders_still_free_and_the_exile_due_are_offered():
    table = Table()
    table.do("MatchStarted", match="m1", mode="expert")
    table.do("LeaderChosen", player=ALICE, leader=QUEEN)
    free = views.leader_options(table.state)
    assert list(free) == [BOB] and QUEEN not in [f["id"] for f in free[BOB]]
    table.do("LeaderChosen", player=BOB, leader="grey-regent")
    table.do("FirstPlayerDrawn", first=BOB)
    player, cards = views.exile_options(table.state)
    assert player == BOB and len(cards) == 16
