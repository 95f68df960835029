"""Moving up: a whole SQLite database copied into an empty PostgreSQL one.

The events keep their hashes, versions and order; the callers' tables (the accounts', say:
named by the caller, made by it in the target first) are copied row for row and keep their
ids. Snapshots are a cache and are not copied: the new database folds them again on demand.
"""

from __future__ import annotations

from collections.abc import Callable

from tracker.errors import TrackerError
from tracker.store.base import Store
from tracker.store.records import Broken
from tracker.systems.i18n import _

_EVENTS = "campaign, version, type, data, meta, recorded_at, hash"
BATCH = 1000


class NotEmpty(TrackerError):
    """A copy into a database that holds something already."""


def size(source: Store, tables: tuple[str, ...]) -> int:
    """How many rows a copy of `source` with its `tables` writes (its progress bar's length)."""
    rows = source.count()
    for table in tables:
        if source.db[table].exists():
            rows += source.db[table].count
    return rows


def copy_into(
    source: Store,
    target: Store,
    progress: Callable[[int], None],
    tables: tuple[str, ...] = (),
    numbered: tuple[tuple[str, str], ...] = (),
) -> int:
    """Copy the log and `tables` (in their order: a row's references first) of the SQLite
    store `source` into the empty PostgreSQL store `target` in one transaction, then check
    every chain there. `numbered`: the (table, column) whose ids the target numbers itself
    (from past the copied ones on; SQLite's implicit `rowid` is copied too). Returns the
    number of campaigns.

    Raises `NotEmpty` when the target holds events or rows of `tables`, `TrackerError` naming the
    first campaign whose log no longer ends at its recorded head in the source, or whose
    chain or head differs after the copy. The target's record of the heads is kept by its
    own trigger as the events go in."""
    make_ready(target, tables)
    if source.keeps_heads() and (gone := source.heads_differ()):
        raise TrackerError(
            _("the database to copy does not hold its log: %(reason)s", reason=gone[0])
        )
    with target.transaction() as tx:
        tx.execute("LOCK TABLE events IN EXCLUSIVE MODE")
        cursor = source.conn.execute(f"SELECT {_EVENTS} FROM events ORDER BY position")
        while rows := cursor.fetchmany(BATCH):
            with tx.conn.cursor() as out:
                out.executemany(f"INSERT INTO events ({_EVENTS}) VALUES ({_marks(7)})", rows)
            progress(len(rows))
        for table in tables:
            _copy_table(source, tx, table, dict(numbered).get(table), progress)
        for table, column in numbered:
            tx.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                f"coalesce(max({column}), 1), max({column}) IS NOT NULL) FROM {table}"
            )
    return _check(source, target)


def _marks(count: int) -> str:
    return ", ".join(["%s"] * count)


def _copy_table(
    source: Store, tx, table: str, numbered: str | None, progress: Callable[[int], None]
) -> None:
    """One table, row for row (with its implicit `rowid` when that is its numbered id)."""
    if not source.db[table].exists():
        return
    columns = [column.name for column in source.db[table].columns]
    if numbered is not None and numbered not in columns:
        columns = [numbered, *columns]
    select = ", ".join(columns)
    rows = source.conn.execute(f"SELECT {select} FROM {table}").fetchall()
    if rows:
        with tx.conn.cursor() as out:
            out.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({_marks(len(columns))})",
                rows,
            )
        progress(len(rows))


def make_ready(target: Store, tables: tuple[str, ...] = ()) -> None:
    """The target's log made, and it and `tables` (made by their owner) found empty: else
    `NotEmpty`."""
    target.init()
    held = [table for table in ("events", *tables) if target.one(f"SELECT 1 FROM {table} LIMIT 1")]
    if held:
        raise NotEmpty(
            _(
                "the database %(target)s is not empty (it holds %(tables)s): "
                "a copy goes into an empty database",
                target=target.target,
                tables=", ".join(held),
            )
        )


def _check(source: Store, target: Store) -> int:
    """Every chain recomputed in the target, and its head the source's."""
    rows = source.campaigns()
    for row in rows:
        broken: Broken | None = target.verify(row.id)
        if broken is not None:
            raise TrackerError(_("the copy does not hold: %(broken)s", broken=broken.words))
        if target.head(row.id) != (row.version, row.head):
            raise TrackerError(
                _(
                    "the copy of %(campaign)s does not end at head %(head)s",
                    campaign=row.id,
                    head=row.head,
                )
            )
    return len(rows)
