"""What the roster sheet's cards read of a fighter's profile (`views.profile_shown`): its
name and stat line from the content, nothing for a fighter of its own."""

from test_content_packs import hounds_quest, imported

from tracker.systems.warcry import system


def test_a_card_reads_the_profiles_name_and_stat_line_or_nothing_for_a_fighter_of_its_own(
    new_campaign,
):
    c = hounds_quest(imported(new_campaign()))
    c.do(
        "WarbandFounded",
        warband="hounds",
        name="Hounds",
        player="Ana",
        faction="Cinder Hounds",
        quest="hound-trail",
    )
    c.do("FighterAdded", warband="hounds", fighter="sling", name="Pip", profile="c1a0f003")
    c.do(
        "FighterAdded",
        warband="hounds",
        fighter="stray",
        name="Stray",
        runemarks=["cinder-hounds", "beast"],
        points=60,
    )
    shown = system.views.profile_shown(c.state, c.wb("hounds"), c.fighter("hounds", "sling"))
    assert shown["name"] == "Soot Slinger"
    stats = shown["stats"]
    assert (stats["movement"], stats["toughness"], stats["wounds"]) == (4, 3, 12)
    assert [w["runemark"] for w in stats["weapons"]] == ["sling", "blade"]
    stray = c.fighter("hounds", "stray")
    assert system.views.profile_shown(c.state, c.wb("hounds"), stray) is None


def test_a_pack_profile_without_a_stat_line_still_gives_its_name(new_campaign):
    c = new_campaign()
    c.do(
        "WarbandFounded",
        warband="iron",
        name="Ironjaws",
        player="Ana",
        faction="cinderborn-reavers",
    )
    c.do("FighterAdded", warband="iron", fighter="tulla", name="Tulla", profile="soot-brute")
    shown = system.views.profile_shown(c.state, c.wb("iron"), c.fighter("iron", "tulla"))
    assert shown == {"name": "Soot Brute", "stats": None}
