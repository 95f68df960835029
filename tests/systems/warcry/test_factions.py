"""Factions and fighter profiles as content: a warband's fighters come from its faction."""

from tracker.systems.warcry import system


def reavers(c, wid="reav", fighters=("soot-brute", "hookwielder", "ash-runner")):
    """A warband of the sample pack's Cinderborn Reavers, its fighters from profiles."""
    c.do("WarbandFounded", warband=wid, name="Reavers", player="Ana", faction="cinderborn-reavers")
    c.do(
        "FighterAdded",
        warband=wid,
        fighter=f"{wid}-chief",
        name="Chief",
        profile="reaver-chieftain",
    )
    for n, profile in enumerate(fighters):
        c.do("FighterAdded", warband=wid, fighter=f"{wid}-{n}", name=f"Reaver {n}", profile=profile)
    return c


def test_a_warband_is_founded_from_a_faction_of_the_content(new_campaign):
    c = new_campaign()
    c.do("WarbandFounded", warband="a", name="A", player="Ana", faction="cinderborn-reavers")
    c.do("WarbandFounded", warband="b", name="B", player="Ben", faction="gloamfeather COURT")
    assert c.wb("a")["faction"] == "Cinderborn Reavers" and c.wb("a")["faction_id"]
    assert c.wb("b")["faction_id"] == "gloamfeather-court"
    assert set(system.views.profiles(c.state, c.wb("a"))) >= {"reaver-chieftain", "soot-brute"}


def test_a_fighter_added_from_a_profile_takes_its_runemarks_and_points(new_campaign):
    c = reavers(new_campaign())
    chief = c.fighter("reav", "reav-chief")
    assert chief["points"] == 220 and chief["leader"] and chief["profile"] == "reaver-chieftain"
    assert chief["runemarks"] == ["leader", "ember", "brute", "cinderborn"]
    assert c.fighter("reav", "reav-2")["points"] == 90


def test_a_fighter_comes_only_from_its_own_factions_profiles(new_campaign):
    c = reavers(new_campaign())
    words = c.refused("FighterAdded", warband="reav", fighter="x", name="X", profile="tidehand")
    assert words.startswith("the Cinderborn Reavers faction has no fighter profile 'tidehand'")


def test_a_fighter_from_a_profile_takes_no_runemarks_or_points_of_its_own(new_campaign):
    c = reavers(new_campaign())
    words = c.refused(
        "FighterAdded", warband="reav", fighter="x", name="X", profile="soot-brute", points=5
    )
    assert "which gives its runemarks and points" in words


def test_a_custom_fighter_needs_its_runemarks_and_points(new_campaign):
    c = reavers(new_campaign())
    words = c.refused("FighterAdded", warband="reav", fighter="x", name="Odd", points=50)
    assert words.startswith(
        "a custom fighter needs its runemarks and points (Odd lacks its runemarks)"
    )
    c.do("FighterAdded", warband="reav", fighter="x", name="Odd", runemarks=["ember"], points=50)
    assert c.fighter("reav", "x")["runemarks"] == ["ember", "cinderborn"]


def test_a_fighter_of_a_faction_of_the_content_belongs_to_it(new_campaign):
    c = reavers(new_campaign())
    words = c.refused(
        "FighterAdded",
        warband="reav",
        fighter="x",
        name="X",
        runemarks=["ember"],
        points=10,
        faction="Gloamfeather Court",
    )
    assert "belongs to the Cinderborn Reavers faction, not Gloamfeather Court" in words
    c.do(
        "FighterAdded",
        warband="reav",
        fighter="x",
        name="X",
        runemarks=["ember"],
        points=10,
        faction="CINDERBORN reavers",
    )


def test_a_second_leader_from_a_profile_is_refused(new_campaign):
    c = reavers(new_campaign())
    words = c.refused(
        "FighterAdded", warband="reav", fighter="x", name="X", profile="reaver-chieftain"
    )
    assert words == "at most one fighter bears the leader runemark: Reavers already has Chief"


def test_a_leader_comes_only_from_a_profile_bearing_the_leader_runemark(new_campaign):
    c = new_campaign()
    c.do(
        "WarbandFounded", warband="reav", name="Reavers", player="Ana", faction="cinderborn-reavers"
    )
    words = c.refused(
        "FighterAdded", warband="reav", fighter="x", name="X", profile="soot-brute", leader=True
    )
    assert words == (
        "the leader comes from a profile bearing the leader runemark, and the Soot Brute "
        "profile does not"
    )


def test_runemarks_compare_whatever_their_case(campaign):
    campaign.do(
        "FighterAdded",
        warband="iron",
        fighter="x",
        name="Shouty",
        runemarks=["EMBER", "Brute", "brute"],
        points=10,
    )
    assert campaign.fighter("iron", "x")["runemarks"] == ["EMBER", "Brute"]
    words = campaign.refused(
        "FighterAdded",
        warband="iron",
        fighter="y",
        name="Y",
        runemarks=["ember", "Leader"],
        points=1,
    )
    assert words.startswith("the fighter who bears the leader runemark is the leader")
