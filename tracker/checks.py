"""What every submitted event meets on its way in, whichever way it comes (a form, the API,
an import): its text is Unicode, and its dice are drawn or given."""

from __future__ import annotations

from tracker.errors import InvalidEvent
from tracker.events import canonical


def unicode_only(value) -> None:
    """Refuse text that is not Unicode: JSON may spell a lone surrogate ("\\ud800"), which
    no UTF-8 file, database or hash can hold."""
    try:
        canonical(value).encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidEvent(
            "the text holds a character that is not Unicode (a lone surrogate such as "
            "\\ud800); nothing was written",
            {"data": ["not Unicode text"]},
        ) from None
    except (TypeError, ValueError):
        pass  # not JSON data: the schema says what is wrong with it


def draw(system, type_: str, raw: dict, state, roller):
    """Fill the dice an event leaves out; return its data, loaded by its schema, and how its
    dice came ("server-roll", "table-roll" or None). With no roller (an import) every die
    must be there."""
    how = None
    for name, spec in system.drawn_fields(type_).items():
        if raw.get(name) is None:
            if roller is None:
                raise InvalidEvent(
                    f"{type_}: {name}: an imported event carries its {spec.label} result",
                    {name: ["missing"]},
                )
            raw[name] = spec.draw(roller, raw, state)
            how = "server-roll"
        else:
            how = how or "table-roll"
    return system.load(type_, raw), how
