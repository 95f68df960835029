"""Step 6 of the aftermath: progress on the campaign map, the quest's goal and the next quest."""

from tracker.systems.warcry import system


def test_each_aftermath_moves_the_warband_one_step_on_the_campaign_map(campaign):
    campaign.battle()
    campaign.finish("iron").finish("crow")
    assert campaign.wb("iron")["map_position"] == 1 and campaign.wb("crow")["map_position"] == 1


def test_a_warband_that_lost_a_battle_at_its_convergence_point_does_not_move(campaign):
    c = campaign.at_convergence()
    c.battle(bid="b9", winner="iron", convergence=["iron", "crow"])
    c.finish("iron").finish("crow")
    assert c.wb("crow")["map_position"] == 3 and c.wb("iron")["map_position"] == 4
    report = c.report("crow")["map"]
    assert report["why"].startswith("lost a battle at its convergence point")


def test_a_draw_at_a_convergence_point_still_moves_the_warband(campaign):
    c = campaign.at_convergence()
    c.battle(bid="b9", winner=None, convergence=["crow"])
    c.finish("crow")
    assert c.wb("crow")["map_position"] == 4


def test_a_battle_at_a_convergence_point_needs_the_warband_to_stand_on_one(campaign):
    words = campaign.refused(
        "BattleFought",
        battle="b1",
        winner="iron",
        convergence=["iron"],
        sides=[
            {"warband": "iron", "fighters": ["iron-boss", "iron-1", "iron-2"]},
            {"warband": "crow", "fighters": ["crow-boss", "crow-1", "crow-2"]},
        ],
    )
    assert words == "Ironjaws is at The Cinder Gate, not at a convergence point"


def test_reaching_the_goal_completes_the_quest_gives_its_reward_and_ends_the_advance(campaign):
    c = campaign
    for n in range(11):
        c.battle(bid=f"b{n}").finish("iron").finish("crow")
    wb = c.wb("iron")
    assert wb["map_position"] == 11 and wb["quest_complete"]
    assert wb["ledger"][-1]["cause"] == "completed the quest The Ember Crown"
    c.battle(bid="b99").finish("iron")
    assert wb["map_position"] == 11


def complete_the_quest(c, first=0):
    """Eleven battles: Ironjaws win each and reach the goal of their quest."""
    for n in range(first, first + 11):
        c.battle(bid=f"b{n}").finish("iron").finish("crow")
    assert c.wb("iron")["quest_complete"]
    return c


def test_a_new_quest_keeps_the_roster_and_starts_again_from_the_start(campaign):
    c = campaign
    assert "only once its quest is complete" in c.refused(
        "QuestBegun", warband="iron", quest="drowned-bell"
    )
    complete_the_quest(c)
    fighters = dict(c.wb("iron")["fighters"])
    faction = (c.wb("iron")["faction"], c.wb("iron")["faction_runemark"])
    c.do("QuestBegun", warband="iron", quest="drowned-bell")
    wb = c.wb("iron")
    assert wb["map_position"] == 0 and not wb["quest_complete"]
    assert wb["fighters"] == fighters and (wb["faction"], wb["faction_runemark"]) == faction
    assert wb["quests_completed"] == ["ember-crown"] and wb["quest"] == "drowned-bell"


def test_a_new_quest_wipes_territories_and_glory(campaign):
    c = complete_the_quest(campaign)
    c.wb("iron")["territories"] = ["Mill", "Ford"]
    glory = c.wb("iron")["glory"]
    assert glory > 0
    c.do("QuestBegun", warband="iron", quest="drowned-bell")
    wb = c.wb("iron")
    assert wb["glory"] == 0 and wb["territories"] == []
    assert wb["ledger"][-1] == {
        "version": c.version,
        "amount": -glory,
        "cause": "began the quest The Drowned Bell",
        "balance": 0,
    }


def test_a_new_quest_leaves_the_muster_without_the_old_territories_bonus(campaign):
    c = complete_the_quest(campaign)
    c.wb("iron")["territories"] = ["Mill", "Ford"]
    assert system.views.muster_limit(c.state, c.wb("iron")) == 1100
    c.do("QuestBegun", warband="iron", quest="drowned-bell")
    assert system.views.muster_limit(c.state, c.wb("iron")) == 1000


def test_a_completed_quest_cannot_be_begun_again(campaign):
    c = complete_the_quest(campaign)
    assert c.refused("QuestBegun", warband="iron", quest="ember-crown") == (
        "a warband never begins again a quest it has completed: Ironjaws has completed "
        "The Ember Crown"
    )
    c.do("QuestBegun", warband="iron", quest="drowned-bell")
    complete_the_quest(c, first=11)
    for quest, title in (("ember-crown", "The Ember Crown"), ("drowned-bell", "The Drowned Bell")):
        assert c.refused("QuestBegun", warband="iron", quest=quest).endswith(
            f"Ironjaws has completed {title}"
        )
    c.do("QuestBegun", warband="iron", quest="salt-road")
    assert c.wb("iron")["quests_completed"] == ["ember-crown", "drowned-bell"]


def test_an_old_log_keeps_glory_and_territories_on_a_new_quest_and_may_begin_one_again(
    old_campaign,
):
    c = complete_the_quest(old_campaign)
    c.wb("iron")["territories"] = ["Mill"]
    glory = c.wb("iron")["glory"]
    c.do("QuestBegun", warband="iron", quest="ember-crown")
    wb = c.wb("iron")
    assert wb["quests_completed"] == ["ember-crown"] and wb["quest"] == "ember-crown"
    assert wb["glory"] == glory and wb["territories"] == ["Mill"]
    assert wb["map_position"] == 0 and not wb["quest_complete"]
    assert system.views.muster_limit(c.state, wb) == 1050


def test_a_plain_map_point_gives_no_reward(campaign):
    campaign.battle().finish("crow")
    campaign.to_step("iron", 5)
    campaign.do("SearchRolled", warband="iron", dice=[1, 1])
    campaign.do("AftermathStepCompleted", warband="iron", step=5)
    assert campaign.wb("iron")["map_position"] == 1  # Blackwater Ford, plain
    assert campaign.wb("iron")["aftermath"] is None
    words = campaign.refused(
        "ArtefactOfPowerGained", warband="iron", fighter="iron-1", artefact="cinder-blade"
    )
    assert "Ironjaws is not in a battle's aftermath, and" in words


def test_the_quests_a_page_offers_are_those_the_rules_let_a_warband_begin(campaign):
    from tracker.systems.warcry import views

    c = campaign
    assert views.quests_open(c.state, "iron") == []  # its quest is not complete yet
    complete_the_quest(c)
    offered = [qid for qid, _ in views.quests_open(c.state, "iron")]
    allowed = [
        qid
        for qid in c.state["content"]["quests"]
        if system.allows(c.state, "QuestBegun", {"warband": "iron", "quest": qid}) is None
    ]
    assert offered == allowed and "ember-crown" not in offered and offered
