"""Step 6 of the aftermath: progress on the campaign map, the quest's goal and the next quest."""


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


def test_a_new_quest_keeps_the_roster_and_starts_again_from_the_start(campaign):
    c = campaign
    assert "only once its quest is complete" in c.refused(
        "QuestBegun", warband="iron", quest="ember-crown"
    )
    for n in range(11):
        c.battle(bid=f"b{n}").finish("iron").finish("crow")
    fighters = dict(c.wb("iron")["fighters"])
    c.do("QuestBegun", warband="iron", quest="ember-crown")
    assert c.wb("iron")["map_position"] == 0 and not c.wb("iron")["quest_complete"]
    assert c.wb("iron")["fighters"] == fighters


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
    assert "Ironjaws is not in one" in words


def test_a_new_quest_keeps_glory_and_territories_and_counts_the_quest_completed(campaign):
    c = campaign
    for n in range(11):
        c.battle(bid=f"b{n}").finish("iron").finish("crow")
    c.wb("iron")["territories"] = ["Mill"]
    glory = c.wb("iron")["glory"]
    c.do("QuestBegun", warband="iron", quest="drowned-bell")
    wb = c.wb("iron")
    assert wb["quests_completed"] == ["ember-crown"] and wb["quest"] == "drowned-bell"
    assert wb["glory"] == glory and wb["territories"] == ["Mill"]
    assert wb["map_position"] == 0 and not wb["quest_complete"]
