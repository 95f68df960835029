"""Dice typed at the table: each die by its face, never a bare number read as dice, and an
entry that loses a fighter or a figure for good asked once before it is recorded."""

import re

import pytest
from pagetools import event_forms, form, post_form, text, version
from werkzeug.datastructures import MultiDict

from tracker import systems
from tracker.config import SAMPLES
from tracker.web.forms import dice_problems, form_data

WIZARD = "/c/c/wizard?warband=crow"


def battle_fought(client, svc, down=("crow-1", "crow-2")):
    """Ironjaws beat Crowmarch; `down` owe an injury roll once step 1 is done."""
    data = form(
        "BattleFought",
        version(svc),
        battle="b1",
        winner="iron",
        **{
            "sides-0-warband": "iron",
            "sides-0-fighters": [f"iron-{i}" for i in range(4)],
            "sides-0-taken_down-present": "1",
            "sides-1-warband": "crow",
            "sides-1-fighters": [f"crow-{i}" for i in range(4)],
            "sides-1-taken_down": list(down),
            "sides-1-taken_down-present": "1",
            "convergence-present": "1",
        },
    )
    assert client.post("/c/c/battle-new", data=data).status_code == 302
    post_form(client, WIZARD, svc, "AftermathStepCompleted", warband="crow", step="1")


def injury(client, svc, fighter="crow-1", **dice):
    return post_form(
        client,
        WIZARD,
        svc,
        "InjuryRolled",
        warband="crow",
        fighter=fighter,
        form_id=f"InjuryRolled-{fighter}",
        **{"dice-mode": "table", **dice},
    )


def recorded_dice(svc, campaign="c"):
    return svc.store.event(campaign, version(svc, campaign)).data


# -- what forms.py reads --------------------------------------------------------------------


def test_each_dies_box_is_read_as_a_list_of_dice():
    schema = systems.get("warcry").schema("InjuryRolled")
    data = form_data(schema, MultiDict({"fighter": "f", "dice-0": "6", "dice-1": "5"}))
    assert data["dice"] == [6, 5]
    assert dice_problems(schema, MultiDict({"dice-0": "6", "dice-1": "5"})) == {}


@pytest.mark.parametrize("bare", ["12", "11", "66", "34"])
def test_a_bare_number_for_two_dice_is_refused_in_words_that_say_how_to_type_them(bare):
    schema = systems.get("warcry").schema("InjuryRolled")
    problems = dice_problems(schema, MultiDict({"dice": bare}))
    assert problems["dice"] == [
        f"“{bare}” could be a total or 2 dice: nothing is recorded. "
        "Choose each die's face, or type each die: 6 6."
    ]
    # and read on its own it is never two dice
    assert form_data(schema, MultiDict({"dice": bare}))["dice"] == [int(bare)]


def test_dice_typed_with_a_separator_are_each_die():
    schema = systems.get("warcry").schema("InjuryRolled")
    assert dice_problems(schema, MultiDict({"dice": "6 6"})) == {}
    assert form_data(schema, MultiDict({"dice": "6 6"}))["dice"] == [6, 6]


def test_a_d66_is_read_as_its_tens_die_and_its_units_die():
    schema = systems.get("warcry").schema("SearchRolled")
    assert form_data(schema, MultiDict({"dice-0": "2", "dice-1": "4"}))["dice"] == [2, 4]
    words = dice_problems(schema, MultiDict({"dice": "24"}))["dice"][0]
    assert "type each die: the tens die, then the units die: 2 4" in words
    words = dice_problems(schema, MultiDict({"dice-0": "2", "dice-1": ""}))["dice"][0]
    assert words == "Choose the face of every die: the units die is not chosen."


def test_attack_dice_are_read_die_by_die_into_rounds():
    schema = systems.get("monsters").schema("AttackMade")
    boxes = {
        "rounds-0-attacker-0": "1",
        "rounds-0-defender-0": "6",
        "rounds-0-defender-1": "3",
        "rounds-0-attacker-1": "",  # a second die left blank is no die
        "rounds-1-attacker-0": "4",
        "rounds-1-defender-0": "5",
        "rounds-2-attacker-0": "",  # a round left blank is no round
    }
    assert form_data(schema, MultiDict(boxes))["rounds"] == [
        {"attacker": [1], "defender": [6, 3]},
        {"attacker": [4], "defender": [5]},
    ]


# -- a Warcry injury roll through its page -------------------------------------------------


def test_the_wizard_offers_each_die_as_six_faces_and_no_box_to_type_a_number_in(client, two, svc):
    battle_fought(client, svc, down=("crow-1",))  # one roll owed: its own form
    html = client.get(WIZARD).get_data(as_text=True)
    for die in ("first die", "second die"):
        faces = re.findall(rf'type="radio" name="dice-\d" value="(\d)" aria-label="{die}: ', html)
        assert faces[:6] == ["1", "2", "3", "4", "5", "6"]
    assert not re.search(r'<input name="dice"', html)


@pytest.mark.parametrize("bare", ["12", "11"])
def test_a_bare_12_or_11_on_an_injury_roll_is_refused_and_nothing_recorded(client, two, svc, bare):
    battle_fought(client, svc, down=("crow-1",))  # one roll owed: its own form
    before = version(svc)
    page = injury(client, svc, dice=bare)
    assert page.status_code == 422 and version(svc) == before
    assert "type each die: 6 6" in text(page)
    html = page.get_data(as_text=True)
    beside = re.search(
        r'id="dice-InjuryRolled-crow-1-dice">(?:(?!</form>).)*?<span class="field-error"[^>]*>'
        r"“" + bare,
        html,
        re.S,
    )
    assert beside, "the words stand beside the dice of the form that sent them"


def test_tapping_six_and_six_records_six_and_six(client, two, svc):
    battle_fought(client, svc)
    page = injury(client, svc, **{"dice-0": "6", "dice-1": "6"})
    assert page.status_code == 302
    assert recorded_dice(svc)["dice"] == [6, 6]
    assert svc.store.event("c", version(svc)).meta["source"] == "table-roll"


def test_a_slain_fighter_is_asked_about_once_and_recorded_once_confirmed(client, two, svc):
    battle_fought(client, svc)
    before = version(svc)
    page = injury(client, svc, **{"dice-0": "1", "dice-1": "1"})
    assert page.status_code == 200 and version(svc) == before
    assert "Record this?" in text(page) and "slain" in text(page)
    (confirm,) = event_forms(page)
    assert confirm["dice-0"] == "1" and confirm["dice-1"] == "1"
    confirm["dice-mode"] = "table"
    assert client.post(WIZARD, data=confirm).status_code == 302
    assert version(svc) == before + 1 and recorded_dice(svc)["dice"] == [1, 1]
    assert "crow-1" in svc.state("c").state["warbands"]["crow"]["lost"]
    assert "slain" in text(client.get(WIZARD))  # "Recorded: ..." at the top
    # the same confirmation sent again (a double tap) records nothing more
    client.post(WIZARD, data=confirm)
    assert version(svc) == before + 1


def test_going_back_from_the_confirmation_keeps_the_dice_and_records_nothing(client, two, svc):
    battle_fought(client, svc, down=("crow-1",))  # one roll owed: its own form
    before = version(svc)
    (confirm,) = event_forms(injury(client, svc, **{"dice-0": "1", "dice-1": "2"}))
    page = client.post(WIZARD, data={**confirm, "back": "1"})
    assert page.status_code == 200 and version(svc) == before
    html = page.get_data(as_text=True)
    assert 'name="dice-0" value="1" aria-label="first die: 1" checked' in html
    assert 'name="dice-1" value="2" aria-label="second die: 2" checked' in html


def test_a_roll_that_kills_nobody_is_recorded_at_once(client, two, svc):
    battle_fought(client, svc)
    assert injury(client, svc, **{"dice-0": "2", "dice-1": "3"}).status_code == 302


def test_the_servers_roll_is_not_asked_about_and_its_outcome_is_shown(client, two, svc):
    battle_fought(client, svc)
    page = post_form(
        client,
        WIZARD,
        svc,
        "InjuryRolled",
        warband="crow",
        fighter="crow-1",
        **{"dice-mode": "server"},
    )
    assert page.status_code == 302
    words = svc.recent("c", 1, version(svc))[0].words
    assert f"Recorded: {words}." in text(client.get(WIZARD))


def test_a_whole_step_that_slays_a_fighter_asks_first(client, two, svc):
    battle_fought(client, svc)
    before = version(svc)
    data = {"expected_version": str(before), "form_id": "all-InjuryRolled", "dice-mode": "table"}
    for i, (fid, dice) in enumerate((("crow-1", "1 1"), ("crow-2", "3 4"))):
        data.update({f"e-{i}-type": "InjuryRolled", f"e-{i}-warband": "crow"})
        data[f"e-{i}-fighter"] = fid
        data.update({f"e-{i}-dice-{j}": face for j, face in enumerate(dice.split())})
    url = "/c/c/step/wizard?warband=crow"
    page = client.post(url, data=data)
    assert page.status_code == 200 and version(svc) == before and "slain" in text(page)
    confirm = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page.text))
    assert client.post(url, data={**confirm, "dice-mode": "table"}).status_code == 302
    assert version(svc) == before + 2


def test_a_bare_number_in_a_whole_step_is_refused_beside_its_row(client, two, svc):
    battle_fought(client, svc)
    before = version(svc)
    data = {"expected_version": str(before), "form_id": "all-InjuryRolled", "dice-mode": "table"}
    for i, fid in enumerate(("crow-1", "crow-2")):
        data.update({f"e-{i}-type": "InjuryRolled", f"e-{i}-warband": "crow"})
        data.update({f"e-{i}-fighter": fid, f"e-{i}-dice": "12"})
    page = client.post("/c/c/step/wizard?warband=crow", data=data)
    assert page.status_code == 422 and version(svc) == before
    assert "type each die: 6 6" in text(page)


def test_a_search_is_entered_by_its_tens_die_and_units_die(client, two, svc):
    battle_fought(client, svc, down=())
    for fid in ("crow-0", "crow-1", "crow-2", "crow-3"):
        post_form(
            client,
            WIZARD,
            svc,
            "DestinyRolled",
            warband="crow",
            fighter=fid,
            **{"dice-0": "1", "dice-mode": "table"},
        )
    post_form(client, WIZARD, svc, "AftermathStepCompleted", warband="crow", step="4")
    body = text(client.get(WIZARD))
    assert "Tens die" in body and "Units die" in body
    page = post_form(
        client,
        WIZARD,
        svc,
        "SearchRolled",
        warband="crow",
        **{"dice-0": "2", "dice-1": "4", "dice-mode": "table"},
    )
    assert page.status_code == 302 and recorded_dice(svc)["dice"] == [2, 4]


# -- monster battles ------------------------------------------------------------------------

FEUD = "twin-peaks-feud"


def test_an_attack_that_kills_a_figure_is_asked_about_first_by_its_dice(client, svc):
    lines = (SAMPLES / "monsters-twin-peaks-feud.jsonl").read_text(encoding="utf-8")
    svc.import_lines(lines.splitlines()[:17])  # Bob's Pigeon is next to Alice's Cat
    before = version(svc, FEUD)
    boxes = {
        "rounds-0-attacker-0": "6",
        "rounds-0-attacker-1": "6",
        "rounds-0-defender-0": "6",
        "rounds-0-defender-1": "2",
    }
    page = client.post(
        f"/c/{FEUD}/battle",
        data=form(
            "AttackMade",
            before,
            battle="b1",
            attacker="bob-pigeon",
            defender="alice-cat",
            form_id="attack-alice-cat",
            **boxes,
            **{"dice-mode": "table"},
        ),
    )
    assert page.status_code == 200 and version(svc, FEUD) == before
    assert "the Cat was killed" in text(page)
    (confirm,) = event_forms(page)
    confirm["dice-mode"] = "table"
    assert client.post(f"/c/{FEUD}/battle", data=confirm).status_code == 302
    assert recorded_dice(svc, FEUD)["rounds"] == [{"attacker": [6, 6], "defender": [6, 2]}]
