"""The state keeps what the rules need and the latest history; earlier history is read as of
an earlier event. A long campaign, folded event by event, shows both halves of that promise."""

from __future__ import annotations

import pytest

from tracker.errors import RuleViolation
from tracker.events import Event, copied
from tracker.systems.warcry import rules, system

BATTLES = 3 * rules.KEPT_BATTLES
_MADE = {}


@pytest.fixture
def long_campaign(new_campaign):
    """48 battles between two warbands, with a copy of the state after every event."""
    if "c" not in _MADE:

        class Recorded(new_campaign):
            def __init__(self):
                super().__init__()
                self.states = {self.version: copied(self.state)}

            def do(self, type_, **data):
                super().do(type_, **data)
                self.states[self.version] = copied(self.state)
                return self

        c = Recorded().warband("iron", "Ironjaws").warband("crow", "Crowmarch")
        for n in range(BATTLES):
            c.battle(bid=f"b{n}", winner="iron" if n % 3 else "crow")
            c.finish("iron").finish("crow")
        _MADE["c"] = c
    return _MADE["c"]


def test_the_state_keeps_only_the_latest_battles_whole(long_campaign):
    state = long_campaign.state
    assert rules.KEPT_BATTLES <= len(state["battles"]) <= 2 * rules.KEPT_BATTLES
    assert [b["id"] for b in state["battles"]] == [
        f"b{n}" for n in range(BATTLES - len(state["battles"]), BATTLES)
    ]
    assert list(state["battle_ids"]) == [f"b{n}" for n in range(BATTLES)]
    archived = {bid: v for bid, v in state["battle_ids"].items() if v is not None}
    assert len(archived) == BATTLES - len(state["battles"])
    assert system.public_state(state)["archived_battles"] == len(archived)


def test_an_archived_battle_is_whole_and_final_just_before_it_left(long_campaign):
    state = long_campaign.state
    for bid, left in state["battle_ids"].items():
        if left is None:
            continue
        before = long_campaign.states[left - 1]
        battle = system.views.battle(before, bid)
        assert battle is not None, bid
        assert system.views.battle(long_campaign.states[left], bid) is None
        for wid in battle["warbands"]:
            report = battle["aftermath"][wid]  # filed: the aftermath is over
            assert report is not None and report["map"] is not None
            assert before["warbands"][wid]["aftermath"] is None or (
                before["warbands"][wid]["aftermath"]["battle"] != bid
            )


def test_an_archived_battle_id_stays_taken(long_campaign):
    state = copied(long_campaign.state)
    assert state["battle_ids"]["b0"] is not None
    data = system.load(
        "BattleFought",
        {
            "battle": "b0",
            "sides": [
                {"warband": wid, "fighters": state["warbands"][wid]["active"]}
                for wid in ("iron", "crow")
            ],
        },
    )
    with pytest.raises(RuleViolation, match="already a battle 'b0'"):
        system.apply(state, Event(None, "c", 10**6, "BattleFought", data, {}, None, None))


def test_a_battle_under_way_is_not_archived(new_campaign):
    c = new_campaign().warband("iron", "Ironjaws").warband("crow", "Crowmarch")
    c.warband("moss", "Mossborn").warband("wolf", "Wolfpack")
    c.battle(bid="held")  # Ironjaws and Crowmarch stay in its aftermath throughout
    for n in range(2 * rules.KEPT_BATTLES + 4):
        c.do(
            "BattleFought",
            battle=f"m{n}",
            winner="moss",
            convergence=[],
            sides=[
                {"warband": "moss", "fighters": c.wb("moss")["active"], "taken_down": []},
                {"warband": "wolf", "fighters": c.wb("wolf")["active"], "taken_down": []},
            ],
        )
        c.finish("moss").finish("wolf")
    assert c.state["battles"][0]["id"] == "held"
    assert c.state["battle_ids"]["held"] is None
    c.finish("iron").finish("crow")
    assert system.views.report(c.state, c.state["battles"][0], "iron")["map"] is not None


def test_the_ledger_keeps_its_latest_lines_and_whole_events(long_campaign):
    wb = long_campaign.wb("iron")
    ledger = wb["ledger"]
    assert wb["ledger_archived"] > 0
    assert rules.KEPT_LEDGER <= len(ledger) <= 2 * rules.KEPT_LEDGER + 6
    # The ledger as of the event before the first kept line ends where the kept one begins.
    first = ledger[0]
    before = long_campaign.states[first["version"] - 1]["warbands"]["iron"]
    assert before["ledger"][-1]["version"] < first["version"]
    assert before["ledger"][-1]["balance"] == first["balance"] - first["amount"]
    # Every line ever written is in one of the two, once.
    everything = {
        (line["version"], line["cause"])
        for state in long_campaign.states.values()
        if "iron" in state["warbands"]
        for line in state["warbands"]["iron"]["ledger"]
    }
    assert len(everything) == wb["ledger_archived"] + len(ledger)
    for cause in (cause for _, cause in everything):
        assert cause
    for earlier, line in zip(ledger, ledger[1:]):
        assert line["balance"] == earlier["balance"] + line["amount"]
