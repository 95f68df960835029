"""Roster files of BattleScribe and New Recruit (.ros, XML; .rosz, the same zipped) read
as plain data: the game they are for, and each force's fighters with their points and
categories. What a game makes of them is its own (`GameSystem.roster_events`).

XML is parsed by defusedxml with no DTD allowed: no entity is ever expanded, so a file
built to blow up in memory (or to read a file of the server) is refused in words.
"""

from __future__ import annotations

import io
import zipfile
from xml.etree.ElementTree import ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from tracker.errors import InvalidEvent
from tracker.systems.i18n import _

# The largest roster read, zipped or not: a roster of a skirmish game is a few hundred kB.
MAX_BYTES = 8 * 1024 * 1024
MAX_FIGHTERS = 200


def read_roster(content: bytes, filename: str = "") -> dict:
    """`{"game", "name", "forces": [{"catalogue", "fighters": [{"name", "points",
    "categories"}]}]}` from a .ros or .rosz file's bytes; `InvalidEvent` in words when the
    file is not a roster that can be read."""
    if content[:4] == b"PK\x03\x04" or filename.lower().endswith(".rosz"):
        content = _unzipped(content)
    if len(content) > MAX_BYTES:
        raise InvalidEvent(_larger())
    try:
        root = fromstring(content, forbid_dtd=True)
    except DefusedXmlException:
        raise InvalidEvent(
            _(
                "the roster declares a document type or entities, which no roster needs: "
                "it is refused unread"
            )
        ) from None
    except (ParseError, ValueError) as error:
        raise InvalidEvent(
            _("the roster is not XML that can be read (%(reason)s)", reason=str(error))
        ) from None
    if _tag(root) != "roster":
        raise InvalidEvent(_("the file is not a BattleScribe or New Recruit roster (.ros, .rosz)"))
    forces = [
        {"catalogue": force.get("catalogueName", ""), "fighters": _fighters(force)}
        for force in _children(root, "forces", "force")
    ]
    count = sum(len(force["fighters"]) for force in forces)
    if count > MAX_FIGHTERS:
        raise InvalidEvent(
            _(
                "a roster holds at most %(most)s fighters (%(count)s here)",
                most=MAX_FIGHTERS,
                count=count,
            )
        )
    return {
        "game": root.get("gameSystemName", ""),
        "name": root.get("name", ""),
        "forces": forces,
    }


def _unzipped(content: bytes) -> bytes:
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
        members = [i for i in archive.infolist() if i.filename.lower().endswith(".ros")]
        if len(members) != 1:
            raise InvalidEvent(_("a .rosz file holds one .ros roster, and this one does not"))
        if members[0].file_size > MAX_BYTES:
            raise InvalidEvent(_larger())
        with archive.open(members[0]) as handle:
            return handle.read(MAX_BYTES + 1)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError):
        raise InvalidEvent(_("the .rosz file is not a zip archive that can be read")) from None


def _tag(element) -> str:
    """An element's name without its namespace."""
    return element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""


def _fighters(force) -> list[dict]:
    """The models a force selects, each once for every one of its number."""
    out = []
    for selection in force.iter():
        if _tag(selection) != "selection" or selection.get("type") != "model":
            continue
        fighter = {
            "name": selection.get("name", "").strip(),
            "points": _points(selection),
            "categories": [
                c.get("name", "").strip()
                for c in _children(selection, "categories", "category")
                if c.get("name", "").strip()
            ],
        }
        number = selection.get("number", "1")
        for __ in range(int(number) if number.isdigit() and 0 < int(number) <= 20 else 1):
            out.append(dict(fighter, categories=list(fighter["categories"])))
    return out


def _children(element, group: str, name: str):
    for child in element:
        if _tag(child) == group:
            yield from (item for item in child if _tag(item) == name)


def _points(selection) -> int | None:
    for cost in _children(selection, "costs", "cost"):
        if cost.get("name", "").strip().lower() in ("pts", "points"):
            try:
                return int(float(cost.get("value", "")))
            except ValueError:
                return None
    return None


def refused(error, events: list[dict]) -> str:
    """A roster's refusal (a `BatchError` of its founding batch) naming its fighter."""
    inner = getattr(error, "error", error)
    index = getattr(error, "index", None)
    if index is None or not 0 < index < len(events):
        return _("the roster cannot found this warband: %(reason)s", reason=inner.message)
    name = events[index]["data"].get("name", "?")
    return _(
        "the roster's fighter %(name)s is refused: %(reason)s", name=name, reason=inner.message
    )


def _larger():
    return _("the roster is larger than %(most)s MB", most=MAX_BYTES // (1024 * 1024))
