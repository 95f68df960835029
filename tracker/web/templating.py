"""The pages' template environment: Jinja's, with attribute lookups on plain dicts made cheap.

The templates read the folded state, which is plain dicts, as `warband.name`. Jinja looks an
attribute up first (`getattr`) and only then an item, so every such read raised and caught an
AttributeError before it found the key. For a plain dict and a name that is no attribute of
dict, the attribute lookup can only fail: trying the key first gives the same answer, without
the exception. Every other lookup (a dict's own methods, `warbands.items`; subclasses of dict;
any other object) goes Jinja's way.
"""

from __future__ import annotations

from typing import Any

from flask.templating import Environment

_DICT_ATTRIBUTES = frozenset(dir(dict))


class TrackerEnvironment(Environment):
    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        # Jinja's own lookup, written out rather than called: every other lookup goes
        # through here too.
        try:
            return getattr(obj, attribute)
        except AttributeError:
            pass
        try:
            return obj[attribute]
        except (TypeError, LookupError, AttributeError):
            return self.undefined(obj=obj, name=attribute)
