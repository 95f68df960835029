"""The bench's synthetic campaign stays legal under the rules as they change: the generator
folds every event it makes, so a rule it breaks stops it here rather than in a bench run."""

from collections import Counter

from bench.generate import campaign_events


def test_the_bench_campaign_is_legal_and_begins_quests_again():
    kinds = Counter(kind for kind, _data, _meta in campaign_events("bench-test", 2000))
    assert sum(kinds.values()) == 2000
    assert kinds["QuestBegun"] > 0 and kinds["BattleFought"] > 0
