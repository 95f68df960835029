"""The append-only log: one contract (`Store`, in base.py), two engines.

`open_store(target)` opens the engine its target names: an SQLite file for a path
(sqlite.py, the embedded default), a PostgreSQL database for a postgresql:// URL
(postgres.py, for several app servers sharing one database).
"""

from tracker.store.base import Store
from tracker.store.records import (
    AppendResult,
    Broken,
    CampaignRow,
    ReadOnly,
    Unreachable,
    describe,
    is_url,
    snapshot_digest,
)
from tracker.store.sqlite import SQLiteStore


def open_store(target, **options) -> Store:
    """The store at `target`: an SQLite file for a path, a PostgreSQL database for a
    postgresql:// URL (psycopg is imported only then). `options` go to the engine:
    `readonly` and `timeout` for both."""
    if is_url(target):
        from tracker.store.postgres import PostgresStore

        return PostgresStore(target, **options)
    return SQLiteStore(target, **options)


__all__ = [
    "AppendResult",
    "Broken",
    "CampaignRow",
    "ReadOnly",
    "SQLiteStore",
    "Store",
    "Unreachable",
    "describe",
    "is_url",
    "open_store",
    "snapshot_digest",
]
