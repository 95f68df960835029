"""The audit log: every event of a game reads as a sentence a player would say."""

import re
from pathlib import Path

from tracker.service import Service
from tracker.store import open_store
from tracker.systems.hellas import system

EVENTS = Path(__file__).resolve().parents[3] / "events"
#: a count left without its noun: "recruited 1 in Aigialos"
BARE_COUNT = re.compile(r"\b\d+ (in|to|from|on|at)\b")


def _sample_words() -> dict[str, list[str]]:
    store = open_store(":memory:")
    store.init()
    service = Service(store)
    found: dict[str, list[str]] = {}
    for name in ("hellas-duel", "hellas-three-crowns"):
        service.import_lines((EVENTS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines())
        for entry in service.history(name):
            found.setdefault(entry.event.type, []).append(entry.words)
    store.close()
    return found


def test_every_event_of_the_samples_reads_as_a_sentence_with_its_nouns():
    found = _sample_words()
    # The samples use every event but the abandoning of a game.
    assert set(system.events) - set(found) == {"GameAbandoned"}
    for kind, lines in found.items():
        for line in lines:
            assert line[:1].isupper() and line != kind, line
            assert not BARE_COUNT.search(line), line


def test_a_recruit_names_what_it_recruits(table):
    table.start()
    table.play("HoplitesRecruited", player="ann", placed=[{"region": "korythos", "count": 1}])
    assert table.words() == "Ann recruited 1 hoplite in Korythos"


def test_the_events_the_samples_leave_out_read_as_sentences_too(table):
    table.start()
    table.grant("ann", "artifact", source="the quest The Sleeping Bronze Giant")
    table.play("ArtifactGained", player="ann", artifact="oak-crown")
    assert table.words() == "Ann took the Oak Crown (the quest The Sleeping Bronze Giant)"
    table.play("Prayed", player="ann")
    assert table.words() == "Ann prayed and gained 1 priest"
    table.play("GameAbandoned", reason="the ferry leaves at dawn")
    assert table.words() == "Game g1 was abandoned: the ferry leaves at dawn"
