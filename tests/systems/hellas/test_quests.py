"""Quests: undertaken on entering their Region when the hero meets the needs, step by step."""

from tracker.systems.hellas import system


def _to_melanthe_and_undertake(table):
    table.start()
    table.play("HeroMoved", player="ann", path=["melanthe"])
    table.play("QuestUndertaken", player="ann", quest="oracle-stair")


def test_quest_tokens_stand_on_the_board_from_the_content(table):
    table.start()
    assert table.game["quests"]["oracle-stair"] == {
        "region": "melanthe",
        "hero": None,
        "step": 0,
        "done_by": None,
    }
    assert set(table.game["quests"]) == set(table.state["content"]["quests"])


def test_a_hero_undertakes_a_quest_on_entering_its_region(table):
    _to_melanthe_and_undertake(table)
    assert table.game["heroes"]["ann"]["quest"] == "oracle-stair"
    assert table.game["quests"]["oracle-stair"]["hero"] == "ann"
    assert table.words() == "Ann's hero undertook the quest The Oracle's Stair in Melanthe"


def test_a_hero_standing_in_a_quest_region_without_entering_it_does_not_undertake_it(table):
    table.start(heroes={"ann": "melanthe", "bo": "phlios"})
    table.refuses(
        "QuestUndertaken",
        "a hero undertakes a quest on entering its region (Ann's hero did not end a move in "
        "Melanthe this turn)",
        player="ann",
        quest="oracle-stair",
    )


def test_a_hero_passing_through_a_quest_region_does_not_undertake_it(table):
    table.start()
    table.game["heroes"]["ann"]["speed"] = 2
    table.play("HeroMoved", player="ann", path=["melanthe", "skiathe"])
    table.refuses(
        "QuestUndertaken",
        "did not end a move in Melanthe this turn",
        player="ann",
        quest="oracle-stair",
    )


def test_a_quest_needs_the_attributes_it_names(table):
    table.start(heroes={"ann": "skiathe", "bo": "phlios"})
    table.play("HeroMoved", player="ann", path=["kopais"])
    table.refuses(
        "QuestUndertaken",
        "The Sleeping Bronze Giant needs Strength 2 (Ann's hero has 1)",
        player="ann",
        quest="bronze-giant",
    )
    table.game["heroes"]["ann"]["strength"] = 2
    assert system.views.choices(table.state, "ann")["quests_open"] == ["bronze-giant"]
    table.play("QuestUndertaken", player="ann", quest="bronze-giant")


def test_a_hero_on_a_quest_takes_a_step_a_turn_in_place_of_its_move(table):
    _to_melanthe_and_undertake(table)
    table.refuses(
        "QuestAdvanced",
        "each kind of normal action is taken once a turn (Ann already moved the hero or took a "
        "quest step this turn)",
        player="ann",
    )
    table.pray_and_end("ann")
    table.pray_and_end("bo")
    table.refuses(
        "HeroMoved",
        "a hero on a quest takes its next step instead of moving (Ann's hero is on The "
        "Oracle's Stair)",
        player="ann",
        path=["korythos"],
    )
    table.play("QuestAdvanced", player="ann")
    assert table.game["quests"]["oracle-stair"]["step"] == 1
    assert table.words() == "Ann's hero took step 1 of The Oracle's Stair: climb the thousand steps"


def test_the_last_step_ends_the_quest_takes_its_token_off_and_gives_its_rewards(table):
    _to_melanthe_and_undertake(table)
    table.pray_and_end("ann")
    table.pray_and_end("bo")
    table.play("QuestAdvanced", player="ann")
    table.play("HoplitesRecruited", player="ann", placed=[{"region": "korythos", "count": 1}])
    table.play("TurnEnded", player="ann")
    table.play("HoplitesRecruited", player="bo", placed=[{"region": "phlios", "count": 1}])
    table.play("TurnEnded", player="bo")
    table.play("QuestAdvanced", player="ann")
    token = table.game["quests"]["oracle-stair"]
    assert token["done_by"] == "ann" and token["hero"] is None
    assert table.game["heroes"]["ann"]["quest"] is None
    assert table.game["quests_done"]["ann"] == ["oracle-stair"]
    assert [(g["kind"], g.get("attribute")) for g in table.game["grants"]] == [
        ("temple", None),
        ("attribute", "leadership"),
    ]
    assert table.words().endswith("answer the blind priestess; the quest is done")
    table.play("TempleBuilt", player="ann", region="melanthe")
    table.play("HeroAttributeChanged", player="ann", attribute="leadership", value=2)
    assert table.region("melanthe")["temple"] and table.game["heroes"]["ann"]["leadership"] == 2


def test_a_quest_done_leaves_the_board(table):
    table.start()
    table.game["quests"]["oracle-stair"]["done_by"] = "bo"
    table.play("HeroMoved", player="ann", path=["melanthe"])
    table.refuses(
        "QuestUndertaken",
        "The Oracle's Stair was done by Bo: its token left the board",
        player="ann",
        quest="oracle-stair",
    )


def test_a_hero_undertakes_one_quest_at_a_time_and_a_quest_takes_one_hero(table):
    table.start()
    table.game["quests"]["oracle-stair"]["hero"] = "bo"
    table.play("HeroMoved", player="ann", path=["melanthe"])
    table.refuses(
        "QuestUndertaken",
        "Bo's hero is on The Oracle's Stair already",
        player="ann",
        quest="oracle-stair",
    )


def test_a_quest_reward_of_priests_comes_at_once(table):
    table.start(heroes={"ann": "aigialos", "bo": "phlios"})
    table.play("HeroMoved", player="ann", path=["pellane"])
    table.play("QuestUndertaken", player="ann", quest="drowned-bell")
    table.pray_and_end("ann")
    table.pray_and_end("bo")
    table.play("QuestAdvanced", player="ann")  # one step only
    assert table.game["priests"]["ann"] == 3
    assert table.game["grants"] == [
        {
            "kind": "attribute",
            "player": "ann",
            "source": "the quest The Drowned Bell",
            "attribute": "strength",
        }
    ]
