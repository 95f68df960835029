"""Importing JSON Lines: every event checked by the rules as a recorded one is
(`tracker.recording.check`), then chained; all of a file or nothing.

Each line's shape is read on its own (`read_line`); its events are checked against its
campaign so far, in order, and the rows are written a chunk at a time in one transaction,
committed at the end: the import differs from recording only in that batched write.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from marshmallow import ValidationError

from tracker import systems
from tracker.campaign import CAMPAIGN_ID, CampaignStartedSchema, View
from tracker.errors import BatchError, ImportFailed, InvalidEvent, RuleViolation, TrackerError
from tracker.events import GENESIS, canonical, canonical_meta, chain_hash, decode, utcnow
from tracker.recording import check, started, unicode_only
from tracker.store import AppendResult
from tracker.systems.base import _plain
from tracker.systems.i18n import _

CHUNK = 500
_LINE_FIELDS = frozenset(("campaign", "version", "type", "data", "meta", "recorded_at", "hash"))
_START = CampaignStartedSchema()


@dataclass(slots=True)
class Line:
    """A line as read, before its campaign's rules have seen it (`fault`: what is wrong with
    the line itself, reported at once)."""

    number: int
    campaign: str = ""
    type: str | None = None
    data: object = None
    meta: dict | None = None
    recorded_at: str | None = None
    version: int | None = None
    hash: str | None = None
    fault: str | None = None


def read_line(number: int, text: str, actor: str, known: set) -> Line | None:
    """What can be known of a line without its campaign; None for a blank line. `known`:
    the campaigns started so far in the file."""
    text = text.rstrip("\r\n")
    if not text or text.isspace():
        return None
    try:
        record = decode(text)
    except ValueError as err:
        return Line(number, fault=_("is not JSON (%(reason)s)", reason=err.msg))
    except RecursionError:
        return Line(number, fault=_("is not JSON the tracker reads (nested too deeply)"))
    fault = _shape_fault(record, text, known)
    if fault:
        return Line(number, fault=fault)
    meta = record.get("meta") or {"source": "import"}
    if "actor" not in meta:
        meta = {"actor": actor, **meta}
    if record.get("type") == "CampaignStarted":
        known.add(record["campaign"])
    return Line(
        number,
        record["campaign"],
        record.get("type"),
        record.get("data"),
        meta,
        record.get("recorded_at"),
        record.get("version"),
        record.get("hash"),
    )


def _shape_fault(record, text: str, known: dict) -> str | None:
    """What is wrong with a line's shape, in words, or None."""
    if not isinstance(record, dict):
        return _("is not a JSON object")
    if "\\u" in text:
        try:
            unicode_only(record)
        except InvalidEvent as err:
            return err.message
    if not _LINE_FIELDS.issuperset(record):
        return _(
            "unknown fields %(fields)s", fields=", ".join(sorted(record.keys() - _LINE_FIELDS))
        )
    campaign = record.get("campaign")
    if campaign not in known and (not isinstance(campaign, str) or not CAMPAIGN_ID.match(campaign)):
        return _("the campaign id is missing or is not lower-case letters, digits and dashes")
    if not isinstance(record.get("meta") or {}, dict):
        return _("meta is a JSON object")
    recorded_at = record.get("recorded_at")
    if recorded_at is not None and not isinstance(recorded_at, str):
        return _("recorded_at is a time such as 2026-01-31T18:00:00.000000Z")
    return None


def read_lines(lines: Iterable[str], actor: str) -> Iterator[list[Line]]:
    """The lines that are not blank, as read, in order, a chunk at a time."""
    known: set = set()
    chunk: list[Line] = []
    for number, text in enumerate(lines, start=1):
        line = read_line(number, text, actor, known)
        if line is not None:
            chunk.append(line)
            if len(chunk) == CHUNK:
                yield chunk
                chunk = []
    yield chunk


@dataclass(slots=True)
class _Run:
    """A campaign of the file so far: its game, state, version and head hash."""

    system: object
    state: dict
    version: int = 1
    head: str = GENESIS


class Importer:
    """One import into a repository's store."""

    def __init__(self, repository):
        self.repository = repository
        self.store = repository.store
        self.campaigns: dict[str, _Run] = {}
        self.now = utcnow()

    def run(self, lines: Iterable[str], actor: str) -> list[AppendResult]:
        self.store.import_rows(self._checked(lines, actor))
        return [AppendResult(c, 1, run.version, run.head) for c, run in self.campaigns.items()]

    def _checked(self, lines, actor) -> Iterator[list[tuple]]:
        """The rows of each chunk of lines once the rules have passed them."""
        for chunk in read_lines(lines, actor):
            rows: list[tuple] = []
            for line in chunk:
                if line.fault:
                    raise ImportFailed(line.number, line.fault)
                if line.type == "EventVoided" and rows:
                    # A correction folds its campaign again from the log: the rows passed
                    # so far are written first (the transaction sees its own writes).
                    yield rows
                    rows = []
                try:
                    rows.append(self._one(line))
                except BatchError as err:
                    raise ImportFailed(line.number, err.error.message) from None
                except TrackerError as err:
                    raise ImportFailed(line.number, err.message) from None
            yield rows
        if not self.campaigns:
            raise ImportFailed(0, _("the file holds no event"))

    def _one(self, line: Line) -> tuple:
        """One line checked by the rules against its campaign so far, then chained."""
        run = self.campaigns.get(line.campaign)
        if run is None:
            data = self._begin(line)
            system = systems.get(data["system"])
            run = self.campaigns[line.campaign] = _Run(
                system, system.initial_state(data["settings"])
            )
            return self._chained(run, line, canonical(data), canonical_meta(line.meta))
        so_far = View(line.campaign, run.system, "", run.version, "", 0, run.state)
        submission = {"type": line.type, "data": line.data, "meta": line.meta}
        [event], run.state = check(
            self.repository, so_far, [submission], meta={}, roller=None, as_recorded=True
        )
        run.version += 1
        return self._chained(run, line, canonical(event.data), canonical_meta(event.meta))

    def _begin(self, line: Line) -> dict:
        """The first line of a campaign: its start's data, settings prepared."""
        if self.store.exists(line.campaign):
            raise RuleViolation(
                _(
                    "campaign %(campaign)r already exists; import refuses to add to it",
                    campaign=line.campaign,
                )
            )
        if line.type != "CampaignStarted":
            raise RuleViolation(
                _(
                    "campaign %(campaign)r must begin with CampaignStarted, not %(type)s",
                    campaign=line.campaign,
                    type=line.type,
                )
            )
        try:
            data = _START.load(line.data or {})
        except ValidationError as err:
            raise InvalidEvent(_plain(line.type, err.messages)) from None
        return started(data["system"], data["name"], data["settings"])

    def _chained(self, run: _Run, line: Line, data_json: str, meta_json: str) -> tuple:
        version = run.version
        if line.version is not None and line.version != version:
            raise RuleViolation(
                _(
                    "this is event %(version)s of %(campaign)r, but the line says version %(said)s",
                    version=version,
                    campaign=line.campaign,
                    said=line.version,
                )
            )
        if line.hash is not None and not line.recorded_at:
            raise InvalidEvent(_("a line with a hash needs its recorded_at"))
        at = line.recorded_at or self.now
        head = chain_hash(run.head, line.campaign, version, line.type, data_json, meta_json, at)
        if line.hash is not None and head != line.hash:
            raise RuleViolation(
                _(
                    "its hash does not match the events before it: the file "
                    "was changed after it was exported"
                )
            )
        run.head = head
        return (line.campaign, version, line.type, data_json, meta_json, at, head)
