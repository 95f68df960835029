"""The registry of game systems: every package here with a `system` attribute is one."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from tracker.errors import NotFound
from tracker.i18n import _
from tracker.systems.base import GameSystem


@cache
def registry() -> dict[str, GameSystem]:
    """Every installed game system by name, found by looking at the packages here."""
    found: dict[str, GameSystem] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        system = getattr(module, "system", None)
        if isinstance(system, GameSystem):
            found[system.name] = system
    return dict(sorted(found.items()))


def get(name: str) -> GameSystem:
    """The game system called `name`; NotFound names the ones there are."""
    try:
        return registry()[name]
    except KeyError:
        known = ", ".join(registry()) or "none"
        raise NotFound(
            _(
                "there is no game system called %(name)r (there are: %(known)s)",
                name=name,
                known=known,
            )
        ) from None
