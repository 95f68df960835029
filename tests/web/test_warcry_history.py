"""Pages over a long Warcry campaign: the latest history from the state, earlier history as
the campaign stood at an earlier event (a battle that left the state, earlier ledger lines)."""

from __future__ import annotations

import pytest
from pagetools import text

from tracker.systems.warcry import rules

BATTLES = 3 * rules.KEPT_BATTLES


def _owed(am) -> dict | None:
    """The next event a warband's aftermath asks for, with harmless rolls."""
    step = am["step"]
    if step == 2:
        return {"type": "InjuryRolled", "data": {"fighter": am["injuries"][0], "dice": [6, 6]}}
    if step == 3:
        return {"type": "DestinyRolled", "data": {"fighter": am["destiny"][0], "dice": [1]}}
    if step == 5 and not am["searched"]:
        return {"type": "SearchRolled", "data": {"dice": [1, 6]}}  # finds nothing
    if step == 5 and am["perishable"]:
        return {"type": "PerishableRolled", "data": {"fighter": am["perishable"][0], "dice": [6]}}
    return {"type": "AftermathStepCompleted", "data": {"step": step}}  # step 7: declined


@pytest.fixture
def long(svc, two):
    for n in range(BATTLES):
        state = svc.state(two).state
        svc.append(
            two,
            [
                {
                    "type": "BattleFought",
                    "data": {
                        "battle": f"b{n}",
                        "winner": "iron",
                        "sides": [
                            {"warband": wid, "fighters": state["warbands"][wid]["active"]}
                            for wid in ("iron", "crow")
                        ],
                    },
                }
            ],
            None,
        )
        for wid in ("iron", "crow"):
            while (am := svc.state(two).state["warbands"][wid]["aftermath"]) is not None:
                event = _owed(am)
                event["data"]["warband"] = wid
                svc.append(two, [event], None)
    return two


def test_an_archived_battle_opens_as_the_campaign_stood_before_it_left(client, svc, long):
    left = svc.state(long).state["battle_ids"]["b0"]
    assert left is not None
    page = client.get(f"/c/{long}/battle?battle=b0")
    assert page.status_code == 302
    assert page.headers["Location"].endswith(f"/c/{long}/battle?battle=b0&at={left - 1}")
    shown = client.get(page.headers["Location"])
    assert shown.status_code == 200
    body = text(shown)
    assert "Battle b0" in body and "Ironjaws won" in body
    assert f"as of event {left - 1}" in body or f"event {left - 1}" in body


def test_a_battle_never_fought_is_still_not_found(client, long):
    assert client.get(f"/c/{long}/battle?battle=b999").status_code == 404


def test_the_battles_page_links_to_the_earlier_battles(client, svc, long):
    state = svc.state(long).state
    first = state["battles"][0]
    body = client.get(f"/c/{long}/battles").get_data(as_text=True)
    archived = BATTLES - len(state["battles"])
    assert f"{archived} earlier battles are listed" in text(client.get(f"/c/{long}/battles"))
    assert f"at={first['version'] - 1}" in body
    earlier = text(client.get(f"/c/{long}/battles?at={first['version'] - 1}"))
    assert "b0" in earlier


def test_the_warband_page_links_to_its_earlier_ledger_lines(client, svc, long):
    wb = svc.state(long).state["warbands"]["iron"]
    assert wb["ledger_archived"] > 0
    at = wb["ledger"][0]["version"] - 1
    body = client.get(f"/c/{long}/warband?warband=iron").get_data(as_text=True)
    assert f"{wb['ledger_archived']} earlier lines are in" in body
    assert f"warband=iron&amp;at={at}" in body or f"at={at}&amp;warband=iron" in body
    earlier = svc.state(long, at).state["warbands"]["iron"]["ledger"]
    page = text(client.get(f"/c/{long}/warband?warband=iron&at={at}"))
    assert f"#{earlier[-1]['version']}" in page
