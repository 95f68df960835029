"""The command line over a postgresql:// URL, as over a file: --db and TRACKER_DB."""

from core.test_cli import CAMPAIGN, SAMPLE, assert_one_line_error, run


def test_init_import_campaigns_and_verify_take_a_postgresql_url(pg_url):
    assert run("init", "--db", pg_url).returncode == 0
    imported = run("import", SAMPLE, env={"TRACKER_DB": pg_url})
    assert imported.returncode == 0, imported.stderr
    listed = run("campaigns", "--db", pg_url)
    assert listed.returncode == 0 and listed.stdout.startswith(CAMPAIGN + "\t")
    checked = run("verify", "--db", pg_url)
    assert checked.returncode == 0 and "every chain holds" in checked.stdout


def test_a_url_whose_server_does_not_answer_is_one_line_without_its_password(pg_server):
    url = f"postgresql://tracker:hunter2@127.0.0.1:{pg_server.port + 1}/none"
    result = run("campaigns", "--db", url)
    assert_one_line_error(result, "cannot reach the database postgresql://tracker@127.0.0.1")
    assert "hunter2" not in result.stderr


def test_an_empty_postgresql_database_is_not_a_tracker_database_yet(pg_url):
    assert_one_line_error(run("campaigns", "--db", pg_url), "is not a tracker database yet")


def test_backup_of_a_postgresql_database_points_to_pg_dump(pg_url, tmp_path):
    run("init", "--db", pg_url)
    assert_one_line_error(run("backup", str(tmp_path / "b.db"), "--db", pg_url), "pg_dump")


def test_the_samples_load_into_postgresql_as_serve_loads_them_and_export_to_the_same_heads(
    pg_server, pg_url, tmp_path
):
    """Loaded as `serve` loads them, then each exported from SQLite and imported into
    PostgreSQL: the same versions, head hashes and states."""
    import json

    from tracker import cli
    from tracker.accounts import Accounts
    from tracker.service import Service
    from tracker.store import open_store

    services = []
    for target in (str(tmp_path / "samples.db"), pg_url):
        store = open_store(target)
        store.init()
        Accounts(store).init()
        services.append(Service(store))
    lite, pg = services
    assert cli.load_samples(pg) == cli.load_samples(lite) >= 5  # straight into PostgreSQL
    moved = Service(open_store(pg_server.database()))
    moved.store.init()
    for row in lite.campaigns():
        moved.import_lines(list(lite.export(row.id)))
        assert moved.store.head(row.id) == (row.version, row.head)
        assert pg.store.version(row.id) == row.version
        assert json.dumps(moved.state(row.id).to_json(), sort_keys=True) == json.dumps(
            lite.state(row.id).to_json(), sort_keys=True
        )
    for service in (*services, moved):
        service.store.close()
