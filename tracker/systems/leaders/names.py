"""The names of the shipped content (Leaders, characters, boards) in each language it gives.

A campaign keeps a copy of its board and characters in its first event, without their
versions per language (so translating a name never changes a log). The versions are looked
up here by the name itself: a campaign whose name is the pack's English name reads the
pack's version, one that renamed it keeps its own name.
"""

from __future__ import annotations

import functools
from pathlib import Path

from tracker.systems.base import load_json
from tracker.systems.i18n import Texts, localised

CONTENT = Path(__file__).parent / "content"


@functools.cache
def _characters() -> dict[str, dict]:
    pack = load_json(CONTENT / "characters.json")
    entries = [*pack["leaders"], *(piece for card in pack["cards"] for piece in card["pieces"])]
    return {entry["name"]: entry for entry in entries}


@functools.cache
def _boards() -> dict[str, dict]:
    return {path.stem: load_json(path) for path in (CONTENT / "boards").glob("*.json")}


def named(name: str, capital: bool = False):
    """A character's or a Leader's name in the reader's language; `capital` for the start
    of a sentence ("the Hook" -> "The Hook")."""
    entry = _characters().get(name)
    text = localised(entry, "name") if entry else name
    return capitalised(text) if capital else text


def capitalised(text):
    if isinstance(text, Texts):
        return Texts(_cap(text), {lang: _cap(v) for lang, v in text.versions.items()})
    return _cap(text)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def board_title(board: dict):
    """A board layout's title in the reader's language, where the pack gives it."""
    title = board.get("title") or board.get("id", "")
    entry = _boards().get(board.get("id", ""))
    if entry and entry.get("title") == title:
        return localised(entry, "title")
    return title


def without_versions(content):
    """Content as a campaign keeps it: every `i18n` left out."""
    if isinstance(content, dict):
        return {k: without_versions(v) for k, v in content.items() if k != "i18n"}
    if isinstance(content, list):
        return [without_versions(v) for v in content]
    return content
