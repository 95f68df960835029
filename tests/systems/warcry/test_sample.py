"""The sample campaign events/warcry-ember-crown.jsonl, imported through the service.

Every fact is read from the folded state and the audit log (Service.history), not from the
raw file: the sample must show each outcome of the aftermath to a new user.
"""

from pathlib import Path

import pytest

from tracker.systems.warcry import system

SAMPLE = Path(__file__).resolve().parents[3] / "events" / "warcry-ember-crown.jsonl"
CAMPAIGN = "ember-crown-sample"


@pytest.fixture
def sample(service):
    [result] = service.import_lines(SAMPLE.read_text(encoding="utf-8").splitlines())
    view = service.state(CAMPAIGN)
    history = list(service.history(CAMPAIGN))
    return result, view, history, service


@pytest.fixture
def state(sample):
    return sample[1].state


def reports(state):
    """Every (battle, warband, report) of the aftermaths in the campaign."""
    return [
        (battle, wid, system.views.report(state, battle, wid))
        for battle in state["battles"]
        for wid in battle["warbands"]
    ]


def all_of(state, key):
    return [line for _, _, report in reports(state) for line in report[key]]


def fighter(state, wid, fid):
    return state["warbands"][wid]["fighters"][fid]


def test_the_sample_imports_whole_and_every_line_is_an_event(sample):
    result, view, history, _ = sample
    lines = [line for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert result.first_version == 1 and result.last_version == len(lines) == view.version
    assert len(history) == len(lines)


def test_the_sample_has_at_least_two_warbands_and_eight_battles(state):
    assert len(state["warbands"]) >= 2
    assert len(state["battles"]) >= 8
    for wb in state["warbands"].values():
        assert wb["battles"] >= 8


def test_the_sample_walks_every_step_of_the_aftermath(state, sample):
    history = sample[2]
    completed = {e.event.data["step"] for e in history if e.event.type == "AftermathStepCompleted"}
    assert {1, 4, 5} <= completed
    assert all_of(state, "territories")  # step 1: glory spent
    assert all_of(state, "injuries")  # step 2
    assert all_of(state, "destiny")  # step 3
    # step 4: fighters added and removed after a battle, in its aftermath
    first = state["battles"][0]["version"]
    roster = [
        e.event
        for e in history
        if e.event.type in ("FighterAdded", "FighterRemoved")
        and e.event.version > first
        and e.voided_by is None
    ]
    assert {e.type for e in roster} == {"FighterAdded", "FighterRemoved"}
    service = sample[3]
    for event in roster:
        before = service.state(CAMPAIGN, at=event.version - 1).state
        aftermath = before["warbands"][event.data["warband"]]["aftermath"]
        assert aftermath is not None and aftermath["step"] <= 4
        after = service.state(CAMPAIGN, at=event.version).state
        assert after["warbands"][event.data["warband"]]["aftermath"]["step"] == 4
    statuses = {f["status"] for wb in state["warbands"].values() for f in wb["fighters"].values()}
    assert "removed" in statuses
    assert all_of(state, "searches") and all_of(state, "given")  # step 5
    assert all_of(state, "perishable")
    moves = [report["map"] for _, _, report in reports(state) if report["map"]]
    assert any(m["to"] == m["from"] + 1 for m in moves)  # step 6
    assert {r["reward"]["kind"] for _, _, r in reports(state) if r["reward"]} == {
        "artefact",
        "trait",
    }  # step 7


def test_the_sample_shows_every_outcome_of_the_injury_table(state):
    injuries = all_of(state, "injuries")
    outcomes = {line["outcome"] for line in injuries}
    assert outcomes == {"killed", "loses favour", "recovers"}
    for _, wid, report in reports(state):
        for line in report["injuries"]:
            if line["outcome"] == "killed":
                assert fighter(state, wid, line["fighter"])["status"] == "dead"


def test_the_sample_shows_a_leader_losing_favour_instead_of_dying(state):
    saved = [
        (wid, line)
        for _, wid, report in reports(state)
        for line in report["injuries"]
        if sum(line["dice"]) <= 3 and fighter(state, wid, line["fighter"])["leader"]
    ]
    assert saved
    for wid, line in saved:
        assert line["outcome"] == "loses favour"
        assert fighter(state, wid, line["fighter"])["status"] == "active"


def test_the_sample_shows_destiny_gained_and_not_gained(state):
    destiny = all_of(state, "destiny")
    assert {line["gained"] for line in destiny} == {True, False}
    assert all(line["gained"] == (line["dice"] == [6]) for line in destiny)


def test_the_sample_shows_a_fragile_artefact_crumbling_and_one_holding(state):
    perishable = all_of(state, "perishable")
    assert {line["crumbled"] for line in perishable} == {True, False}


def test_the_sample_shows_an_empty_search_a_find_and_a_bought_extra_search(state):
    searches = all_of(state, "searches")
    assert any(s["found"] is None for s in searches)
    assert any(s["found"] is not None for s in searches)
    assert any(s["extra"] for s in searches)
    ledgers = [line for wb in state["warbands"].values() for line in wb["ledger"]]
    assert any(line["amount"] == -3 and "another search" in line["cause"] for line in ledgers)


def test_the_sample_shows_a_convergence_lost_without_advance_and_one_won(state):
    lost, won = [], []
    for battle, wid, report in reports(state):
        if wid in battle["convergence"] and report["map"]:
            if battle["winner"] == wid:
                won.append(report["map"])
            elif battle["winner"] is not None:
                lost.append(report["map"])
    assert lost and all(m["to"] == m["from"] for m in lost)
    assert won and all(m["to"] == m["from"] + 1 for m in won)


def test_the_sample_shows_a_territory_conquered_for_ten_glory(state):
    held = {wid: wb["territories"] for wid, wb in state["warbands"].items() if wb["territories"]}
    assert held
    for wid in held:
        ledger = state["warbands"][wid]["ledger"]
        assert any(line["amount"] == -10 and "conquered" in line["cause"] for line in ledger)


def test_the_sample_shows_an_artefact_of_power_and_a_command_trait_gained(state):
    rewards = [r["reward"] for _, _, r in reports(state) if r["reward"]]
    for kind in ("artefact", "trait"):
        assert any(r["kind"] == kind for r in rewards)
    held = [
        f
        for wb in state["warbands"].values()
        for f in wb["fighters"].values()
        if f["artefact_of_power"]
    ]
    assert held


def test_the_sample_shows_a_favoured_warrior_who_dies_and_loses_its_trait(state, sample):
    history = sample[2]
    favoured = {
        (wid, r["reward"]["fighter"])
        for _, wid, r in reports(state)
        if r["reward"] and r["reward"].get("favoured")
    }
    assert favoured
    dead = [(wid, fid) for wid, fid in favoured if fighter(state, wid, fid)["status"] == "dead"]
    assert dead
    for wid, fid in dead:
        f = fighter(state, wid, fid)
        assert f["command_trait"] is None and not f["favoured"]
        assert state["warbands"][wid]["favoured"] is None
    # the audit log says so: a trait given as favoured warrior, then a killing injury roll
    words = [e.words for e in history]
    assert any("as favoured warrior" in w for w in words)
    assert any("was slain" in w for w in words)


def test_the_sample_has_a_voided_event_with_its_reason(sample):
    history = sample[2]
    voided = [e for e in history if e.voided_by is not None]
    assert voided
    voids = {e.event.version: e for e in history if e.event.type == "EventVoided"}
    for entry in voided:
        void = voids[entry.voided_by]
        assert void.event.data["version"] == entry.event.version
        assert void.event.data["reason"]
    # the voided event left no trace in the state: the fighter stands as recorded again
    [slip] = [e.event for e in voided]
    state = sample[1].state
    fighter_ = state["warbands"][slip.data["warband"]]["fighters"][slip.data["fighter"]]
    assert fighter_["added"] != slip.version


# Every Warcry event type, as the audit log tells the first of it in the sample.
SAID = {
    "WarbandFounded": "Alice founded Ironjaws, a warband of the Cinderborn Reavers",
    "FighterAdded": "Varka Ironjaw joined Ironjaws as its leader (220 points)",
    "FighterRemoved": "Dusk left Crowmarch: retired to the rookery",
    "ReinforcementsBought": (
        "Crowmarch bought 20 points of reinforcements for 2 glory, to muster against Ironjaws"
    ),
    "BattleFought": (
        "Battle b1 (Ambush at Blackwater Ford): Ironjaws against Crowmarch, Ironjaws won"
    ),
    "TerritoryConquered": "Ironjaws conquered The Sunken Mill for 10 glory",
    "AftermathStepCompleted": "Ironjaws completed step 1 (earning and spending glory)",
    "InjuryRolled": "Ironjaws' Brannoc was slain: injury roll 1+1",
    "DestinyRolled": (
        "Ironjaws' Varka Ironjaw caught the gods' eye and gained a destiny level: destiny roll 6"
    ),
    "SearchRolled": "Ironjaws searched the battlefield and found nothing: search roll 13",
    "ArtefactGiven": "Crowmarch gave the Flask of Red Brine to Threnody",
    "PerishableRolled": "The Moth-Glass Charm of Ironjaws' Grenn the Hook held: roll 5",
    "ArtefactUsed": "Crowmarch's Threnody used up the Flask of Red Brine",
    "ArtefactDiscarded": (
        "Crowmarch's Ilse Quill discarded the lesser artefact Rune-Scratched Buckler"
    ),
    "ArtefactPassed": (
        "Ironjaws' Varka Ironjaw passed the Cinder Blade to Odo Cinderhand to make room for "
        "a new one"
    ),
    "ArtefactOfPowerGained": "Ironjaws' Varka Ironjaw gained the artefact of power Cinder Blade",
    "CommandTraitGained": "Ironjaws gained the command trait Ember-Tongued: given to its leader",
    "QuestBegun": (
        "Ironjaws began the quest The Drowned Bell, back at its start (1 quest completed)"
    ),
}


def test_every_warcry_event_reads_in_the_audit_log_as_a_sentence_a_player_would_say(sample):
    history = sample[2]
    first = {}
    for entry in history:
        if entry.voided_by is None and entry.event.type in system.events:
            first.setdefault(entry.event.type, entry.words)
            words = entry.words
            assert words != entry.event.type and words[0].isupper(), words
            assert "None" not in words and "  " not in words and not words.endswith(":"), words
    assert first == SAID


def test_the_sample_uses_factions_profiles_and_a_custom_fighter(state):
    iron, crow = state["warbands"]["ironjaws"], state["warbands"]["crowmarch"]
    assert iron["faction_id"] == "cinderborn-reavers" and crow["faction_id"] == "gloamfeather-court"
    fighters = [f for wb in (iron, crow) for f in wb["fighters"].values()]
    assert any(f["profile"] for f in fighters) and any(not f["profile"] for f in fighters)


def test_the_sample_musters_within_its_limit_and_buys_reinforcements(sample, state):
    history = sample[2]
    assert any(e.event.type == "ReinforcementsBought" for e in history)
    left_home = [
        (battle["id"], wid)
        for battle in state["battles"]
        for wid in battle["warbands"]
        if len(battle["sides"][wid]["fighters"]) < len(state["warbands"][wid]["active"])
    ]
    assert left_home  # a warband outgrew the points limit and left fighters at home


def test_the_sample_has_a_convergence_fought_by_an_aspirant_and_an_adversary(state):
    fought = [b for b in state["battles"] if len(b["convergence"]) == 1 and b["adversary"]]
    assert fought
    searches = [
        s
        for b in fought
        for s in system.views.report(state, b, b["adversary"])["searches"]
        if s["adversary"]
    ]
    assert searches  # the Adversary searched once more


def test_the_sample_has_a_finished_quest_and_a_second_begun(state):
    iron = state["warbands"]["ironjaws"]
    assert iron["quests_completed"] == ["ember-crown"] and iron["quest"] == "drowned-bell"
    assert any(r["quest_reward"] for _, _, r in reports(state))
