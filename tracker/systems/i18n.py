"""Words a user reads, kept as a message and its parameters until the edge translates them.

A game system refuses an event and tells what an event did in messages made here, never in
formatted English: ``_("%(name)s has only %(glory)s glory", name=..., glory=...)``. Such a
message (`Said`) is a string (its English, for logs, tests and the command line) that also
keeps its msgid and parameters, so that the edge shows it in the reader's language, not the
writer's: the web through Flask-Babel's translations of the request, the command line through
the language of its environment. A parameter may itself be a message (a status, a term of the
game): it is translated too. The extractor (``pybabel extract``, babel.cfg) finds the msgids
by the names ``_``, ``N_`` and ``ngettext``; this module imports nothing from Flask.
"""

from __future__ import annotations

import functools
import gettext as _gettext
from collections.abc import Callable, Mapping
from pathlib import Path

from markupsafe import escape

# The languages the tracker speaks, each named in itself (the footer's switch), English first.
LANGUAGES = {"en": "English", "pl": "Polski", "cs": "Čeština", "it": "Italiano"}
DEFAULT = "en"
CATALOGUES = Path(__file__).parent.parent / "translations"
DOMAIN = "messages"


class Said(str):
    """A message and its parameters; as a string, its English."""

    msgid: str
    plural: str | None
    params: Mapping

    braced: bool

    def __new__(
        cls, msgid: str, plural: str | None = None, params: Mapping | None = None, braced=False
    ):
        params = dict(params or {})
        english = msgid if plural is None or params.get("num") == 1 else plural
        said = super().__new__(cls, _filled(english, params, braced))
        said.msgid, said.plural, said.params, said.braced = msgid, plural, params, braced
        return said

    def format(self, *args, **params) -> Said:
        """A message with `{name}` placeholders filled as marshmallow fills its own
        (`validate.Length`'s "{min}"): still a message, translated where it is read."""
        return Said(self.msgid, self.plural, {**self.params, **params}, braced=True)

    def __html__(self) -> str:  # Jinja and markupsafe ask this: the reader's words, escaped
        return str(escape(translate(self, reader())))

    def __reduce__(self):  # pickled (a kept state, a head) as a message, not as its English
        return (Said, (self.msgid, self.plural, self.params, self.braced))

    def __repr__(self) -> str:
        return f"Said({self.msgid!r}, {dict(self.params)!r})"


def _(msgid: str, **params) -> Said:
    """A message to translate where it is read; `%(name)s` placeholders, filled by `params`."""
    return Said(msgid, None, params)


def ngettext(singular: str, plural: str, num: int, **params) -> Said:
    """A message with plural forms chosen by `num` in the reader's language (Polish and
    Czech have three); `%(num)d` in either form is the number."""
    return Said(singular, plural, {"num": num, **params})


def N_(msgid: str) -> str:
    """A text marked for the catalogue and translated later by whoever shows it (a label in
    a table made at import time); as itself, its English."""
    return msgid


class Texts(str):
    """A name or a summary of a content pack, in several languages: as a string, the pack's
    default; shown to a reader, theirs where the pack has it."""

    versions: Mapping

    def __new__(cls, default: str, versions: Mapping | None = None):
        texts = super().__new__(cls, default)
        texts.versions = dict(versions or {})
        return texts

    def __html__(self) -> str:
        return str(escape(translate(self, reader())))

    def __reduce__(self):
        return (Texts, (str(self), self.versions))


def localised(entry: Mapping, key: str = "name", default=None):
    """An entry's text (`key`: name, summary...) with its versions per language, as a pack
    gives them: ``{"name": "Ash Wardens", "i18n": {"pl": {"name": "Strażnicy Popiołu"}}}``.
    A language the pack leaves out reads the default (`default` where the entry has no
    `key` of its own: a short name made from the name)."""
    versions = {
        lang: texts[key]
        for lang, texts in (entry.get("i18n") or {}).items()
        if isinstance(texts, Mapping) and isinstance(texts.get(key), str)
    }
    text = entry.get(key, default)
    return Texts(text, versions) if versions and isinstance(text, str) else text


def listed(items, separator: str = ", ", empty=""):
    """Messages or names one after another as one message (", " between them, or "; "),
    each still read in the reader's language: one item is itself, none is `empty`."""
    items = list(items)
    if not items:
        return empty
    together = items[-1]
    for item in reversed(items[:-1]):
        if separator == "; ":
            together = _("%(first)s; %(rest)s", first=item, rest=together)
        else:
            together = _("%(first)s, %(rest)s", first=item, rest=together)
    return together


def translate(words, translations) -> str:
    """`words` in the language of `translations` (a gettext translations object, its
    `language` attribute the code): a message translated with its parameters (each
    translated first), a pack's text in its version for that language, anything else as it
    is."""
    if isinstance(words, Texts):
        return str(words.versions.get(getattr(translations, "language", DEFAULT), words))
    if not isinstance(words, Said):
        return words
    params = {k: translate(v, translations) for k, v in words.params.items()}
    if words.plural is None:
        text = translations.gettext(words.msgid)
    else:
        text = translations.ngettext(words.msgid, words.plural, params["num"])
    return _filled(text, params, words.braced)


def _filled(text: str, params: Mapping, braced: bool) -> str:
    if not params:
        return text
    return text.format(**params) if braced else text % params


def translated(words, translations):
    """`words` translated all through: a message, or a list or dict of them (a form's
    errors), with dict keys (field names) kept."""
    kind = type(words)
    if kind in _PLAIN:  # most of what a page's part is given: nothing to translate
        return words
    if kind is dict or isinstance(words, dict):
        return {k: translated(v, translations) for k, v in words.items()}
    if kind is list or kind is tuple or isinstance(words, list | tuple):
        return [translated(v, translations) for v in words]
    return translate(words, translations)


_PLAIN = {str, int, float, bool, type(None)}


@functools.cache
def catalogue(language: str):
    """The translations of one language from the catalogues shipped with the tracker
    (English, or a language without one, is the msgids themselves), its code as its
    `language`."""
    found = _gettext.translation(DOMAIN, CATALOGUES, [language], fallback=True)
    found.language = language if language in LANGUAGES else DEFAULT
    return found


def _english():
    return catalogue(DEFAULT)


# Who is reading: the process's reader (the command line's environment language; English
# when none is set) and, in a web request, the request's reader (Flask-Babel's translations
# of the request), which answers None outside a request: the process's then.
_reader: Callable = _english
_in_requests: Callable | None = None


def reader():
    if _in_requests is not None:
        found = _in_requests()
        if found is not None:
            return found
    return _reader()


def read_by(get_translations: Callable) -> None:
    """The process's reader: translations in the language everything here is read in."""
    global _reader
    _reader = get_translations


def read_in_requests(get_translations: Callable) -> None:
    """The reader of each request (None outside one), before the process's."""
    global _in_requests
    _in_requests = get_translations
