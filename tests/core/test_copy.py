"""Moving up: `copy --to postgresql://...` from an SQLite file into an empty PostgreSQL one."""

import json

import pytest
from core.test_cli import assert_one_line_error, run

from tracker import cli
from tracker.accounts import Accounts
from tracker.dice import SeededRoller
from tracker.service import Service
from tracker.store import open_store

PASSWORD = "a long enough password"


@pytest.fixture
def samples(tmp_path):
    """An SQLite database holding every sample, loaded as `tracker serve` loads them, and a
    player with a session, a token, a seat and an open invitation."""
    path = str(tmp_path / "samples.db")
    store = open_store(path)
    store.init()
    Accounts(store).init()
    count = cli.load_samples(Service(store, SeededRoller(1)))
    assert count >= 5
    accounts = Accounts(store)
    nemo = accounts.sign_up("Nemo", PASSWORD)
    first = store.campaigns()[0].id
    accounts.add_member(first, nemo, "organiser")
    accounts.invite(first, nemo, side=None)
    accounts.invite(first, nemo, uses=3)  # a group link, shown again from the copy too
    accounts.create_token(nemo, "phone")
    accounts.set_public(first, False)
    accounts.secret()  # the session cookies' secret, made on first use
    store.close()
    return path


def test_a_copy_of_every_sample_has_the_same_heads_and_states_on_postgresql(samples, pg_url):
    result = run("copy", "--db", samples, "--to", pg_url)
    assert result.returncode == 0, result.stderr
    assert "every chain holds" in result.stdout and "copying" in result.stderr
    before, after = open_store(samples), open_store(pg_url)
    try:
        rows = before.campaigns()
        assert [(r.id, r.version, r.head) for r in after.campaigns()] == [
            (r.id, r.version, r.head) for r in rows
        ]
        old, new = Service(before), Service(after)
        for row in rows:
            assert after.verify(row.id) is None
            assert json.dumps(new.state(row.id).to_json(), sort_keys=True) == json.dumps(
                old.state(row.id).to_json(), sort_keys=True
            )
        _accounts_came_along(Accounts(before), Accounts(after), rows[0].id)
    finally:
        before.close()
        after.close()


def _accounts_came_along(old: Accounts, new: Accounts, first: str) -> None:
    nemo = new.log_in("nemo", PASSWORD)  # names still compared without regard to case
    assert nemo == old.by_name("Nemo")
    assert new.membership(first, nemo).role == "organiser"
    assert new.invitations(first) == old.invitations(first)
    assert [t["label"] for t in new.tokens(nemo)] == ["phone"]
    assert new.public_campaigns() == old.public_campaigns() and not new.is_public(first)
    assert new.secret() == old.secret()
    later = new.sign_up("Later", PASSWORD)  # ids go on past the copied ones
    assert later.id > nemo.id
    (group,) = [i for i in new.invitations(first) if i["uses"] == 3]
    assert new.accept(group["code"], later).role == "player"
    assert [i["joined"] for i in new.invitations(first) if i["id"] == group["id"]] == [1]
    assert new.invite(first, nemo, uses=2) in {i["code"] for i in new.invitations(first)}


def test_a_copy_into_a_database_that_is_not_empty_is_refused_in_one_line(samples, pg_url):
    assert run("copy", "--db", samples, "--to", pg_url).returncode == 0
    again = run("copy", "--db", samples, "--to", pg_url)
    assert_one_line_error(again, "is not empty")


def test_a_copy_to_a_server_that_does_not_answer_is_one_line(samples, pg_server):
    url = f"postgresql://tracker@127.0.0.1:{pg_server.port + 1}/none"
    assert_one_line_error(run("copy", "--db", samples, "--to", url), "cannot reach the database")


def test_a_copy_to_something_else_than_a_url_is_one_line(samples, tmp_path):
    assert_one_line_error(
        run("copy", "--db", samples, "--to", str(tmp_path / "x.db")), "postgresql:// URL"
    )
