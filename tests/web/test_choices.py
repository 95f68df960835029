"""Forms offer only what the rules accept and ask for no internals: the Player filled in,
ids made from names and asked only under "More", a battle's id made when left empty, and one
form for the dice of a step (every roll at one press, or the table's dice typed die by die)."""

import re

from pagetools import form, text, version

WIZARD = "/c/c/wizard?warband=crow"
STEP = "/c/c/step/wizard?warband=crow"


def html(page) -> str:
    return page.get_data(as_text=True)


def folded(page, name: str) -> bool:
    """Whether the input `name` is inside a folded "More" (a <details> not open)."""
    for block in re.findall(
        r"<details class=\"more[^\"]*\"([^>]*)>(.*?)</details>", html(page), re.S
    ):
        if f'name="{name}"' in block[1]:
            return "open" not in block[0]
    return False


def battle(client, svc, down=("crow-1", "crow-2"), **fields):
    data = form(
        "BattleFought",
        version(svc),
        winner="iron",
        **{
            "sides-0-warband": "iron",
            "sides-0-fighters": [f"iron-{i}" for i in range(4)],
            "sides-0-taken_down-present": "1",
            "sides-1-warband": "crow",
            "sides-1-fighters": [f"crow-{i}" for i in range(4)],
            "sides-1-taken_down": list(down),
            "sides-1-taken_down-present": "1",
            "convergence-present": "1",
        },
        **fields,
    )
    return client.post("/c/c/battle-new", data=data)


def test_the_player_field_holds_the_signed_in_players_name(client, two, svc):
    page = client.get("/c/c/")
    found = re.search(r'<input name="player" required[^>]*value="([^"]*)"', html(page))
    assert found and found.group(1) == "org"


def test_ids_are_asked_only_under_more_and_made_from_names(client, two, svc):
    assert folded(client.get("/c/c/"), "warband")
    warband = client.get("/c/c/warband?warband=iron")
    assert folded(warband, "fighter")
    assert "Short id" not in text(warband).split("More")[0][-200:]
    assert folded(client.get("/c/c/battle-new"), "battle")
    made = client.post(
        "/c/c/",
        data=form("WarbandFounded", version(svc), name="Salt Hounds", player="org", faction="X"),
    )
    assert made.status_code == 302 and "salt-hounds" in svc.state("c").state["warbands"]


def test_a_battle_left_without_an_id_is_given_the_next_free_one(client, two, svc):
    page = client.get("/c/c/battle-new")
    assert 'placeholder="b1"' in html(page) and "Left empty, the battle is called b1." in text(page)
    assert battle(client, svc).status_code == 302
    assert "b1" in svc.state("c").state["battle_ids"]


def test_a_battle_id_typed_under_more_is_kept(client, two, svc):
    assert battle(client, svc, battle="skirmish").status_code == 302
    assert "skirmish" in svc.state("c").state["battle_ids"]


def test_a_step_of_several_rolls_has_one_dice_form(client, two, svc):
    battle(client, svc)
    client.post(WIZARD, data=form("AftermathStepCompleted", version(svc), warband="crow", step="1"))
    page = html(client.get(WIZARD))
    assert page.count('name="dice-mode" value="server"') == 1
    assert page.count('name="dice-mode" value="table"') == 1
    assert page.count('<form method="post" action="/c/c/step/wizard') == 1
    assert 'class="roll"' not in page  # no form for each fighter besides it
    for row in (0, 1):  # every owed roll's dice, die by die
        assert f'name="e-{row}-dice-0"' in page and f'name="e-{row}-dice-1"' in page


def step_form(svc, mode: str, dice=None) -> dict:
    data = {"expected_version": str(version(svc)), "form_id": "all-InjuryRolled"}
    data["dice-mode"] = mode
    for row, fid in enumerate(("crow-1", "crow-2")):
        data.update({f"e-{row}-type": "InjuryRolled", f"e-{row}-warband": "crow"})
        data[f"e-{row}-fighter"] = fid
        for die, face in enumerate((dice or {}).get(fid, ())):
            data[f"e-{row}-dice-{die}"] = str(face)
    return data


def injuries(svc) -> dict:
    events = [svc.store.event("c", v) for v in range(1, version(svc) + 1)]
    return {e.data["fighter"]: e for e in events if e.type == "InjuryRolled"}


def test_every_roll_of_a_step_at_one_press(client, two, svc):
    battle(client, svc)
    client.post(WIZARD, data=form("AftermathStepCompleted", version(svc), warband="crow", step="1"))
    before = version(svc)
    assert client.post(STEP, data=step_form(svc, "server")).status_code == 302
    assert version(svc) == before + 2
    rolled = injuries(svc)
    assert set(rolled) == {"crow-1", "crow-2"}
    assert all(e.meta["source"] == "server-roll" for e in rolled.values())


def test_the_tables_dice_typed_on_the_step_form_are_each_recorded_as_typed(client, two, svc):
    battle(client, svc)
    client.post(WIZARD, data=form("AftermathStepCompleted", version(svc), warband="crow", step="1"))
    typed = {"crow-1": (6, 5), "crow-2": (4, 6)}
    assert client.post(STEP, data=step_form(svc, "table", typed)).status_code == 302
    rolled = injuries(svc)
    assert {fid: tuple(e.data["dice"]) for fid, e in rolled.items()} == typed
    assert all(e.meta["source"] == "table-roll" for e in rolled.values())


def test_a_die_out_of_range_on_the_step_form_is_refused_in_words_and_nothing_written(
    client, two, svc
):
    battle(client, svc)
    client.post(WIZARD, data=form("AftermathStepCompleted", version(svc), warband="crow", step="1"))
    before = version(svc)
    page = client.post(STEP, data=step_form(svc, "table", {"crow-1": (7, 2), "crow-2": (3, 3)}))
    assert page.status_code == 422 and version(svc) == before
    assert "shows 1 to 6, not 7" in text(page)
    assert "Traceback" not in text(page)
