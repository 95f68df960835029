"""The append-only log: one contract (`Store`, in base.py), two engines.

`Store(target)` (also `open_store`) opens the engine its target names: an SQLite file for a
path (sqlite.py, the embedded default), a PostgreSQL database for a postgresql:// URL
(postgres.py, for several app servers sharing one database).
"""

from tracker.store.base import (
    ENGINES,
    AppendResult,
    Broken,
    CampaignRow,
    ReadOnly,
    Store,
    Unreachable,
    is_url,
    snapshot_digest,
)
from tracker.store.sqlite import SQLiteStore


def _postgres() -> type:
    from tracker.store.postgres import PostgresStore

    return PostgresStore


ENGINES.update(sqlite=lambda: SQLiteStore, postgresql=_postgres)


def open_store(target, **options) -> Store:
    """The store at `target`: a path (SQLite) or a postgresql:// URL (PostgreSQL)."""
    return Store(str(target) if not is_url(target) else target, **options)


__all__ = [
    "AppendResult",
    "Broken",
    "CampaignRow",
    "ReadOnly",
    "SQLiteStore",
    "Store",
    "Unreachable",
    "is_url",
    "open_store",
    "snapshot_digest",
]
