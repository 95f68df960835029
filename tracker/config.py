"""Where the tracker keeps its files.

The templates and the sample campaigns live at the top of the source tree (templates/,
events/); a built wheel carries them inside the package (tracker/templates, tracker/events:
see setup.py), and the installed tracker finds them there.
"""

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
DEFAULT_DB = "instance/tracker.db"


def _data(name: str) -> Path:
    """A folder of the tracker's own files: inside the package when installed from a wheel,
    else at the top of the source tree."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else ROOT / name


TEMPLATES = _data("templates")
SAMPLES = _data("events")
STATIC = PACKAGE / "web" / "static"


def db_path(explicit: str | None = None) -> str:
    """--db PATH, else the TRACKER_DB environment variable, else instance/tracker.db."""
    return explicit or os.environ.get("TRACKER_DB") or DEFAULT_DB
