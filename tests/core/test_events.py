def test_a_copy_for_the_rules_is_its_own_and_shares_only_what_cannot_change():
    from tracker.events import copied
    from tracker.systems.i18n import Texts, _

    said = _("%(warband)s gained %(glory)s glory", warband="Iron", glory=2)
    texts = Texts("Ash", {"pl": "Popiół"})
    state = {
        "warbands": {"iron": {"ledger": [{"cause": said}], "name": texts, "pair": (1, 2)}},
        "big": 2**70,
        "half": 0.5,
        "none": None,
    }
    copy = copied(state)
    assert copy == {**state, "warbands": {"iron": {**state["warbands"]["iron"], "pair": [1, 2]}}}
    iron, theirs = copy["warbands"]["iron"], state["warbands"]["iron"]
    assert iron is not theirs and iron["ledger"] is not theirs["ledger"]
    assert iron["ledger"][0] is not theirs["ledger"][0]
    assert iron["ledger"][0]["cause"] is said and iron["name"] is texts  # words, shared
    iron["ledger"].append({"cause": "more"})
    assert len(theirs["ledger"]) == 1
