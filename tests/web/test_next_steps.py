"""What each campaign page opens with: the step this reader may take next (a button to the
page where it is done), or what the campaign waits for and from whom; each game's rules say
which (`views.next_steps`), for the organiser, a seated player and a reader alike."""

import json
import re

import pytest

from tests.pagetools import member
from tracker import config, systems
from tracker.web.rendering import next_steps


def imported(svc, sample: str, campaign: str, share: float = 1.0) -> list[dict]:
    raw = [line for line in (config.SAMPLES / sample).read_text().splitlines() if line.strip()]
    lines = [json.loads(line) for line in raw[: max(2, int(len(raw) * share))]]
    for line in lines:
        line["campaign"] = campaign
    svc.import_lines([json.dumps(line) for line in lines])
    return lines


def opening(page) -> str:
    """The next-step part of a page, its words and links."""
    found = re.search(r'<section class="next-step.*?</section>', page.get_data(as_text=True), re.S)
    return found.group(0) if found else ""


def buttons(part: str) -> list[str]:
    return re.findall(r'<a class="button[^"]*" href="([^"]+)">', part)


def test_the_warcry_organiser_is_sent_to_the_aftermath_step_owed(client, svc):
    imported(svc, "warcry-ember-crown.jsonl", "wc")
    part = opening(client.get("/c/wc/battles"))
    assert "Crowmarch: step 2 of battle b12, injury rolls" in part
    assert buttons(part) == ["/c/wc/wizard?warband=crowmarch"]


def test_a_warcry_player_whose_warband_owes_nothing_is_told_whom_the_campaign_waits_for(app, svc):
    imported(svc, "warcry-ember-crown.jsonl", "wc")
    part = opening(member(app, "wc", "alice", "ironjaws").get("/c/wc/"))
    assert buttons(part) == []
    assert "Waiting for Bruno (Crowmarch): step 2 of battle b12, injury rolls" in part
    mine = opening(member(app, "wc", "bruno", "crowmarch").get("/c/wc/audit"))
    assert buttons(mine) == ["/c/wc/wizard?warband=crowmarch"]


def test_a_warcry_player_without_a_warband_founds_one_first(app, svc):
    imported(svc, "warcry-ember-crown.jsonl", "wc", 0.02)
    part = opening(member(app, "wc", "newcomer").get("/c/wc/"))
    assert buttons(part)[0] == "/c/wc/#found"
    assert "Found your warband" in part


def test_warcry_asks_for_the_next_battle_once_no_aftermath_is_owed():
    warcry = systems.get("warcry")
    state = {
        "warbands": {
            wid: {"name": wid.title(), "player": wid, "aftermath": None} for wid in ("a", "b")
        }
    }
    (step,) = warcry.views.next_steps(state, "a", "player")
    assert step["side"] == ["a", "b"] and step["page"] == "battle-new"
    assert str(step["do"]) == "Record the next battle"


def test_a_page_as_it_stood_earlier_shows_no_next_step(client, svc):
    imported(svc, "warcry-ember-crown.jsonl", "wc")
    assert opening(client.get("/c/wc/?at=40")) == ""
    assert opening(client.get("/c/wc/"))


def test_a_reader_is_only_told_what_the_campaign_waits_for(svc, app):
    imported(svc, "warcry-ember-crown.jsonl", "wc")
    view = svc.state("wc")
    steps = next_steps(view, None, lambda side: False)
    assert steps and not any(step["yours"] for step in steps)
    assert "Waiting for Bruno (Crowmarch)" in str(steps[0]["waits"])


def test_claim_sends_the_player_to_move_to_its_seat_and_hides_its_hand_from_the_other(app, svc):
    imported(svc, "claim-tavern-nights.jsonl", "cl", 0.85)
    tobin = opening(member(app, "cl", "tobin", "tobin").get("/c/cl/"))
    assert buttons(tobin) == ["/c/cl/table?player=tobin"]
    assert "Your move: lead any card of your hand" in tobin
    mara = opening(member(app, "cl", "mara", "mara").get("/c/cl/"))
    assert buttons(mara) == [] and "Waiting for Tobin to lead." in mara
    # The other seat is followed on the game's page, which shows no hand.
    assert "/c/cl/game?game=" in mara and "table?player=tobin" not in mara


def test_claim_asks_any_player_to_deal_the_next_game(app, svc):
    imported(svc, "claim-tavern-nights.jsonl", "cl")
    part = opening(member(app, "cl", "mara", "mara").get("/c/cl/games"))
    assert "Deal game 3" in part and buttons(part) == ["/c/cl/"]


# A moment of each turn-based sample, the side whose move it is, and what it is told.
TURNS = [
    ("leaders-standard.jsonl", 0.6, ["alice", "bob"], "alice", "Your action phase"),
    ("leaders-standard.jsonl", 0.85, ["alice", "bob"], "alice", "Your recruitment phase"),
    ("monsters-twin-peaks-feud.jsonl", 0.35, ["alice", "bob"], "bob", "Your move"),
    ("hellas-duel.jsonl", 0.35, ["alexa", "bion"], "alexa", "Your turn: take your actions"),
    ("hellas-three-crowns.jsonl", 0.1, ["dora", "elias", "fotini"], "elias", "Next: the"),
]


@pytest.mark.parametrize(("sample", "share", "sides", "acting", "words"), TURNS)
def test_the_player_to_act_gets_the_button_and_the_others_are_told_whom_they_wait_for(
    app, client, svc, sample, share, sides, acting, words
):
    imported(svc, sample, "tb", share)
    assert words in opening(client.get("/c/tb/"))  # the organiser may record for any side
    for side in sides:
        part = opening(member(app, "tb", f"p-{side}", side).get("/c/tb/"))
        if side == acting:
            assert buttons(part) and words in part, part
        else:
            assert not buttons(part) and "Waiting for" in part, part


@pytest.mark.parametrize(
    ("sample", "words"),
    [
        ("leaders-expert.jsonl", "Start the next match"),
        ("monsters-twin-peaks-feud.jsonl", "Begin the next battle"),
        ("hellas-duel.jsonl", "Begin the next game"),
    ],
)
def test_a_game_over_asks_for_the_next_one(client, svc, sample, words):
    imported(svc, sample, "over")
    part = opening(client.get("/c/over/"))
    assert words in part and buttons(part)


def test_the_next_step_is_in_the_readers_language(app, svc):
    imported(svc, "warcry-ember-crown.jsonl", "wc")
    reader = member(app, "wc", "ola", "ironjaws")
    reader.post("/language", data={"lang": "pl", "next": "/c/wc/"})
    assert "Czekamy na: Bruno (Crowmarch): krok 2 po bitwie b12" in opening(reader.get("/c/wc/"))


def test_a_refused_roll_is_the_first_thing_its_page_lands_on(client, svc):
    imported(svc, "warcry-ember-crown.jsonl", "wc")
    page = client.get("/c/wc/wizard?warband=crowmarch").get_data(as_text=True)
    fighter = re.search(r'name="fighter" value="([^"]+)"', page).group(1)
    version = re.search(r'name="expected_version" value="(\d+)"', page).group(1)
    answer = client.post(
        "/c/wc/wizard?warband=crowmarch",
        data={
            "type": "InjuryRolled",
            "form_id": f"InjuryRolled-{fighter}",
            "expected_version": version,
            "warband": "crowmarch",
            "fighter": fighter,
            "dice-0": "3",
            "dice-mode": "table",
        },
    )
    html = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert html.count('id="refused"') == 1
    landing = re.search(r'<[^>]+id="refused"[^>]*>([^<]*)', html)
    assert "autofocus" in landing.group(0) and landing.group(1).strip()
    assert html.index('id="refused"') > html.index(f'value="{fighter}"')  # beside its form
