"""Parts of pages rendered from their inputs alone, and kept by those inputs.

A part is a template that reads nothing but the inputs a page gives it: no global, no
request, no other name (checked when a part is first asked for). Its HTML is then a
function of its inputs, so it is kept under their JSON text (msgspec's encoder: a page of the
audit log asks for fifty), and a page that gives the same
inputs again gets the same HTML without rendering it; a page that gives other inputs gets
the part rendered afresh. Nothing kept can be stale: what would change the HTML changes
the key.

The Warcry quest map is such a part: its points change only with the campaign's content and
its markers only when a warband moves on, and drawing it was most of a dashboard's
rendering. A page calls ``part("warcry/_map.html", quests=..., ...)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

import msgspec
from flask_babel import get_locale
from jinja2 import Environment, meta
from markupsafe import Markup

from tracker.systems import i18n

# Parts kept per process: a page of the audit log is fifty rows (each about 1.5 KB with its
# key), a Warcry map about 11 KB; enough for the open pages of some eighty campaigns.
KEPT = 4096


# The names a part may read besides its inputs: the translation callables, whose words follow
# the reader's language, part of each key.
TRANSLATING = frozenset({"_", "gettext", "ngettext"})


class PartError(RuntimeError):
    """A part reads a name it was not given: its HTML would not follow from its inputs."""


class Parts:
    def __init__(self, env: Environment, kept: int = KEPT):
        self.env = env
        self._needs: dict[str, frozenset] = {}
        self._rendered = lru_cache(maxsize=kept)(self._render)

    def __call__(self, name: str, **inputs) -> Markup:
        return self._drawn(name, inputs, _keys(i18n.reader()), str(get_locale()))

    def each(self, name: str, **inputs) -> Markup:
        """The part drawn for each item of the one sequence it is given, joined by line
        breaks: `each(name, row=rows)` is `part(name, row=row)` for every row (a page of the
        audit log is fifty, asked for in one call from its template)."""
        ((key, items),) = inputs.items()
        keys, language = _keys(i18n.reader()), str(get_locale())
        drawn = [self._drawn(name, {key: item}, keys, language) for item in items]
        return Markup("\n".join(drawn))

    def _drawn(self, name: str, inputs: dict, keys: msgspec.json.Encoder, language: str) -> Markup:
        needs = self._needs.get(name)
        if needs is None:
            needs = self._needs[name] = self._names_read(name)
        if not needs <= inputs.keys():
            missing = ", ".join(sorted(needs - inputs.keys()))
            raise PartError(f"the part {name} reads {missing}, which it is not given")
        return self._rendered(name, language, keys.encode(inputs))

    def look_over(self, names: Iterable[str]) -> None:
        """The names each of these parts reads, found now rather than on its first use (a
        template parsed again: on a first page, most of its time after the compiling)."""
        for name in names:
            if name not in self._needs:
                self._needs[name] = self._names_read(name)

    def _names_read(self, name: str) -> frozenset:
        """Every name the part reads, its environment's globals (Flask's `request`,
        `url_for`, ...) included: Jinja counts a global as declared."""
        bare = self.env.overlay()
        bare.globals = {}
        source, _, _ = self.env.loader.get_source(self.env, name)
        return frozenset(meta.find_undeclared_variables(bare.parse(source))) - TRANSLATING

    def _render(self, name: str, language: str, key: bytes) -> Markup:
        return Markup(self.env.get_template(name).render(msgspec.json.decode(key)))


def _keys(reader) -> msgspec.json.Encoder:
    """The encoder of parts' inputs into keys for one reader: its words are the reader's, each
    message and pack's text (a string of its own type, which msgspec hands to the hook)
    translated as it is met, and the language is a part of the key (the part's own `_(...)`
    read in it)."""

    def read_by_the_reader(value):
        if isinstance(value, str):
            return str(i18n.translate(value, reader))
        raise TypeError(f"a part's input cannot be {type(value).__name__}")

    return msgspec.json.Encoder(enc_hook=read_by_the_reader)


def only(items: Iterable[Mapping], *keys: str) -> list[dict]:
    """Each mapping with just these keys: what a part is given of a bigger record."""
    return [{key: item[key] for key in keys} for item in items]


def init_app(app) -> None:
    parts = Parts(app.jinja_env, app.config.get("TEMPLATE_PARTS_KEPT", KEPT))
    app.jinja_env.globals["part"] = parts
    app.jinja_env.filters["only"] = only
