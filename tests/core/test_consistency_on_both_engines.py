"""The per-side consistency condition over each engine's reads: the same test bodies as
test_service.py's, with a service over SQLite and over PostgreSQL in turn."""

import pytest
from core.test_service import (
    test_a_stale_expected_version_is_a_conflict_and_writes_nothing,
    test_per_side_a_battle_concerns_both_warbands,
    test_per_side_an_append_for_another_side_since_is_no_conflict,
    test_per_side_an_append_for_the_same_side_since_is_a_conflict_naming_it,
    test_strict_is_the_default_and_refuses_any_append_since,
    test_the_append_after_a_conflict_meets_the_state_as_the_log_holds_it,
)

from tracker.dice import SeededRoller
from tracker.service import Service

__all__ = [
    "test_a_stale_expected_version_is_a_conflict_and_writes_nothing",
    "test_per_side_a_battle_concerns_both_warbands",
    "test_per_side_an_append_for_another_side_since_is_no_conflict",
    "test_per_side_an_append_for_the_same_side_since_is_a_conflict_naming_it",
    "test_strict_is_the_default_and_refuses_any_append_since",
    "test_the_append_after_a_conflict_meets_the_state_as_the_log_holds_it",
]


@pytest.fixture
def service(any_store):
    return Service(any_store, SeededRoller(7))
