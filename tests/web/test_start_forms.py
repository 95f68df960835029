"""The start form of each game: a bad or a missing value is said once, beside its box, in a
player's words (never marshmallow's, an event type or a field's name in the data), and
nothing is started."""

import html as markup
import re

import pytest
from pagetools import start_form, text

GAMES = {
    "hellas": {"pack": "base"},
    "leaders": {"board": "default"},
    "monsters": {"pack": "standard"},
    "claim": {"deck": "standard"},
}
PLAYERS = [("ann", "Ann"), ("bo", "Bo")]
DATA_WORDS = ("Missing data", "Not a valid", "settings", "players.", "CampaignStarted", "_")


def said(page, words):
    """Where `words` stand on the page: beside a box (field-error) or at the top (error)."""
    html = markup.unescape(page.get_data(as_text=True))
    return re.findall(rf'class="(field-error|error)"[^>]*>\s*{re.escape(words)}', html)


def errors_of(page) -> list[str]:
    html = markup.unescape(page.get_data(as_text=True))
    return re.findall(r'class="(?:field-error|error)"[^>]*>([^<]*)<', html)


@pytest.mark.parametrize("game", GAMES)
def test_a_missing_players_name_is_said_once_beside_its_box_and_nothing_starts(client, svc, game):
    page = client.post(
        "/campaigns",
        data={
            "system": game,
            "name": "Spring League",
            "settings-players-0-id": "ann",
            "settings-players-0-name": "Ann",
            "settings-players-1-id": "bo",
            "settings-players-1-name": "",
            **{f"settings-{k}": v for k, v in GAMES[game].items()},
        },
    )
    assert page.status_code == 422
    assert said(page, "Player 2's name is needed.") == ["field-error"]
    html = page.get_data(as_text=True)
    assert re.search(
        r'name="settings-players-1-name"[^>]*>\s*</label>\s*<span class="field-error"', html
    )
    assert not any(w in " ".join(errors_of(page)) for w in DATA_WORDS), errors_of(page)
    assert not svc.store.exists("spring-league")


@pytest.mark.parametrize("game", GAMES)
def test_a_bad_player_id_is_said_once_beside_its_box_and_nothing_starts(client, svc, game):
    page = start_form(
        client, game, "Spring League", [("ann", "Ann"), ("Bad Id", "Bo")], **GAMES[game]
    )
    assert page.status_code == 422
    found = errors_of(page)
    assert len(found) == 1 and "lower-case letters, digits" in found[0], found
    html = page.get_data(as_text=True)
    assert re.search(
        r'name="settings-players-1-id"[^>]*>\s*</label>\s*<span class="field-error"', html
    )
    assert not any(w in found[0] for w in DATA_WORDS)
    assert 'value="Bad Id"' in html  # what was typed is kept
    assert not svc.store.exists("spring-league")


@pytest.mark.parametrize("game", GAMES)
def test_a_campaign_name_left_out_is_said_by_its_label(client, svc, game):
    page = start_form(client, game, "", PLAYERS, **GAMES[game])
    assert page.status_code == 422
    assert said(page, "The campaign's name must be 1 to 120 characters in length.") == [
        "field-error"
    ]
    assert svc.campaigns() == []


@pytest.mark.parametrize("game", GAMES)
def test_a_choice_the_game_does_not_have_is_said_once_and_nothing_starts(client, svc, game):
    nope = {key: "nope" for key in GAMES[game]}
    page = start_form(client, game, "Spring League", PLAYERS, **nope)
    assert page.status_code == 422
    found = errors_of(page)
    assert found and not any(w in " ".join(found) for w in DATA_WORDS[:4]), found
    assert len(set(found)) == len(found)
    assert not svc.store.exists("spring-league")


def test_the_words_of_a_refused_start_are_not_shown_in_the_success_style(client, svc):
    page = start_form(client, "claim", "Spring League", [("ann", "Ann"), ("ann", "Bo")])
    assert page.status_code == 422
    assert "the two players need different ids" in text(page)
    assert 'class="flashes' not in page.get_data(as_text=True)


# -- playing on from a campaign -----------------------------------------------------------------


def test_playing_on_from_no_event_number_says_so_beside_its_box_and_copies_nothing(
    client, svc, two
):
    before = svc.campaigns()
    page = client.post("/c/c/play-on", data={"upto": "ten", "name": "Ours", "campaign": "ours"})
    assert page.status_code == 422
    assert said(page, "Play on from an event number, such as 11, not 'ten'.") == ["field-error"]
    html = page.get_data(as_text=True)
    assert re.search(r'name="upto"[^>]*></label>\s*<span class="field-error"', html)
    assert len(svc.campaigns()) == len(before) and not svc.store.exists("ours")


def test_playing_on_under_a_short_id_taken_says_so_beside_that_box_once(client, svc, two):
    page = client.post("/c/c/play-on", data={"upto": "1", "name": "Ours", "campaign": "c"})
    assert page.status_code == 422
    assert said(page, "there is already a campaign 'c': choose another short id") == ["field-error"]
    assert svc.store.version("c") == 11
