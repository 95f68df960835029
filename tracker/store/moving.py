"""Moving up: a whole SQLite database copied into an empty PostgreSQL one.

The events keep their hashes, versions and order; accounts, sessions, tokens, members,
invitations, visibility and the database's secrets keep their ids. Snapshots are a cache and
are not copied: the new database folds them again on demand.
"""

from __future__ import annotations

from collections.abc import Callable

from tracker.accounts import TABLES, Accounts
from tracker.errors import TrackerError
from tracker.store.base import Broken, Store

_EVENTS = "campaign, version, type, data, meta, recorded_at, hash"
# Columns whose ids PostgreSQL numbers itself: set on past the copied ones.
_NUMBERED = (("users", "id"), ("tokens", "id"), ("invitations", "rowid"))
BATCH = 1000


class NotEmpty(TrackerError):
    """A copy into a database that holds something already."""


def size(source: Store) -> int:
    """How many rows a copy of `source` writes (its progress bar's length)."""
    rows = source.count()
    for table in TABLES:
        if source.db[table].exists():
            rows += source.db[table].count
    return rows


def copy_into(source: Store, target: Store, progress: Callable[[int], None]) -> int:
    """Copy every row of the SQLite store `source` into the empty PostgreSQL store `target`
    in one transaction, then check every chain there. Returns the number of campaigns.

    Raises `NotEmpty` when the target holds events or accounts, `TrackerError` naming the
    first campaign whose log no longer ends at its recorded head in the source, or whose
    chain or head differs after the copy. The target's record of the heads is kept by its
    own trigger as the events go in."""
    make_ready(target)
    if source.keeps_heads() and (gone := source.heads_differ()):
        raise TrackerError(f"the database to copy does not hold its log: {gone[0]}")
    with target.transaction() as tx:
        tx.execute("LOCK TABLE events IN EXCLUSIVE MODE")
        cursor = source.conn.execute(f"SELECT {_EVENTS} FROM events ORDER BY position")
        while rows := cursor.fetchmany(BATCH):
            with tx.conn.cursor() as out:
                out.executemany(f"INSERT INTO events ({_EVENTS}) VALUES ({_marks(7)})", rows)
            progress(len(rows))
        for table in TABLES:
            _copy_table(source, tx, table, progress)
        for table, column in _NUMBERED:
            tx.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                f"coalesce(max({column}), 1), max({column}) IS NOT NULL) FROM {table}"
            )
    return _check(source, target)


def _marks(count: int) -> str:
    return ", ".join(["%s"] * count)


def _copy_table(source: Store, tx, table: str, progress: Callable[[int], None]) -> None:
    """One accounts table, row for row (the invitations with the rowid pages refer to)."""
    if not source.db[table].exists():
        return
    columns = [column.name for column in source.db[table].columns]
    select = ", ".join(columns)
    if table == "invitations":
        columns, select = ["rowid", *columns], "rowid, " + select
    rows = source.conn.execute(f"SELECT {select} FROM {table}").fetchall()
    if rows:
        with tx.conn.cursor() as out:
            out.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({_marks(len(columns))})",
                rows,
            )
        progress(len(rows))


def make_ready(target: Store) -> None:
    """The target's tables made, and found empty: else `NotEmpty`."""
    target.init()
    Accounts(target).init()
    held = [table for table in ("events", *TABLES) if target.one(f"SELECT 1 FROM {table} LIMIT 1")]
    if held:
        raise NotEmpty(
            f"the database {target.target} is not empty (it holds {', '.join(held)}): "
            "a copy goes into an empty database"
        )


def _check(source: Store, target: Store) -> int:
    """Every chain recomputed in the target, and its head the source's."""
    rows = source.campaigns()
    for row in rows:
        broken: Broken | None = target.verify(row.id)
        if broken is not None:
            raise TrackerError(f"the copy does not hold: {broken}")
        if target.head(row.id) != (row.version, row.head):
            raise TrackerError(f"the copy of {row.id} does not end at head {row.head}")
    return len(rows)
