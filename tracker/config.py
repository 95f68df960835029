"""Where the tracker keeps its files."""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "events"
DEFAULT_DB = "instance/tracker.db"


def db_path(explicit: str | None = None) -> str:
    """--db PATH, else the TRACKER_DB environment variable, else instance/tracker.db."""
    return explicit or os.environ.get("TRACKER_DB") or DEFAULT_DB
