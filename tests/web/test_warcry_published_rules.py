"""The pages of the published rules: reinforcements offered as the rules sell them, and a new
quest begun from the dashboard once the old one is complete, never a completed one again."""

import importlib.util
import sys
from pathlib import Path

from pagetools import post_form, text, version

WARCRY_TESTS = Path(__file__).resolve().parents[1] / "systems" / "warcry"


def _builder():
    """The rules tests' campaign builder (tests/systems/warcry/conftest.py)."""
    sys.path.insert(0, str(WARCRY_TESTS))
    spec = importlib.util.spec_from_file_location("warcry_builder", WARCRY_TESTS / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _quest_complete(svc):
    """A campaign "c" of today's rules where Ironjaws completed The Ember Crown."""
    built = _builder().Campaign()
    built.warband("iron", "Ironjaws").warband("crow", "Crowmarch")
    for n in range(11):
        built.battle(bid=f"b{n}").finish("iron").finish("crow")
    assert built.wb("iron")["quest_complete"]
    svc.start("c", "warcry", "Published league", {"quest": "ember-crown"}, actor="org")
    events = [{"type": type_, "data": data} for type_, data in built.log]
    svc.append("c", events, 1, actor="org", source="form")
    return built


def test_a_warband_with_its_quest_complete_is_offered_only_quests_it_has_not_completed(client, svc):
    _quest_complete(svc)
    page = client.get("/c/c/")
    body = page.get_data(as_text=True)
    offered = body[body.index('name="quest"', body.index("QuestBegun")) :]
    offered = offered[: offered.index("</select>")]
    assert 'value="drowned-bell"' in offered and 'value="ember-crown"' not in offered
    assert "its territories and its glory" in text(page)


def test_beginning_a_new_quest_from_the_dashboard_wipes_its_glory(client, svc):
    _quest_complete(svc)
    glory = svc.state("c").state["warbands"]["iron"]["glory"]
    assert glory > 0
    page = post_form(client, "/c/c/", svc, "QuestBegun", warband="iron", quest="drowned-bell")
    assert page.status_code == 302
    wb = svc.state("c").state["warbands"]["iron"]
    assert wb["glory"] == 0 and wb["quest"] == "drowned-bell" and wb["territories"] == []


def test_a_completed_quest_posted_anyway_is_refused_in_words_and_writes_nothing(client, svc):
    _quest_complete(svc)
    before = version(svc)
    page = post_form(client, "/c/c/", svc, "QuestBegun", warband="iron", quest="ember-crown")
    assert "a warband never begins again a quest it has completed" in text(page)
    assert version(svc) == before


def test_reinforcements_are_offered_as_fifty_points_for_one_glory_or_a_hundred_for_three(
    client, svc
):
    built = _builder().Campaign()
    built.warband("iron", "Ironjaws").warband("crow", "Crowmarch")
    for n in range(11):
        built.battle(bid=f"b{n}")
        if built.wb("iron")["glory"] >= 10:
            built.do("TerritoryConquered", warband="iron", territory="The Mill")
            built.finish("iron").finish("crow")
            break
        built.finish("iron").finish("crow")
    assert built.wb("iron")["territories"] == ["The Mill"]
    svc.start("c", "warcry", "Published league", {"quest": "ember-crown"}, actor="org")
    svc.append("c", [{"type": t, "data": d} for t, d in built.log], 1, actor="org")
    page = client.get("/c/c/battle-new?a=crow&b=iron")
    said = text(page)
    assert "Crowmarch hold fewer territories than Ironjaws" in said
    assert "50 points for 1 glory" in said and "100 points for 3 glory" in said
    assert "10 points a glory" not in said
    glory = built.wb("crow")["glory"]
    page = post_form(
        client,
        "/c/c/battle-new",
        svc,
        "ReinforcementsBought",
        form_id="reinforce-crow",
        warband="crow",
        against="iron",
        points="50",
    )
    assert page.status_code == 302, text(page)
    assert svc.state("c").state["warbands"]["crow"]["glory"] == glory - 1
