"""A pack's names in other languages: kept out of the log, given back to the fold.

A campaign's first event holds its board's content, hashed with the rest of the log. The
versions of its names per language (`"i18n"`, read by `tracker.systems.i18n.localised`) are words to
show, not rules: they stay out of that event, so that a translation added or mended later
changes no hash and reaches old campaigns too. The fold gives each entry of the content the
versions its shipped pack has for it, as long as the entry still reads as the pack's does.
"""

from __future__ import annotations

import copy

KEY = "i18n"


def without_versions(content):
    """The content with every entry's versions per language left out."""
    if isinstance(content, dict):
        return {k: without_versions(v) for k, v in content.items() if k != KEY}
    if isinstance(content, list):
        return [without_versions(v) for v in content]
    return content


def with_versions(content: dict, shipped: dict | None) -> dict:
    """A copy of `content` with the versions of `shipped` (the pack of the same id) on each
    entry whose texts are the pack's own; an entry that carries its own keeps them."""
    found = copy.deepcopy(content)
    if shipped:
        _give(found, shipped)
    return found


def _give(entry, shipped) -> None:
    if isinstance(entry, dict) and isinstance(shipped, dict):
        versions = shipped.get(KEY)
        if isinstance(versions, dict) and KEY not in entry:
            kept = {
                lang: {k: v for k, v in texts.items() if entry.get(k) == shipped.get(k)}
                for lang, texts in versions.items()
                if isinstance(texts, dict)
            }
            kept = {lang: texts for lang, texts in kept.items() if texts}
            if kept:
                entry[KEY] = kept
        for key, value in entry.items():
            if key != KEY and key in shipped:
                _give(value, shipped[key])
    elif isinstance(entry, list) and isinstance(shipped, list) and len(entry) == len(shipped):
        for mine, theirs in zip(entry, shipped, strict=True):
            _give(mine, theirs)
