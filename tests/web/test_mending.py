"""Mending a slip after moving on, from the audit log: each row the reader may void (an
organiser) or undo (a player, its own) has its own button; voiding an event that later ones
depend on shows that chain in the audit log's words and voids it all in one confirmed step,
with one reason; refusals name entries and people, never an event's type."""

import re

import pytest
from pagetools import text, version

from tracker import config
from tracker.permissions import UNDONE
from tracker.web import create_app

PASSWORD = "organiser-password"  # the organiser's, as tests/web/conftest.py signs it up
PLAYER_PASSWORD = "a long password!"


def log_in(client, name, password):
    page = client.post("/login", data={"name": name, "password": password})
    assert page.status_code == 302, page.get_data(as_text=True)
    return client


def aftermath_to_the_gift(svc, actor="ben"):
    """A battle, Crowmarch's aftermath up to its search (the Whetted Hook found), recorded by
    Crowmarch's player; returns the version of the gift of the Whetted Hook to Crowmarch 0."""
    battle = {
        "battle": "b1",
        "winner": "crow",
        "sides": [
            {"warband": "iron", "fighters": [f"iron-{i}" for i in range(4)]},
            {"warband": "crow", "fighters": [f"crow-{i}" for i in range(4)]},
        ],
    }
    svc.append("c", [{"type": "BattleFought", "data": battle}], version(svc), actor="org")
    steps = [{"type": "AftermathStepCompleted", "data": {"warband": "crow", "step": 1}}]
    steps += [
        {"type": "DestinyRolled", "data": {"warband": "crow", "fighter": f"crow-{i}", "dice": [1]}}
        for i in range(4)
    ]
    steps += [
        {"type": "AftermathStepCompleted", "data": {"warband": "crow", "step": 4}},
        {"type": "SearchRolled", "data": {"warband": "crow", "dice": [2, 3]}},
    ]
    svc.append("c", steps, version(svc), actor=actor)
    gift = {"warband": "crow", "fighter": "crow-0", "artefact": "Whetted Hook"}
    svc.append("c", [{"type": "ArtefactGiven", "data": gift}], version(svc), actor=actor)
    return version(svc)


def the_battle(svc) -> int:
    return next(
        v for v in range(1, version(svc) + 1) if svc.store.event("c", v).type == "BattleFought"
    )


def complete_step_5(svc, actor="ben"):
    step = {"type": "AftermathStepCompleted", "data": {"warband": "crow", "step": 5}}
    svc.append("c", [step], version(svc), actor=actor)
    return version(svc)


@pytest.fixture
def ben(app, accounts, two):
    """A client logged in as Ben, who plays Crowmarch."""
    accounts.add_member(two, accounts.sign_up("ben", PLAYER_PASSWORD), "player", "crow")
    return log_in(app.test_client(), "ben", PLAYER_PASSWORD)


@pytest.fixture
def gift_then_step(svc, two):
    """The gift of the Whetted Hook, then step 5 completed after it: (gift, step) versions."""
    gift = aftermath_to_the_gift(svc)
    return gift, complete_step_5(svc)


def buttons(page) -> dict[int, str]:
    """The audit rows' own controls: event number -> the button's words."""
    html = page.get_data(as_text=True)
    found = re.findall(r'<button type="submit" name="version" value="(\d+)"[^>]*>([^<]+)<', html)
    return {int(v): words for v, words in found}


def mend(client, svc, target, **fields):
    data = {"version": str(target), "expected_version": str(version(svc)), **fields}
    return client.post("/c/c/audit/mend", data=data)


def voids_since(svc, before):
    return [svc.store.event("c", v) for v in range(before + 1, version(svc) + 1)]


# -- the organiser voids a chain in one confirmed step ------------------------------------------


def test_voiding_a_gift_from_its_row_shows_the_step_after_it_and_voids_both_at_once(
    client, svc, gift_then_step
):
    gift, step = gift_then_step
    before_gift = svc.state("c", gift - 1).state["warbands"]["crow"]
    audit = client.get("/c/c/audit")
    assert buttons(audit)[gift] == "Void…" and buttons(audit)[step] == "Void…"
    assert 1 not in buttons(audit)  # the campaign's start is never voided: no control

    asked = mend(client, svc, gift)
    assert asked.status_code == 200 and version(svc) == step  # asking writes nothing
    words = text(asked)
    assert "Void this?" in words and "Crowmarch gave the Whetted Hook to Crowmarch 0" in words
    assert "1 entry recorded after it depends on it" in words
    assert "Crowmarch completed step 5 (searching for lesser artefacts)" in words
    assert "Void all (2)" in words
    assert not re.search(r"\b[A-Z][a-z]+[A-Z]\w+", words.split("Void this?", 1)[1])

    html = asked.get_data(as_text=True)
    chain = re.search(r'name="chain" value="([^"]*)"', html).group(1)
    done = mend(client, svc, gift, chain=chain, confirmed="yes", reason="wrong fighter")
    assert done.status_code == 302
    voids = voids_since(svc, step)
    assert [(v.type, v.data) for v in voids] == [
        ("EventVoided", {"version": step, "reason": "wrong fighter"}),
        ("EventVoided", {"version": gift, "reason": "wrong fighter"}),
    ]
    assert voids[0].meta["actor"] == "org"
    assert svc.state("c").state["warbands"]["crow"] == before_gift
    audit = text(client.get(done.headers["Location"]))
    assert "Voided: Crowmarch gave the Whetted Hook to Crowmarch 0, with the 1 entry" in audit
    assert gift not in buttons(client.get("/c/c/audit"))  # voided: no control any more


def test_the_foot_form_of_the_audit_log_shows_the_chain_instead_of_refusing(
    client, svc, gift_then_step
):
    gift, step = gift_then_step
    page = client.post(
        "/c/c/audit",
        data={"version": str(gift), "reason": "a slip", "expected_version": str(step)},
    )
    assert page.status_code == 200 and version(svc) == step
    assert "Crowmarch completed step 5" in text(page) and 'value="a slip"' in page.get_data(
        as_text=True
    )
    assert "depends on it (" not in text(page)  # no refusal: the chain, to confirm


def test_cancelling_or_leaving_out_the_reason_writes_nothing(client, svc, gift_then_step):
    gift, step = gift_then_step
    chain = f"{step} {gift}"
    back = mend(client, svc, gift, chain=chain, back="1", reason="x")
    assert back.status_code == 302 and back.headers["Location"].endswith(f"/c/c/audit#e{gift}")
    assert version(svc) == step
    page = mend(client, svc, gift, chain=chain, confirmed="yes", reason="  ")
    assert page.status_code == 422 and version(svc) == step
    assert "Say why, in a few words." in text(page)


def test_a_chain_that_changed_since_the_page_is_asked_about_again(client, svc, gift_then_step):
    gift, step = gift_then_step
    page = mend(client, svc, gift, chain=str(gift), confirmed="yes", reason="x")
    assert page.status_code == 409 and version(svc) == step
    assert "here is what would go with it now" in text(page)
    assert "Crowmarch completed step 5" in text(page)


def test_an_event_that_can_never_be_voided_is_refused_in_words(client, svc, gift_then_step):
    page = mend(client, svc, 1, confirmed="yes", reason="x")
    assert page.status_code == 422 and "the event that starts a campaign cannot be voided" in text(
        page
    )


# -- CSRF ------------------------------------------------------------------------------------


@pytest.fixture
def guarded(app, organiser):
    """The same database, served by an app that checks CSRF tokens."""
    checked = create_app({**app.config, "WTF_CSRF_ENABLED": True})
    client = checked.test_client()
    page = client.get("/login")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    client.post("/login", data={"name": "org", "password": PASSWORD, "csrf_token": token})
    return client


def test_a_mending_without_its_csrf_token_writes_nothing(guarded, svc, gift_then_step):
    gift, step = gift_then_step
    audit = guarded.get("/c/c/audit").get_data(as_text=True)
    token = re.search(
        r'<form method="post" action="/c/c/audit/mend" class="mending">\s*'
        r'<input type="hidden" name="csrf_token" value="([^"]+)"',
        audit,
    ).group(1)
    chain = f"{step} {gift}"
    page = mend(guarded, svc, gift, chain=chain, confirmed="yes", reason="x")
    assert page.status_code == 400 and version(svc) == step
    assert "This form has expired" in text(page)
    page = mend(guarded, svc, gift, chain=chain, confirmed="yes", reason="x", csrf_token=token)
    assert page.status_code == 302 and version(svc) == step + 2


# -- a player undoes its own entries, and only those ------------------------------------------


def test_a_player_sees_controls_only_on_its_own_rows(ben, client, anon, svc, gift_then_step):
    gift, step = gift_then_step
    client.get("/c/c/audit")  # the organiser's rows drawn first: kept parts must not leak
    mine = buttons(ben.get("/c/c/audit"))
    own = {v for v in range(1, step + 1) if svc.store.event("c", v).meta.get("actor") == "ben"}
    assert set(mine) == own and gift in mine and step in mine
    assert set(mine.values()) == {"Undo…"}
    battle = the_battle(svc)
    assert battle not in mine  # recorded by the organiser, for both sides
    assert buttons(anon.get("/c/c/audit")) == {}
    assert "/audit/mend" not in anon.get("/c/c/audit").get_data(as_text=True)


def test_a_player_undoes_its_own_gift_and_its_own_step_after_it(ben, svc, gift_then_step):
    gift, step = gift_then_step
    page = mend(ben, svc, gift)
    assert page.status_code == 200 and "Undo this?" in text(page) and "Undo all (2)" in text(page)
    assert 'name="reason"' not in page.get_data(as_text=True)
    done = mend(ben, svc, gift, chain=f"{step} {gift}", confirmed="yes", reason="ignored")
    assert done.status_code == 302
    assert [v.data for v in voids_since(svc, step)] == [
        {"version": step, "reason": UNDONE},
        {"version": gift, "reason": UNDONE},
    ]


def test_a_player_cannot_void_anothers_entry(ben, svc, gift_then_step):
    gift, step = gift_then_step
    battle = the_battle(svc)
    for fields in ({}, {"chain": str(battle), "confirmed": "yes", "reason": "x"}):
        page = mend(ben, svc, battle, **fields)
        assert page.status_code == 403 and version(svc) == step
        assert "is not yours to undo" in text(page) and "Battle b1" in text(page)


def test_a_players_chain_with_anothers_entry_in_it_is_refused_naming_whose(ben, svc, two):
    gift = aftermath_to_the_gift(svc)
    step = complete_step_5(svc, actor="org")  # the organiser completed Ben's step
    page = mend(ben, svc, gift, chain=f"{step} {gift}", confirmed="yes")
    assert page.status_code == 403 and version(svc) == step
    words = text(page)
    assert "“Crowmarch gave the Whetted Hook to Crowmarch 0” cannot be undone alone" in words
    assert "org recorded “Crowmarch completed step 5" in words
    assert "Undo all" not in words


# -- refusals name what a player knows ----------------------------------------------------------


TYPE_NAME = re.compile(r"\b[A-Z][a-z]+[A-Z]\w+")
BARE_EVENT = re.compile(r"\bevent \d+\b(?! \(|,)")


@pytest.mark.parametrize("sample", sorted(p.name for p in config.SAMPLES.glob("*.jsonl")))
def test_no_refusal_met_voiding_a_samples_events_names_an_event_type(svc, sample):
    """Every event of the sample voided alone, in turn (nothing written): the refusals, as
    the page and the API say them, name entries in the audit log's words and no type."""
    from tracker import recording
    from tracker.errors import BatchError

    lines = (config.SAMPLES / sample).read_text().splitlines()
    [result] = svc.import_lines(lines)
    cid, repo = result.campaign, svc.repository
    refusals = []
    for target in range(1, svc.store.version(cid) + 1):
        view = repo.for_writing(cid, repo.ends(cid))
        void = {"type": "EventVoided", "data": {"version": target, "reason": "a slip"}}
        try:
            recording.check(repo, view, [void], meta={}, roller=None)
        except BatchError as error:
            refusals.append(str(error.error))
    assert refusals, "voiding the sample's events met no refusal"
    for words in refusals:
        assert not TYPE_NAME.search(words), words
        assert not BARE_EVENT.search(words), words
    depending = [w for w in refusals if "depends on it" in w]
    assert depending and all(w.startswith("“") for w in depending)
