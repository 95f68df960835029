"""The write path and the reads built on folding, over a real SQLite file, with Warcry."""

import json
import sqlite3

import pytest
from warbands import two_warbands

from tracker import config
from tracker.dice import SeededRoller
from tracker.errors import BatchError, Conflict, ImportFailed, InvalidEvent, NotFound
from tracker.events import decode_state
from tracker.service import Service
from tracker.store import open_store

SAMPLE = config.SAMPLES / "warcry-ember-crown.jsonl"
CAMPAIGN = "ember-crown-sample"


@pytest.fixture
def sample(service):
    service.import_lines(SAMPLE.read_text().splitlines())
    return service


def start_two_warbands(service, campaign="c"):
    service.start(campaign, "warcry", "Test", {"quest": "ember-crown"}, actor="org")
    events = two_warbands()
    service.append(campaign, events, 1, actor="org")
    return service


def battle(service, version, down=("crow-1",), **options):
    return service.append(
        "c",
        [
            {
                "type": "BattleFought",
                "data": {
                    "battle": "b1",
                    "winner": "iron",
                    "sides": [
                        {
                            "warband": "iron",
                            "fighters": [f"iron-{i}" for i in range(4)],
                            "taken_down": [],
                        },
                        {
                            "warband": "crow",
                            "fighters": [f"crow-{i}" for i in range(4)],
                            "taken_down": list(down),
                        },
                    ],
                },
            }
        ],
        version,
        **options,
    )


def test_a_campaigns_first_event_names_its_game_system(service):
    service.start("c", "warcry", "Test", {"quest": "ember-crown"})
    first = service.store.event("c", 1)
    assert first.type == "CampaignStarted" and first.data["system"] == "warcry"
    assert "quests" in first.data["settings"]["content"]  # the campaign carries its content


def test_an_unknown_game_system_is_refused_in_words(service):
    with pytest.raises(NotFound, match="no game system called 'chess'"):
        service.start("c", "chess", "Test")


def test_replaying_the_same_log_twice_gives_equal_state(sample):
    first = sample.state(CAMPAIGN).to_json()
    sample.store.drop_snapshots()
    assert sample.state(CAMPAIGN).to_json() == first


def test_export_then_import_into_a_fresh_database_gives_the_same_state_and_head(sample, tmp_path):
    lines = list(sample.export(CAMPAIGN))
    fresh = open_store(tmp_path / "fresh.db")
    fresh.init()
    copy = Service(fresh)
    copy.import_lines(lines)
    assert copy.state(CAMPAIGN).to_json() == sample.state(CAMPAIGN).to_json()
    assert copy.state(CAMPAIGN).head == sample.state(CAMPAIGN).head
    assert list(copy.export(CAMPAIGN)) == lines


def test_an_import_with_one_bad_line_writes_nothing_and_names_that_line(service):
    lines = SAMPLE.read_text().splitlines()
    number = [i for i, line in enumerate(lines) if '"InjuryRolled"' in line][3]
    bad = json.loads(lines[number])
    bad["data"]["dice"] = [7, 1]
    lines[number] = json.dumps(bad)
    with pytest.raises(ImportFailed) as caught:
        service.import_lines(lines)
    assert caught.value.line == number + 1
    assert f"line {number + 1}: InjuryRolled: dice:" in str(caught.value)
    assert "shows 1 to 6, not 7" in str(caught.value)
    assert service.store.count() == 0


def test_an_import_that_breaks_a_rule_names_the_line_the_event_and_the_rule(service):
    lines = SAMPLE.read_text().splitlines()
    lines.insert(
        5,
        json.dumps(
            {
                "campaign": CAMPAIGN,
                "type": "FighterRemoved",
                "data": {"warband": "ironjaws", "fighter": "varka"},
            }
        ),
    )
    with pytest.raises(ImportFailed, match=r"line 6: .*leader can never be removed"):
        service.import_lines(lines)
    assert service.store.count() == 0


def test_an_import_refuses_a_campaign_that_already_exists(sample):
    with pytest.raises(ImportFailed, match="already exists"):
        sample.import_lines(SAMPLE.read_text().splitlines())


def test_an_import_refuses_a_line_whose_hash_was_altered(sample, tmp_path):
    lines = list(sample.export(CAMPAIGN))
    record = json.loads(lines[20])
    record["meta"]["actor"] = "mallory"
    lines[20] = json.dumps(record)
    fresh = open_store(tmp_path / "fresh.db")
    fresh.init()
    with pytest.raises(ImportFailed, match="line 21: its hash does not match"):
        Service(fresh).import_lines(lines)


def test_an_import_never_rolls_missing_dice(service):
    lines = SAMPLE.read_text().splitlines()
    number = next(i for i, line in enumerate(lines) if '"InjuryRolled"' in line)
    record = json.loads(lines[number])
    del record["data"]["dice"]
    lines[number] = json.dumps(record)
    with pytest.raises(ImportFailed, match=f"line {number + 1}: .*carries its 2D6 result"):
        service.import_lines(lines)


def test_the_state_at_an_earlier_version_is_the_log_folded_that_far(sample):
    now = sample.state(CAMPAIGN)
    then = sample.state(CAMPAIGN, at=30)
    assert then.version == 30 and now.version > 30
    assert then.head == sample.store.event(CAMPAIGN, 30).hash
    assert len(then.state["battles"]) == 1 and len(now.state["battles"]) == 12
    with pytest.raises(NotFound, match="has events 1 to"):
        sample.state(CAMPAIGN, at=now.version + 1)


def test_a_stale_expected_version_is_a_conflict_and_writes_nothing(service):
    start_two_warbands(service)
    with pytest.raises(Conflict, match="is at version 11, not 3"):
        battle(service, 3)
    assert service.store.version("c") == 11


def test_a_strict_stale_append_is_refused_without_taking_or_folding_a_state(service):
    start_two_warbands(service)
    service.repository.forget()  # a process that has no state of the campaign yet

    def no_state(*args):
        raise AssertionError("a state was taken for an append refused as it stands")

    service.repository.for_writing = no_state
    service.repository.fold = no_state
    with pytest.raises(Conflict, match="is at version 11, not 3"):
        battle(service, 3)
    assert service.store.version("c") == 11


def test_the_append_after_a_conflict_meets_the_state_as_the_log_holds_it(service):
    start_two_warbands(service)
    with pytest.raises(Conflict):
        battle(service, 3)
    battle(service, 11)
    kept = service.state("c").state
    service.repository.forget()
    assert service.state("c").state == kept  # as a fresh fold of the log gives it
    assert len(kept["battles"]) == 1


def test_a_broken_rule_writes_nothing_and_names_the_event_of_the_batch(service):
    start_two_warbands(service)
    add = {
        "type": "FighterAdded",
        "data": {
            "warband": "iron",
            "fighter": "x",
            "name": "X",
            "runemarks": ["ember"],
            "points": 1,
        },
    }
    remove = {"type": "FighterRemoved", "data": {"warband": "iron", "fighter": "iron-0"}}
    with pytest.raises(BatchError) as caught:
        service.append("c", [add, remove], 11)
    assert caught.value.index == 1 and "leader can never be removed" in str(caught.value)
    assert service.store.version("c") == 11


def test_unknown_fields_and_loose_integers_are_refused(service):
    start_two_warbands(service)
    loose = {
        "type": "FighterAdded",
        "data": {
            "warband": "iron",
            "fighter": "x",
            "name": "X",
            "runemarks": ["ember"],
            "points": 2.5,
        },
    }
    with pytest.raises(BatchError) as caught:
        service.append("c", [loose], 11)
    assert isinstance(caught.value.error, InvalidEvent) and "points" in caught.value.error.errors
    extra = {
        "type": "WarbandFounded",
        "data": {"warband": "w", "name": "W", "player": "P", "faction": "F", "colour": "red"},
    }
    with pytest.raises(BatchError, match="colour"):
        service.append("c", [extra], 11)


def test_dice_left_out_are_rolled_by_the_server_and_marked_server_roll(service):
    start_two_warbands(service)
    battle(service, 11)
    service.append(
        "c", [{"type": "AftermathStepCompleted", "data": {"warband": "crow", "step": 1}}], 12
    )
    service.append(
        "c", [{"type": "InjuryRolled", "data": {"warband": "crow", "fighter": "crow-1"}}], 13
    )
    event = service.store.event("c", 14)
    assert len(event.data["dice"]) == 2 and all(1 <= d <= 6 for d in event.data["dice"])
    assert event.meta["source"] == "server-roll"


def test_dice_typed_in_from_the_table_are_checked_and_marked_table_roll(service):
    start_two_warbands(service)
    battle(service, 11)
    service.append(
        "c", [{"type": "AftermathStepCompleted", "data": {"warband": "crow", "step": 1}}], 12
    )
    with pytest.raises(BatchError, match="shows 1 to 6, not 0"):
        service.append(
            "c",
            [
                {
                    "type": "InjuryRolled",
                    "data": {"warband": "crow", "fighter": "crow-1", "dice": [0, 3]},
                }
            ],
            13,
        )
    service.append(
        "c",
        [
            {
                "type": "InjuryRolled",
                "data": {"warband": "crow", "fighter": "crow-1", "dice": [4, 3]},
            }
        ],
        13,
        source="form",
    )
    meta = service.store.event("c", 14).meta
    assert meta["source"] == "table-roll" and meta["via"] == "form"


def test_a_seeded_roller_gives_the_same_dice_twice(tmp_path):
    rolls = []
    for run in range(2):
        store = open_store(tmp_path / f"{run}.db")
        store.init()
        service = start_two_warbands(Service(store, SeededRoller(3)))
        battle(service, 11)
        service.append(
            "c", [{"type": "AftermathStepCompleted", "data": {"warband": "crow", "step": 1}}], 12
        )
        service.append(
            "c", [{"type": "InjuryRolled", "data": {"warband": "crow", "fighter": "crow-1"}}], 13
        )
        rolls.append(store.event("c", 14).data["dice"])
    assert rolls[0] == rolls[1]


def test_an_idempotent_retry_through_the_service_appends_once(service):
    start_two_warbands(service)
    first = battle_with_key(service)
    again = battle_with_key(service)
    assert again.replayed and again.last_version == first.last_version == 12


def battle_with_key(service):
    late = {"warband": "late", "name": "Late", "player": "P", "faction": "F"}
    return service.append(
        "c", [{"type": "WarbandFounded", "data": late}], 11, idempotency_key="retry-1"
    )


def test_a_voided_event_is_skipped_by_the_fold_and_shown_in_the_history(sample):
    view = sample.state(CAMPAIGN)
    corvane = view.state["warbands"]["crowmarch"]["fighters"]["corvane"]
    assert corvane["points"] == 210  # the voided entry said 21
    entries = {e.event.version: e for e in sample.history(CAMPAIGN)}
    assert entries[10].voided_by == 11 and "voided" in entries[11].words


def test_voiding_an_event_that_later_events_depend_on_is_refused_with_the_reason(sample):
    version = sample.store.version(CAMPAIGN)
    with pytest.raises(BatchError) as caught:
        sample.append(
            CAMPAIGN, [{"type": "EventVoided", "data": {"version": 2, "reason": "oops"}}], version
        )
    message = str(caught.value.error)
    assert message.startswith("“Alice founded Ironjaws")
    assert (
        "cannot be voided on its own: “" in message and "”, recorded after it, depends" in message
    )
    assert "no warband 'ironjaws'" in message and "WarbandFounded" not in message
    assert caught.value.error.depends_on > 2


def test_voiding_changes_the_state_and_drops_stale_snapshots(service):
    start_two_warbands(service)
    service.append(
        "c",
        [
            {
                "type": "WarbandFounded",
                "data": {"warband": "late", "name": "Late", "player": "P", "faction": "F"},
            }
        ],
        11,
    )
    service.store.save_snapshot("c", "x", 12, "{}")
    view = service.state("c")
    service.store.save_snapshot("c", view.system.fingerprint, 12, json.dumps(view.state))
    service.append("c", [{"type": "EventVoided", "data": {"version": 12, "reason": "dup"}}], 12)
    assert "late" not in service.state("c").state["warbands"]
    assert "late" in service.state("c", at=12).state["warbands"]


def test_the_start_of_a_campaign_and_a_void_cannot_be_voided(sample):
    version = sample.store.version(CAMPAIGN)
    for target, words in ((1, "starts a campaign"), (11, "correction cannot itself")):
        with pytest.raises(BatchError, match=words):
            sample.append(
                CAMPAIGN,
                [{"type": "EventVoided", "data": {"version": target, "reason": "x"}}],
                version,
            )


def test_an_event_cannot_be_voided_twice(sample):
    version = sample.store.version(CAMPAIGN)
    with pytest.raises(BatchError, match="is already voided"):
        sample.append(
            CAMPAIGN, [{"type": "EventVoided", "data": {"version": 10, "reason": "x"}}], version
        )


def test_a_snapshot_is_used_and_rebuild_drops_and_remakes_it(sample):
    sample.snapshot_every = 10
    sample.state(CAMPAIGN)
    rows = sample.store.conn.execute("SELECT count(*) FROM snapshots").fetchone()[0]
    assert rows == 1
    assert sample.rebuild() == 1
    assert sample.store.conn.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 1


def test_a_snapshot_of_other_rules_is_not_used(sample):
    version = sample.store.version(CAMPAIGN)
    sample.store.save_snapshot(CAMPAIGN, "other-rules", version, json.dumps({"bogus": 1}))
    assert "warbands" in sample.state(CAMPAIGN).state


def test_the_head_hash_is_part_of_every_state(sample):
    data = sample.state(CAMPAIGN).to_json()
    assert data["head"] == sample.store.head(CAMPAIGN)[1] and data["system"] == "warcry"


def test_verify_through_the_service_names_a_tampered_event(sample, db_path):
    raw = sqlite3.connect(db_path)
    raw.execute("DROP TRIGGER events_refuse_update")
    raw.execute(
        'UPDATE events SET meta = \'{"actor":"mallory","source":"form"}\' WHERE version = 7'
    )
    raw.commit()
    raw.close()
    broken = sample.verify(CAMPAIGN)
    assert broken.version == 7


def test_a_fold_leaves_snapshots_along_the_log_each_the_state_as_of_its_event(sample, monkeypatch):
    import tracker.fold as fold_module

    monkeypatch.setattr("tracker.repository.SNAPSHOT_SPACING", 40)
    sample.store.drop_snapshots()
    sample.repository.forget()
    latest = sample.state(CAMPAIGN).version
    versions = [
        v
        for (v,) in sample.store.conn.execute(
            "SELECT version FROM snapshots WHERE campaign = ? ORDER BY version", (CAMPAIGN,)
        )
    ]
    assert versions[:3] == [40, 80, 120] and versions[-1] == latest
    system = sample.state(CAMPAIGN).system
    for version in versions[:-1]:
        (text,) = sample.store.conn.execute(
            "SELECT state FROM snapshots WHERE campaign = ? AND version = ?", (CAMPAIGN, version)
        ).fetchone()
        voided = sample.store.voids(CAMPAIGN, version)
        afresh = fold_module.fold(system, sample.store.read(CAMPAIGN, upto=version), voided)
        assert decode_state(text) == afresh  # its words kept as words (tagged in the text)
    # A look at an early moment folds one stretch at most from the snapshot before it.
    read = []
    real_read = sample.store.read
    monkeypatch.setattr(
        sample.store, "read", lambda *a, **k: (read.append(e) or e for e in real_read(*a, **k))
    )
    sample.repository.forget()
    sample.state(CAMPAIGN, 95)
    assert len(read) == 15


def test_a_void_recorded_later_does_not_reach_into_an_earlier_moment(sample, monkeypatch):

    monkeypatch.setattr("tracker.repository.SNAPSHOT_SPACING", 40)
    head = sample.state(CAMPAIGN).version
    # The first search of the battlefield that nothing later rests on: voiding it changes the
    # campaign from then on (a refused void writes nothing, so the next search is tried).
    searches = [e.event.version for e in sample.history(CAMPAIGN) if e.event.type == "SearchRolled"]
    for target in searches:
        before = sample.state(CAMPAIGN, target + 50).state
        void = {"type": "EventVoided", "data": {"version": target, "reason": "typo"}}
        try:
            sample.append(CAMPAIGN, [void], head)
        except BatchError:
            continue
        break
    else:
        pytest.fail("every search of the sample has later events that depend on it")
    assert sample.state(CAMPAIGN).state != sample.state(CAMPAIGN, head).state
    sample.repository.forget()
    sample.state(CAMPAIGN)  # a fold that leaves snapshots with the void applied, where it may
    sample.repository.forget()
    assert sample.state(CAMPAIGN, target + 50).state == before  # as it stood then


def _rows(store):
    return store.conn.execute(
        "SELECT campaign, version, type, data, meta, recorded_at, hash FROM events "
        "ORDER BY campaign, version"
    ).fetchall()


def test_an_exported_campaign_imports_to_the_same_rows(sample, tmp_path):
    exported = list(sample.export(CAMPAIGN))
    other = Service(open_store(tmp_path / "long.db"))
    other.store.init()
    [result] = other.import_lines(exported)
    assert result.last_version == sample.store.version(CAMPAIGN)
    assert _rows(other.store) == _rows(sample.store)
    assert other.state(CAMPAIGN).state == sample.state(CAMPAIGN).state
    assert other.verify() is None


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda line: "{not json", "is not JSON"),
        (lambda line: "[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (lambda line: line.replace('"data": {', '"data": {"bogus": 1, ', 1), "bogus"),
        (lambda line: line.replace('"version": ', '"version": 1', 1), "but the line says version"),
    ],
)
def test_a_long_file_with_a_bad_line_names_it_and_writes_nothing(sample, tmp_path, change, words):
    exported = list(sample.export(CAMPAIGN))
    bad = len(exported) * 2 // 3
    assert exported[bad - 1].count('"data": {') >= 1
    exported[bad - 1] = change(exported[bad - 1])
    other = Service(open_store(tmp_path / "long.db"))
    other.store.init()
    with pytest.raises(ImportFailed) as caught:
        other.import_lines(exported)
    assert f"line {bad}" in str(caught.value) and words in str(caught.value)
    assert other.store.count() == 0


def _void_line(version: int) -> str:
    return json.dumps(
        {"campaign": CAMPAIGN, "type": "EventVoided", "data": {"version": version, "reason": "x"}}
    )


def test_an_import_whose_last_line_voids_an_event_folds_the_campaign_without_it(sample, tmp_path):
    exported = list(sample.export(CAMPAIGN))
    last = sample.store.version(CAMPAIGN)
    other = Service(open_store(tmp_path / "voided.db"))
    other.store.init()
    [result] = other.import_lines([*exported, _void_line(last)])
    assert result.last_version == last + 1
    assert other.store.voids(CAMPAIGN)[last] == last + 1
    assert other.state(CAMPAIGN, last - 1).state == other.state(CAMPAIGN).state
    assert other.verify() is None


def test_an_import_whose_void_breaks_a_later_event_names_that_line_and_writes_nothing(
    sample, tmp_path
):
    exported = list(sample.export(CAMPAIGN))
    other = Service(open_store(tmp_path / "refused.db"))
    other.store.init()
    with pytest.raises(ImportFailed) as caught:
        other.import_lines([*exported, _void_line(2)])  # the founding of a warband
    words = str(caught.value)
    assert f"line {len(exported) + 1}" in words and "cannot be voided" in words
    assert other.store.count() == 0


def crow_fighter(name):
    data = {"warband": "crow", "fighter": name, "name": name.title(), "runemarks": ["ember"]}
    return [{"type": "FighterAdded", "data": {**data, "points": 50}}]


def iron_fighter(name):
    data = {"warband": "iron", "fighter": name, "name": name.title(), "runemarks": ["ember"]}
    return [{"type": "FighterAdded", "data": {**data, "points": 50}}]


def test_per_side_an_append_for_another_side_since_is_no_conflict(service):
    start_two_warbands(service)
    service.append("c", crow_fighter("kite"), 11)
    result = service.append("c", iron_fighter("ox"), 11, strict=False)
    assert result.last_version == 13


def test_per_side_an_append_for_the_same_side_since_is_a_conflict_naming_it(service):
    start_two_warbands(service)
    service.append("c", iron_fighter("kite"), 11)
    with pytest.raises(Conflict) as caught:
        service.append("c", iron_fighter("ox"), 11, strict=False)
    assert "meanwhile, on the same side" in str(caught.value) and "Kite" in str(caught.value)
    assert service.store.version("c") == 12


def test_per_side_a_battle_concerns_both_warbands(service):
    start_two_warbands(service)
    service.append("c", crow_fighter("kite"), 11)
    with pytest.raises(Conflict):
        battle(service, 11, strict=False)


def test_strict_is_the_default_and_refuses_any_append_since(service):
    start_two_warbands(service)
    service.append("c", crow_fighter("kite"), 11)
    with pytest.raises(Conflict, match="is at version 12, not 11"):
        service.append("c", iron_fighter("ox"), 11)


def another_writer_first(service, submissions):
    """The store's next append meets a log another writer (its own connection, as another
    process) has just appended `submissions` to, after this writer looked at the head."""
    real = service.store.append
    rival = Service(open_store(service.store.path), SeededRoller(7))

    def racing(campaign, events, expected, *args, **kwargs):
        service.store.append = real
        rival.append(campaign, submissions, rival.store.version(campaign), actor="rival")
        return real(campaign, events, expected, *args, **kwargs)

    service.store.append = racing


def test_per_side_an_append_that_loses_the_race_to_another_side_lands_after_it(service):
    start_two_warbands(service)
    another_writer_first(service, crow_fighter("kite"))
    result = service.append("c", iron_fighter("ox"), 11, strict=False)
    assert result.last_version == 13
    fighters = service.state("c").state["warbands"]
    assert "kite" in fighters["crow"]["fighters"] and "ox" in fighters["iron"]["fighters"]
    assert service.verify() is None


def test_per_side_an_append_that_loses_the_race_to_its_own_side_is_a_conflict(service):
    start_two_warbands(service)
    another_writer_first(service, iron_fighter("kite"))
    with pytest.raises(Conflict) as caught:
        service.append("c", iron_fighter("ox"), 11, strict=False)
    assert "meanwhile, on the same side" in str(caught.value) and "Kite" in str(caught.value)
    assert service.store.version("c") == 12


def test_strict_an_append_that_loses_the_race_is_the_clients_conflict(service):
    start_two_warbands(service)
    another_writer_first(service, crow_fighter("kite"))
    with pytest.raises(Conflict, match="is at version 12, not 11"):
        service.append("c", iron_fighter("ox"), 11)
    assert service.store.version("c") == 12
