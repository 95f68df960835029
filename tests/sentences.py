"""What makes an event's words a sentence a player would say: the check every system's
words test uses."""

import re

from tracker import config

COORDINATES = re.compile(r"\(-?\d+, -?\d+\)")
CHECKS = (
    (re.compile(r"^\s|\s$"), "space at an end"),
    (re.compile(r"  "), "a doubled space"),
    (re.compile(r" [.,;:)]"), "a space before punctuation"),
    (re.compile(r"\( "), "a space after a bracket"),
    (re.compile(r"\(\)"), "empty brackets"),
    (re.compile(r"[,;:]\s*[.,;:]"), "punctuation with nothing between"),
    (re.compile(r"[,;:(-]$"), "an unfinished end"),
    (re.compile(r"\b(?:the|a|an|of|to|on|in|at|and|by|with|from)$", re.I), "a dangling last word"),
    (re.compile(r"\b(\w+) \1\b", re.I), "a doubled word"),
    (re.compile(r"\b(?:None|null|True|False)\b|[{}\[\]]"), "code in the words"),
    (re.compile(r"\b\d+ (?:in|on|at|to|from|left)\b"), "a number without its noun"),
    (re.compile(r"'s's\b"), "a doubled possessive"),
)


def sentence_problems(words: str, event_type: str) -> list[str]:
    """What keeps the words of an event from being a sentence a player would say."""
    if not words or not words.strip():
        return ["no words"]
    if words == event_type or re.fullmatch(r"(?:[A-Z][a-z]+){2,}", words):
        return ["the event's type instead of words"]
    found = [] if words[0].isupper() else ["no capital letter at the start"]
    plain = COORDINATES.sub("(q, r)", words)
    found += [what for pattern, what in CHECKS if pattern.search(plain)]
    return found


def sample_words(service, game: str, system) -> list[tuple[str, str]]:
    """(event type, words) of every event of a game's samples (events/<game>-*.jsonl),
    imported into `service` and read from the audit log; the core's own events left out."""
    said = []
    for path in sorted(config.SAMPLES.glob(f"{game}-*.jsonl")):
        service.import_lines(path.read_text(encoding="utf-8").splitlines())
        campaign = service.campaigns()[-1].id
        said += [(e.event.type, e.words) for e in service.history(campaign)]
    return [(kind, words) for kind, words in said if kind in system.events]
