"""Fixtures of the Leaders tests; the helpers live in leaders_table.py beside this file."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# pytest runs with --import-mode=importlib, which puts no test folder on sys.path.
sys.path.insert(0, str(Path(__file__).parent))

from leaders_table import Table  # noqa: E402


@pytest.fixture
def table() -> Table:
    return Table()
