"""Claim, Leaders, Monsters and Lords of Hellas: ids asked only under "More" and made when left
empty, choices the rules refuse not offered (and still refused when posted, nothing written),
and the reader's own side chosen where a form asks who acts."""

import re

import pytest
from pagetools import form, member, text, version

from tracker import config

FEUD = config.SAMPLES / "monsters-twin-peaks-feud.jsonl"

GAMES = {
    "claim": {"settings-deck": "standard"},
    "leaders": {},
    "monsters": {},
    "hellas": {},
}


def html(page) -> str:
    return page.get_data(as_text=True)


def more_blocks(markup: str) -> list[tuple[bool, str]]:
    """Each folded "More" of `markup`: (whether it is open, what it holds)."""
    found = re.findall(r"<details class=\"more\"([^>]*)>(.*?)</details>", markup, re.S)
    return [("open" in attributes, body) for attributes, body in found]


def folded(markup: str, name: str) -> bool:
    """Whether every input `name` of `markup` is inside a "More" that is not open."""
    inside = [is_open for is_open, body in more_blocks(markup) if f'name="{name}"' in body]
    return bool(inside) and not any(inside) and markup.count(f'name="{name}"') == len(inside)


def start_form_of(markup: str, system: str) -> str:
    """The start form of `system` on the front page."""
    forms = markup.split('<details class="card"')
    return next(f for f in forms if f'name="system" value="{system}"' in f)


def start(client, system: str, ids=("", ""), names=("Ann Lee", "Bo")) -> object:
    data = {"system": system, "name": f"{system} evening", **GAMES[system]}
    for i, (pid, name) in enumerate(zip(ids, names, strict=True)):
        data[f"settings-players-{i}-id"] = pid
        data[f"settings-players-{i}-name"] = name
    return client.post("/campaigns", data=data)


# -- ids ------------------------------------------------------------------------------------


@pytest.mark.parametrize("system", sorted(GAMES))
def test_a_start_form_asks_the_players_ids_only_under_more(client, system):
    markup = start_form_of(html(client.get("/")), system)
    assert 'name="settings-players-0-name"' in markup
    assert folded(markup, "settings-players-0-id") and folded(markup, "settings-players-1-id")
    assert 'name="settings-players-0-id" required' not in markup


@pytest.mark.parametrize("system", sorted(GAMES))
def test_players_left_without_ids_are_given_ids_made_from_their_names(client, svc, system):
    page = start(client, system)
    assert page.status_code == 302, text(page)[-600:]
    players = svc.store.event(f"{system}-evening", 1).data["settings"]["players"]
    assert [p["id"] for p in players] == ["ann-lee", "bo"]


@pytest.mark.parametrize("system", sorted(GAMES))
def test_a_bad_player_id_typed_under_more_is_refused_with_more_open(client, svc, system):
    page = start(client, system, ids=("Not An Id!", ""))
    assert page.status_code == 422
    markup = start_form_of(html(page), system)
    opened = [body for is_open, body in more_blocks(markup) if is_open]
    assert len(opened) == 1 and 'name="settings-players-0-id"' in opened[0]
    assert 'class="field-error"' in opened[0]
    assert svc.store.event(f"{system}-evening", 1) is None


def duel(svc, system: str, cid: str) -> str:
    players = [{"id": "ann", "name": "Ann"}, {"id": "bo", "name": "Bo"}]
    svc.start(cid, system, "Ann against Bo", {"players": players})
    return cid


def test_a_match_left_without_an_id_is_given_the_next_free_one(client, svc):
    duel(svc, "leaders", "l")
    page = client.get("/c/l/")
    assert folded(html(page), "match") and 'placeholder="match-1"' in html(page)
    assert "Left empty, the match is called match-1." in text(page)
    sent = client.post("/c/l/", data=form("MatchStarted", version(svc, "l"), match="", mode=""))
    assert sent.status_code == 302
    assert svc.store.event("l", version(svc, "l")).data["match"] == "match-1"


def test_a_monster_battle_left_without_an_id_is_given_the_next_free_one(client, svc):
    duel(svc, "monsters", "m")
    page = client.get("/c/m/battle")
    assert folded(html(page), "battle") and "Left empty, the battle is called b1." in text(page)
    data = form("BattleBegun", version(svc, "m"), battle="", map="twin-peaks", first="ann")
    assert client.post("/c/m/battle", data=data).status_code == 302
    assert svc.store.event("m", version(svc, "m")).data["battle"] == "b1"


def test_a_game_of_hellas_left_without_an_id_is_given_the_next_free_one(client, svc):
    duel(svc, "hellas", "h")
    page = client.get("/c/h/play")
    assert folded(html(page), "game") and "Left empty, the game is called game-1." in text(page)
    data = form("GameStarted", version(svc, "h"), game="", order=["ann", "bo"], king_of_kings="")
    assert client.post("/c/h/play", data=data).status_code == 302
    assert svc.store.event("h", version(svc, "h")).data["game"] == "game-1"


def lines_until(svc, count: int) -> str:
    """The monster battles sample's first `count` events imported."""
    svc.import_lines(FEUD.read_text(encoding="utf-8").splitlines()[:count])
    return "twin-peaks-feud"


# -- choices the rules refuse ------------------------------------------------------------------


def options(markup: str, name: str) -> list[str]:
    """The values a select `name` of `markup` offers (the first such select)."""
    found = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', markup, re.S)
    return re.findall(r'<option value="([^"]*)"', found.group(1)) if found else []


def append(svc, cid, *events):
    for type_, data in events:
        svc.append(cid, [{"type": type_, "data": data}], version(svc, cid))


def test_a_leader_already_taken_is_not_offered_and_is_refused_when_posted(client, svc):
    duel(svc, "leaders", "l")
    append(svc, "l", ("MatchStarted", {"match": "m1", "mode": "standard"}))
    taken = options(html(client.get("/c/l/match")), "leader")[0]
    append(svc, "l", ("LeaderChosen", {"player": "ann", "leader": taken}))
    offered = options(html(client.get("/c/l/match")), "leader")
    assert offered and taken not in offered
    before = version(svc, "l")
    data = form("LeaderChosen", before, form_id="leader-bo", player="bo", leader=taken)
    page = client.post("/c/l/match", data=data)
    assert page.status_code == 422 and version(svc, "l") == before


def test_a_temple_is_offered_only_where_the_rules_let_it_be_built(client, svc):
    duel(svc, "hellas", "h")
    setup = {
        "game": "g1",
        "order": ["ann", "bo"],
        "heroes": {"ann": "korythos", "bo": "phlios"},
        "hoplites": {"ann": {"korythos": 3, "melanthe": 2}, "bo": {"phlios": 3, "nemessa": 2}},
        "monsters": {"boar": "eirinos", "harpy": "thyrea"},
        "hands": {"ann": ["helm-1", "spear-1"], "bo": ["shield-2", "spear-1"]},
    }
    append(svc, "h", ("GameStarted", setup))
    append(
        svc,
        "h",
        ("MonumentBuilt", {"player": "ann", "monument": "zeus"}),
        ("MonsterPhaseResolved", {"player": "ann", "card": "red-comet"}),
        ("EventResolved", {"player": "ann"}),
    )
    sites = options(html(client.get("/c/h/play")), "region")
    assert "melanthe" in sites and "eirinos" not in sites  # Ann does not control Eirinos
    view = svc.state("h")
    for site in sites:
        assert (
            view.system.allows(view.state, "TempleBuilt", {"player": "ann", "region": site}) is None
        )
    before = version(svc, "h")
    data = form("TempleBuilt", before, form_id="grant-0", player="ann", region="eirinos")
    page = client.post("/c/h/play", data=data)
    assert page.status_code == 422 and version(svc, "h") == before
    assert "Ann does not control Eirinos" in text(page)


def test_a_typed_path_is_offered_only_for_a_figure_that_may_move(client, svc):
    cid = lines_until(svc, 11)  # every figure placed, the first move to make
    battle = svc.state(cid).state["battle"]
    assert battle["phase"] == "fighting"
    page = html(client.get(f"/c/{cid}/battle"))
    typed = page.split("Type a path instead")[1]
    pieces = options(typed, "piece")
    assert pieces and all(battle["pieces"][p]["side"] == battle["turn"]["side"] for p in pieces)
    still = [p for p, piece in battle["pieces"].items() if piece["pos"] and p not in pieces]
    assert still  # the other side's figures stand on the board, not on offer
    before = version(svc, cid)
    data = form("FigureMoved", before, form_id="move-typed", battle=battle["id"], piece=still[0])
    page = client.post(f"/c/{cid}/battle", data={**data, "path": "1,1"})
    assert page.status_code == 422 and version(svc, cid) == before


# -- the reader's own side ----------------------------------------------------------------------


def test_a_seated_player_concedes_only_for_its_own_side(app, svc):
    cid = lines_until(svc, 11)
    sides = svc.state(cid).state["order"]
    for side in sides:
        seated = member(app, cid, f"sitter-{side}", side=side)
        concede = html(seated.get(f"/c/{cid}/battle")).split("Who concedes?")[1]
        listed = re.findall(r'<option value="([^"]*)"', concede.split("</select>")[0])
        other = sides[1] if side == sides[0] else sides[0]
        assert listed == [other]  # the winner named: the other side
