"""Names in any alphabet, ids spelled in Latin, the account's and the campaign's language, and
the core's words kept as messages (issue 39)."""

import json
import sqlite3
import unicodedata

import pytest
from marshmallow import ValidationError

from tracker import webhooks
from tracker.accounts import AccountError, Accounts
from tracker.campaign import CampaignStartedSchema, language_of, slug
from tracker.commandline import language
from tracker.errors import BatchError
from tracker.permissions import Forbidden, Guard
from tracker.store import open_store
from tracker.systems import i18n
from tracker.systems.i18n import Said


@pytest.mark.parametrize(
    ("name", "made"),
    [
        ("Żar Korony — wtorki", "zar-korony-wtorki"),
        ("Škvárová smečka", "skvarova-smecka"),
        ("Tomáš", "tomas"),
        ("Ironjaws's Band", "ironjaws-s-band"),
    ],
)
def test_an_id_made_from_a_name_spells_its_letters_in_latin_never_dropping_them(name, made):
    assert slug(name) == made


def test_an_id_made_from_a_long_name_keeps_the_length_limit():
    assert len(slug("Długa nazwa " * 20)) <= 60 and slug("!!!") == "x"


@pytest.fixture
def accounts(store):
    accounts = Accounts(store)
    accounts.init()
    return accounts


def test_a_user_name_in_any_alphabet_signs_up_and_is_kept_composed(accounts):
    marta = accounts.sign_up("marta-ł", "a long password")
    tomas = accounts.sign_up(unicodedata.normalize("NFD", "Tomáš"), "a long password")
    assert marta.name == "marta-ł"
    assert tomas.name == "Tomáš" and unicodedata.is_normalized("NFC", tomas.name)


def test_log_in_is_not_fooled_by_look_alike_forms_of_the_same_name(accounts):
    accounts.sign_up("Tomáš", "a long password")
    decomposed = unicodedata.normalize("NFD", "tomáš")
    assert accounts.log_in(decomposed, "a long password").name == "Tomáš"
    assert accounts.log_in("ＴＯＭÁŠ", "a long password").name == "Tomáš"  # full-width letters
    assert accounts.by_name("TOMÁŠ").name == "Tomáš"
    with pytest.raises(AccountError, match="is taken"):
        accounts.sign_up(decomposed, "another long password")


@pytest.mark.parametrize(
    ("name", "word"),
    [
        ("mar\u200bta", "a zero-width space"),
        ("mar\u200dta", "a zero-width joiner"),
        ("mar\u202eta", "a bidirectional override"),
        ("mar\x07ta", "a control character"),
    ],
)
def test_a_user_name_with_a_character_nobody_sees_is_refused_naming_it(accounts, name, word):
    with pytest.raises(AccountError, match=word):
        accounts.sign_up(name, "a long password")


def test_a_user_name_of_signs_that_are_not_letters_is_still_refused(accounts):
    for name in ("a", "-marta", "marta!", "x" * 33):
        with pytest.raises(AccountError, match="a user name is 2 to 32 letters"):
            accounts.sign_up(name, "a long password")


def test_an_older_database_gets_the_key_and_language_columns_and_keeps_its_ids(db_path):
    conn = sqlite3.connect(db_path)
    conn.executescript(
        "CREATE TABLE users (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE "
        "COLLATE NOCASE, password_hash TEXT NOT NULL, created_at TEXT NOT NULL);"
        "INSERT INTO users VALUES (7, 'Nemo', 'x', '2026-01-01T00:00:00Z');"
    )
    conn.commit()
    conn.close()
    store = open_store(db_path)
    store.init()
    try:
        accounts = Accounts(store)
        accounts.init()
        nemo = accounts.by_name("nemo")
        assert (nemo.id, nemo.name, nemo.language) == (7, "Nemo", None)
        accounts.set_language(nemo, "cs")
        assert accounts.user(7).language == "cs"
    finally:
        store.close()


def test_an_account_chooses_a_language_the_tracker_speaks(accounts):
    user = accounts.sign_up("marta-ł", "a long password")
    assert accounts.user(user.id).language is None
    accounts.set_language(user, "pl")
    assert accounts.user(user.id).language == "pl"
    sid = accounts.open_session(user, 1)
    assert accounts.session_user(sid).language == "pl"
    with pytest.raises(AccountError):
        accounts.set_language(user, "xx")


def test_event_data_is_composed_and_refuses_a_character_nobody_sees_naming_the_field():
    loaded = CampaignStartedSchema().load(
        {"system": "warcry", "name": unicodedata.normalize("NFD", "Żar Korony")}
    )
    assert loaded["name"] == "Żar Korony" and len(loaded["name"]) == 10
    with pytest.raises(ValidationError) as refused:
        CampaignStartedSchema().load({"system": "warcry", "name": "Żar\u2066 Korony"})
    (message,) = refused.value.messages["name"]
    assert isinstance(message, Said)
    assert message == "name holds a bidirectional isolate (U+2066): type it again without it"


def test_a_text_of_several_lines_keeps_its_line_ends():
    from tracker.campaign import EventVoidedSchema

    loaded = EventVoidedSchema().load({"version": 2, "reason": "a slip\nof the pen\twith a tab"})
    assert loaded["reason"] == "a slip\nof the pen\twith a tab"


def test_marshmallows_own_refusals_are_messages():
    with pytest.raises(ValidationError) as refused:
        CampaignStartedSchema().load({"system": "warcry", "name": "", "extra": 1})
    errors = refused.value.messages
    assert errors["name"] == ["Length must be between 1 and 120."]
    assert errors["extra"] == ["Unknown field."]
    assert all(isinstance(m, Said) for m in errors["name"] + errors["extra"])


@pytest.mark.catalogued
def test_a_schemas_refusal_reads_in_czech():
    with pytest.raises(ValidationError) as refused:
        CampaignStartedSchema().load({"system": "warcry", "name": "x" * 121})
    (message,) = refused.value.messages["name"]
    czech = i18n.translate(message, i18n.catalogue("cs"))
    assert czech != str(message) and "120" in czech


@pytest.mark.catalogued
def test_a_refusal_of_the_rules_core_reads_in_polish(service):
    service.start("c", "warcry", "Żar Korony", {"quest": "ember-crown"}, actor="org")
    with pytest.raises(BatchError) as refused:
        service.append("c", [{"type": "EventVoided", "data": {"version": 1, "reason": "x"}}], 1)
    polish = i18n.translate(refused.value.message, i18n.catalogue("pl"))
    assert "1" in polish and "the event that starts a campaign" not in polish


@pytest.mark.parametrize(
    ("environ", "code"),
    [
        ({"TRACKER_LANGUAGE": "cs"}, "cs"),
        ({"LANG": "pl_PL.UTF-8"}, "pl"),
        ({"LC_ALL": "C.UTF-8", "LANG": "it_IT.UTF-8"}, "it"),
        ({"LC_MESSAGES": "de_DE.UTF-8", "LANG": "pl_PL.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_command_line_speaks_the_language_of_its_environment(environ, code):
    assert language(environ) == code


def test_an_organiser_chooses_the_campaigns_language_and_the_fold_keeps_it(service):
    service.start("c", "warcry", "Żar Korony", {"quest": "ember-crown"}, actor="org")
    assert language_of(service.state("c").state) is None
    service.append("c", [{"type": "LanguageChosen", "data": {"language": "pl"}}], 1)
    view = service.state("c")
    assert view.language == "pl" and language_of(view.state) == "pl"
    assert service.state("c", 1).language is None
    words = [entry.words for entry in service.history("c")]
    assert any("Polski" in str(w) for w in words)
    with pytest.raises(BatchError, match="Must be one of"):
        service.append("c", [{"type": "LanguageChosen", "data": {"language": "xx"}}], 2)


def test_only_the_organiser_chooses_the_campaigns_language():
    class Member:
        role, side = "player", "iron"

    with pytest.raises(Forbidden, match="only the organiser"):
        Guard(None, Member())(None, {}, "LanguageChosen", {"language": "it"})


@pytest.mark.catalogued
def test_a_webhooks_message_speaks_the_campaigns_language():
    hook = webhooks.Webhook("c", "https://example.org/x", "s", ("member",), "en", "https://t", 0)
    said = i18n._("%(name)s joined the campaign", name="Marta")
    body = json.loads(webhooks.body(hook, "Żar", "member", said, "https://t/c", "pl"))
    assert body["tracker"]["language"] == "pl"
    assert body["content"].startswith("Żar: ") and "Marta" in body["content"]
    assert "joined the campaign" not in body["content"]


def test_words_kept_in_a_state_read_in_the_readers_language_from_a_copy_and_a_snapshot():
    """A state may keep a rule's message or a pack's names: a writer's copy and a snapshot
    read back keep them as words, not as the English they are as plain strings."""
    from tracker.events import copied, decode_state, state_text
    from tracker.systems import i18n

    state = {
        "ledger": [{"cause": i18n._("played the battle (battle %(battle)s)", battle="b1")}],
        "reward": i18n.Texts("Ash Crown", {"pl": "Popielna Korona"}),
        "n": 3,
    }
    for back in (copied(state), decode_state(state_text(state))):
        assert back == state
        cause, reward = back["ledger"][0]["cause"], back["reward"]
        assert isinstance(cause, i18n.Said) and cause.params == {"battle": "b1"}
        assert i18n.translate(reward, i18n.catalogue("pl")) == "Popielna Korona"
    assert decode_state(state_text({"n": 3})) == {"n": 3}
