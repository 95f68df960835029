"""The registry of game systems: every package here with a `system` attribute is one.

The package itself imports nothing of the tracker when it is first imported: its modules
every layer reads (`i18n`, the words a user reads; `names`) are imported by the core's own
modules (errors, dice, events) while those are still being made.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tracker.systems.base import GameSystem


@cache
def registry() -> dict[str, GameSystem]:
    """Every installed game system by name, found by looking at the packages here."""
    from tracker.systems.base import GameSystem

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
    from tracker.errors import NotFound
    from tracker.systems.i18n import _

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
