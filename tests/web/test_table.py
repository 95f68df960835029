"""A group at one table on its phones: a player undoes its own slip or corrects a fighter,
rolls a whole step's dice at one press, is offered defaults the rules accept, keeps what it
typed when it is refused, is asked before anything is destroyed, reads each error once and in
its own words, and sees only the forms it may use."""

import copy
import html as markup
import re

import pytest
from pagetools import form, text, version
from warbands import two_warbands

from tracker.permissions import UNDONE
from tracker.systems.warcry import system

PASSWORD = "a long password!"


def log_in(client, name, password):
    page = client.post("/login", data={"name": name, "password": password})
    assert page.status_code == 302, page.get_data(as_text=True)
    return client


@pytest.fixture
def ana(app, accounts, two):
    """A client logged in as Ana, who plays Ironjaws."""
    accounts.add_member(two, accounts.sign_up("ana", PASSWORD), "player", "iron")
    return log_in(app.test_client(), "ana", PASSWORD)


@pytest.fixture
def ben(app, accounts, two):
    """A client logged in as Ben, who plays Crowmarch."""
    accounts.add_member(two, accounts.sign_up("ben", PASSWORD), "player", "crow")
    return log_in(app.test_client(), "ben", PASSWORD)


def add_fighter(client, svc, fid="new", name="Newcomer", points="90"):
    return client.post(
        "/c/c/warband?warband=iron",
        data=form(
            "FighterAdded",
            version(svc),
            warband="iron",
            fighter=fid,
            name=name,
            points=points,
            **{"runemarks-text": "ember", "leader-present": "1"},
        ),
    )


def undo(client, svc, target, page="warband?warband=iron"):
    path, _, query = page.partition("?")
    url = f"/c/c/undo/{path}" + (f"?{query}" if query else "")
    return client.post(url, data={"expected_version": str(version(svc)), "version": str(target)})


def battle(svc, down=("crow-1", "crow-2")):
    svc.append(
        "c",
        [
            {
                "type": "BattleFought",
                "data": {
                    "battle": "b1",
                    "winner": "iron",
                    "sides": [
                        {"warband": "iron", "fighters": [f"iron-{i}" for i in range(4)]},
                        {
                            "warband": "crow",
                            "fighters": [f"crow-{i}" for i in range(4)],
                            "taken_down": list(down),
                        },
                    ],
                },
            },
            {"type": "AftermathStepCompleted", "data": {"warband": "crow", "step": 1}},
        ],
        version(svc),
    )


def errors_of(page) -> list[str]:
    """The words of every error the page shows, wherever it shows them."""
    html = page.get_data(as_text=True)
    return [
        markup.unescape(words)
        for words in re.findall(r'class="(?:error|field-error)"[^>]*>([^<]+)<', html)
    ]


# -- undo one's own latest entry ------------------------------------------------------------


def test_a_player_undoes_its_own_latest_entry_as_a_void_undone_by_its_author(ana, svc):
    assert add_fighter(ana, svc).status_code == 302
    added = version(svc)
    page = ana.get("/c/c/warband?warband=iron")
    assert "Your latest entry: Newcomer joined Ironjaws" in text(page)
    assert 'data-confirm="Undo your latest entry' in page.get_data(as_text=True)
    done = undo(ana, svc, added)
    assert done.status_code == 302
    void = svc.store.event("c", version(svc))
    assert void.type == "EventVoided" and void.data == {"version": added, "reason": UNDONE}
    assert void.meta["actor"] == "ana"
    assert "new" not in svc.state("c").state["warbands"]["iron"]["fighters"]
    audit = text(ana.get("/c/c/audit"))
    assert f"Event {added} was voided: undone by its author" in audit
    assert f"voided by event {version(svc)}" in audit


def test_an_undo_that_a_later_entry_depends_on_is_refused_in_words(ana, svc):
    add_fighter(ana, svc)
    added = version(svc)
    svc.append(
        "c", [{"type": "FighterRemoved", "data": {"warband": "iron", "fighter": "new"}}], added
    )
    before = version(svc)
    page = undo(ana, svc, added)
    assert page.status_code == 422 and version(svc) == before
    words = errors_of(page)
    assert words == [
        "“Newcomer joined Ironjaws (90 points)” cannot be undone: “Newcomer left Ironjaws”, "
        "recorded after it by anonymous, depends on it (without it, Ironjaws has no fighter 'new')"
    ]
    assert "FighterAdded" not in words[0] and "FighterRemoved" not in words[0]


def test_a_void_refused_for_a_later_entry_names_that_entry_and_its_reason(ana, svc):
    from tracker.errors import BatchError

    add_fighter(ana, svc)
    added = version(svc)
    svc.append(
        "c", [{"type": "FighterRemoved", "data": {"warband": "iron", "fighter": "new"}}], added
    )
    void = {"type": "EventVoided", "data": {"version": added, "reason": "typo"}}
    with pytest.raises(BatchError) as caught:
        svc.append("c", [void], version(svc))
    refused = caught.value.error
    assert refused.depends_on == added + 1
    assert refused.reason == "Ironjaws has no fighter 'new'"


def test_a_player_cannot_undo_an_entry_for_another_side(ana, ben, svc):
    add_fighter(ana, svc)
    before = version(svc)
    assert "Your latest entry" not in text(ben.get("/c/c/warband?warband=iron"))
    page = undo(ben, svc, before, page="warband?warband=crow")
    assert page.status_code == 403 and version(svc) == before
    assert "undoes only its own latest entry for its own side" in text(page)


def test_a_player_cannot_void_any_other_event_through_the_audit_log(ana, svc):
    add_fighter(ana, svc)
    before = version(svc)
    page = ana.post(
        "/c/c/audit", data={"expected_version": str(before), "version": "3", "reason": "oops"}
    )
    assert page.status_code == 403 and version(svc) == before
    assert "only the organiser may void an event" in text(page)


# -- correcting a fighter ---------------------------------------------------------------------


def correct(client, svc, **fields):
    return client.post(
        "/c/c/warband?warband=iron&correct=iron-1",
        data=form("FighterCorrected", version(svc), warband="iron", fighter="iron-1", **fields),
    )


def test_a_player_corrects_a_fighters_points_and_name_and_the_audit_log_says_so(ana, svc):
    page = ana.get("/c/c/warband?warband=iron&correct=iron-1")
    assert "Correct Ironjaws 1" in text(page)
    assert correct(ana, svc, points="120").status_code == 302
    assert correct(ana, svc, name="Grenn the Hook").status_code == 302
    fighter = svc.state("c").state["warbands"]["iron"]["fighters"]["iron-1"]
    assert fighter["points"] == 120 and fighter["name"] == "Grenn the Hook"
    audit = text(ana.get("/c/c/audit"))
    assert "Ironjaws' Ironjaws 1: 100 points corrected to 120" in audit
    assert "Ironjaws' Ironjaws 1: renamed Grenn the Hook" in audit


def test_a_refused_correction_keeps_what_was_typed_and_says_why(ana, svc):
    before = version(svc)
    page = correct(ana, svc, points="12o")
    assert page.status_code == 422 and version(svc) == before
    assert errors_of(page) == ["Points must be a whole number."]
    assert 'name="points" inputmode="numeric" size="6" value="12o"' in page.get_data(as_text=True)
    page = correct(ana, svc, points="100")
    assert errors_of(page) == ["Ironjaws 1 already has that name and those points"]


# -- a whole step at once ---------------------------------------------------------------------


def step_form(svc, mode, dice=("", ""), fighters=("crow-1", "crow-2")):
    data = {"expected_version": str(version(svc)), "form_id": "all-InjuryRolled"}
    data["dice-mode"] = mode
    for i, (fid, die) in enumerate(zip(fighters, dice, strict=True)):
        data.update(
            {f"e-{i}-type": "InjuryRolled", f"e-{i}-warband": "crow", f"e-{i}-fighter": fid}
        )
        for j, face in enumerate(die.split()):  # each die's face, as its button sends it
            data[f"e-{i}-dice-{j}"] = face
    return data


def test_roll_everything_owed_writes_one_event_per_die_in_one_transaction(ben, svc):
    battle(svc)
    page = ben.get("/c/c/wizard?warband=crow")
    assert "Roll everything owed in this step" in text(page)
    before = version(svc)
    done = ben.post("/c/c/step/wizard?warband=crow", data=step_form(svc, "server"))
    assert done.status_code == 302
    events = list(svc.store.read("c", after=before))
    assert [(e.type, e.data["fighter"], e.meta["source"]) for e in events] == [
        ("InjuryRolled", "crow-1", "server-roll"),
        ("InjuryRolled", "crow-2", "server-roll"),
    ]
    assert svc.state("c").state["warbands"]["crow"]["aftermath"]["injuries"] == []


def test_roll_everything_owed_writes_nothing_when_one_roll_is_refused(ben, svc):
    battle(svc)
    before = version(svc)
    data = step_form(svc, "server", fighters=("crow-1", "crow-0"))
    page = ben.post("/c/c/step/wizard?warband=crow", data=data)
    assert page.status_code == 422 and version(svc) == before
    assert "Crowmarch 0 owes no injury roll" in text(page)


def test_a_whole_steps_table_dice_are_typed_on_one_form_and_kept_when_one_is_missing(ben, svc):
    battle(svc)
    before = version(svc)
    page = ben.post("/c/c/step/wizard?warband=crow", data=step_form(svc, "table", ("3 4", "")))
    assert page.status_code == 422 and version(svc) == before
    html = page.get_data(as_text=True)
    assert 'name="e-0-dice-0" value="3" aria-label="first die: 3" checked' in html
    assert 'name="e-0-dice-1" value="4" aria-label="second die: 4" checked' in html
    assert "Choose the face of each die the table rolled." in errors_of(page)
    done = ben.post("/c/c/step/wizard?warband=crow", data=step_form(svc, "table", ("3 4", "6 6")))
    assert done.status_code == 302
    events = list(svc.store.read("c", after=before))
    assert [(e.data["dice"], e.meta["source"]) for e in events] == [
        ([3, 4], "table-roll"),
        ([6, 6], "table-roll"),
    ]


# -- defaults the rules accept ------------------------------------------------------------


def selected(page, name) -> str:
    html = page.get_data(as_text=True)
    select = re.search(rf'<select name="{name}">(.*?)</select>', html, re.S).group(1)
    chosen = re.search(r'<option value="([^"]+)" selected>', select)
    return chosen.group(1) if chosen else re.search(r'<option value="([^"]+)"', select).group(1)


def test_the_give_list_never_defaults_to_a_fighter_who_already_holds_an_artefact(client, svc):
    svc.start("g", "warcry", "Gifts", {"quest": "ember-crown"})
    svc.append("g", two_warbands(), 1)
    steps = [
        {
            "type": "BattleFought",
            "data": {
                "battle": "b1",
                "winner": "crow",
                "sides": [
                    {"warband": "iron", "fighters": ["iron-0", "iron-1", "iron-2", "iron-3"]},
                    {"warband": "crow", "fighters": ["crow-0", "crow-1", "crow-2", "crow-3"]},
                ],
            },
        },
        {"type": "AftermathStepCompleted", "data": {"warband": "crow", "step": 1}},
    ]
    steps += [
        {"type": "DestinyRolled", "data": {"warband": "crow", "fighter": f"crow-{i}", "dice": [1]}}
        for i in range(4)
    ]
    steps += [
        {"type": "AftermathStepCompleted", "data": {"warband": "crow", "step": 4}},
        {"type": "SearchRolled", "data": {"warband": "crow", "dice": [2, 3]}},
        {
            "type": "ArtefactGiven",
            "data": {"warband": "crow", "fighter": "crow-0", "artefact": "Whetted Hook"},
        },
        {"type": "SearchRolled", "data": {"warband": "crow", "extra": True, "dice": [4, 1]}},
    ]
    svc.append("g", steps, version(svc, "g"))
    page = client.get("/c/g/wizard?warband=crow")
    assert "Give the Bone Knuckles" in text(page)
    assert selected(page, "fighter") == "crow-1"  # crow-0 holds the Whetted Hook


def test_a_leader_profile_is_not_offered_once_the_warband_has_a_leader(client, svc):
    settings = copy.deepcopy(system.prepare_settings({"quest": "ember-crown"}))
    profiles = settings["content"]["factions"]["cinderborn-reavers"]["profiles"]
    # A second leader's profile, first in the list: the old default.
    leader = {"name": "Ash Warlord", "runemarks": ["leader", "ember"], "points": 200}
    settings["content"]["factions"]["cinderborn-reavers"]["profiles"] = {
        "a-warlord": leader,
        **profiles,
    }
    svc.start("r", "warcry", "Reavers", settings)
    svc.append(
        "r",
        [
            {
                "type": "WarbandFounded",
                "data": {
                    "warband": "reav",
                    "name": "Reavers",
                    "player": "Ana",
                    "faction": "cinderborn-reavers",
                },
            },
            {
                "type": "FighterAdded",
                "data": {
                    "warband": "reav",
                    "fighter": "chief",
                    "name": "Chief",
                    "profile": "reaver-chieftain",
                },
            },
        ],
        1,
    )
    page = client.get("/c/r/warband?warband=reav")
    select = re.search(r'<select name="profile">(.*?)</select>', page.get_data(as_text=True), re.S)
    options = re.findall(r'<option value="([a-z-]+)"', select.group(1))
    assert options and "a-warlord" not in options and "reaver-chieftain" not in options
    assert selected(page, "profile") == options[0]
    # The page says why, in the rules' own words; no leader checkbox on the custom form.
    why = "at most one fighter bears the leader runemark: Reavers already has Chief"
    assert f"Ash Warlord is not on offer: {why}." in text(page)
    assert 'name="leader"' not in page.get_data(as_text=True)
    # Posted all the same (an old page, a hand-made post): the rules still refuse it.
    before = version(svc, "r")
    refused = client.post(
        "/c/r/warband?warband=reav",
        data=form("FighterAdded", before, warband="reav", name="Ash", profile="a-warlord"),
    )
    assert refused.status_code == 422 and version(svc, "r") == before
    assert why in text(refused)
    data = {"warband": "reav", "fighter": "x", "name": "X", "profile": options[0]}
    assert svc.state("r").system.allows(svc.state("r").state, "FighterAdded", data) is None


# -- kept input, and Continue -------------------------------------------------------------


def test_continue_after_a_refused_fighter_keeps_it_and_says_why_until_dropped(ben, svc):
    battle(svc, down=())
    svc.append(
        "c",
        [
            {
                "type": "DestinyRolled",
                "data": {"warband": "crow", "fighter": f"crow-{i}", "dice": [1]},
            }
            for i in range(4)
        ],
        version(svc),
    )
    url = "/c/c/wizard?warband=crow"
    refused = ben.post(
        url,
        data=form(
            "FighterAdded",
            version(svc),
            warband="crow",
            fighter="late",
            name="Latecomer",
            points="lots",
            **{"runemarks-text": "ember"},
        ),
    )
    assert refused.status_code == 422 and errors_of(refused) == ["Points must be a whole number."]
    html = refused.get_data(as_text=True)
    kept = dict(re.findall(r'<input type="hidden" name="(kept-[a-z-]+)" value="([^"]*)">', html))
    assert kept["kept-form"] == "FighterAdded" and kept["kept-points"] == "lots"
    assert kept["kept-name"] == "Latecomer"
    before = version(svc)
    page = ben.post(
        url, data=form("AftermathStepCompleted", before, warband="crow", step="4", **kept)
    )
    assert page.status_code == 422 and version(svc) == before
    html = page.get_data(as_text=True)
    assert 'value="Latecomer"' in html and 'value="lots"' in html
    assert "was refused and is not recorded" in text(page)
    dropped = ben.post(
        url,
        data=form(
            "AftermathStepCompleted", before, warband="crow", step="4", **kept, **{"drop-kept": "1"}
        ),
    )
    assert dropped.status_code == 302
    assert svc.state("c").state["warbands"]["crow"]["aftermath"]["step"] == 5


# -- confirmation, words and forms --------------------------------------------------------


def test_destructive_forms_ask_to_confirm(client, ana, svc):
    warband = ana.get("/c/c/warband?warband=iron").get_data(as_text=True)
    removes = re.findall(r"<form[^>]*>(?:(?!</form>).)*>Remove</button>", warband, re.S)
    assert removes and all("data-confirm=" in f for f in removes)
    audit = client.get("/c/c/audit").get_data(as_text=True)
    assert re.search(r'<form[^>]*action="/c/c/audit"[^>]*data-confirm="Void this event', audit)
    battle(svc, down=())
    svc.append(
        "c",
        [
            {
                "type": "DestinyRolled",
                "data": {"warband": "crow", "fighter": f"crow-{i}", "dice": [1]},
            }
            for i in range(4)
        ],
        version(svc),
    )
    wizard = client.get("/c/c/wizard?warband=crow").get_data(as_text=True)
    removes = re.findall(r"<form[^>]*>(?:(?!</form>).)*>Remove</button>", wizard, re.S)
    assert removes and all("data-confirm=" in f for f in removes)


def test_a_malformed_field_is_shown_once_beside_it_in_error_style_and_a_players_words(ana, svc):
    page = add_fighter(ana, svc, points="lots")
    assert page.status_code == 422
    assert errors_of(page) == ["Points must be a whole number."]
    html = page.get_data(as_text=True)
    assert html.count("Points must be a whole number.") == 1
    assert re.search(r'name="points"[^>]*>\s*</label>\s*<span class="field-error"', html)
    assert "FighterAdded" not in text(page) and "Not a valid integer" not in html
    assert 'class="flashes' not in html


def test_a_broken_rule_is_shown_once_beside_its_form_and_not_as_a_success(ana, svc):
    page = ana.post(
        "/c/c/warband?warband=iron",
        data=form("FighterRemoved", version(svc), warband="iron", fighter="iron-0"),
    )
    rule = "the leader can never be removed (Ironjaws 0 leads Ironjaws)"
    assert errors_of(page) == [rule]
    assert page.get_data(as_text=True).count(rule) == 1
    assert 'class="flashes' not in page.get_data(as_text=True)


def test_an_error_no_form_of_the_page_shows_is_at_the_top_in_error_style(ana, svc):
    page = ana.post(
        "/c/c/warband?warband=iron",
        data=form("FighterRemoved", version(svc), warband="iron", fighter="ghost"),
    )
    html = page.get_data(as_text=True)
    assert re.search(
        r'<div class="problems" role="alert"[^>]*><p class="error">Ironjaws has no', html
    )
    assert errors_of(page) == ["Ironjaws has no fighter 'ghost'"]


def test_a_player_sees_no_forms_for_another_players_warband(ana, svc):
    battle(svc)
    other = text(ana.get("/c/c/warband?warband=crow"))
    assert "Add the fighter" not in other and "Remove" not in other and "correct" not in other
    wizard = ana.get("/c/c/wizard?warband=crow")
    assert "Roll for me" not in text(wizard) and "Roll everything" not in text(wizard)
    assert "you follow it here" in text(wizard)
    own = text(ana.get("/c/c/warband?warband=iron"))
    assert "Remove" in own
    # Ironjaws are at step 1 of their aftermath: no fighter is offered, and the page says why.
    assert "Add the fighter" not in own and "may be added now" in own
    ana.post(
        "/c/c/wizard?warband=iron",
        data=form("AftermathStepCompleted", version(svc), warband="iron", step="1"),
    )
    assert "Add the fighter" not in text(ana.get("/c/c/warband?warband=iron"))


def test_a_forbidden_entry_shows_the_page_again_with_the_reason_and_what_was_typed(ana, svc):
    before = version(svc)
    page = ana.post(
        "/c/c/warband?warband=crow",
        data=form(
            "FighterAdded",
            before,
            warband="crow",
            fighter="spy",
            name="Sneaky Spy",
            points="90",
            **{"runemarks-text": "ember"},
        ),
    )
    assert page.status_code == 403 and version(svc) == before
    body = text(page)
    assert "a player records events only for its own side" in body
    assert "Name “Sneaky Spy”" in body and "Points “90”" in body
    assert "Crowmarch" in body  # the page itself, not an error page
