"""Importing JSON Lines: every event checked by its rules; all of a file or nothing.

Each line is read on its own (decoded, its shape and schema checked, made canonical:
`read_line`), then checked by the rules against its campaign so far and chained, in order;
the rows are written a chunk at a time in one transaction, committed at the end.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from marshmallow import ValidationError

from tracker import systems
from tracker.campaign import CAMPAIGN_ID, CampaignStartedSchema, View
from tracker.checks import draw, unicode_only
from tracker.errors import BatchError, ImportFailed, InvalidEvent, RuleViolation, TrackerError
from tracker.events import (
    GENESIS,
    canonical,
    canonical_meta,
    chain_hash,
    decode,
    unrecorded,
    utcnow,
)
from tracker.recording import check, started
from tracker.store import AppendResult
from tracker.systems.base import _plain

CHUNK = 500
_LINE_FIELDS = frozenset(("campaign", "version", "type", "data", "meta", "recorded_at", "hash"))
_START = CampaignStartedSchema()


@dataclass(slots=True)
class Line:
    """A line as read, before its campaign's rules have seen it.

    `early` is a fault of the line itself, reported at once; `late` one the rules' side meets
    only after checking the campaign so far, reported then (so that the first fault of the
    file is the one named). `data_json` is the canonical data of a usual event; None leaves
    the line to the batch machinery (a correction, an unknown type), which reads `text`.
    """

    number: int
    campaign: str = ""
    type: str | None = None
    meta_json: str | None = None
    recorded_at: str | None = None
    version: int | None = None
    hash: str | None = None
    data: dict | None = None
    data_json: str | None = None
    early: str | None = None
    late: str | None = None
    text: str | None = None


def read_line(number: int, text: str, actor: str, known: dict) -> Line | None:
    """What can be known of a line without its campaign's state; None for a blank line.

    `known` maps each campaign started so far in the file to its game system.
    """
    text = text.rstrip("\r\n")
    if not text or text.isspace():
        return None
    try:
        record = decode(text)
    except ValueError as err:
        return Line(number, early=f"is not JSON ({err.msg})")
    except RecursionError:
        return Line(number, early="is not JSON the tracker reads (nested too deeply)")
    fault = _shape_fault(record, text, known)
    if fault:
        return Line(number, early=fault)
    campaign, type_ = record["campaign"], record.get("type")
    system = known.get(campaign)
    meta = record.get("meta") or {"source": "import"}
    if "actor" not in meta:
        meta = {"actor": actor, **meta}
    data = late = None
    try:
        if system is None:
            if type_ == "CampaignStarted":
                data = _START.load(record.get("data") or {})
                data = started(data["system"], data["name"], data["settings"])
                known[campaign] = systems.get(data["system"])
        elif type_ in system.events:
            raw = record.get("data")
            raw = {} if raw is None else raw
            if not isinstance(raw, dict):
                raise InvalidEvent("an event's data is a JSON object")
            shaped = system.upcast_data(type_, raw)
            data, _ = draw(system, type_, shaped, None, None)  # no roller: nothing is rolled
            if shaped is not raw:  # an older shape, stored as recorded
                data = system.as_recorded(raw, shaped, data)
    except ValidationError as err:
        data, late = None, _plain(type_, err.messages)
    except TrackerError as err:
        data, late = None, err.message
    return Line(
        number,
        campaign,
        type_,
        canonical_meta(meta),
        record.get("recorded_at"),
        record.get("version"),
        record.get("hash"),
        data,
        None if data is None else canonical(data),
        None,
        late,
        None if data is not None else text,
    )


def _shape_fault(record, text: str, known: dict) -> str | None:
    """What is wrong with a line's shape, in words, or None."""
    if not isinstance(record, dict):
        return "is not a JSON object"
    if "\\u" in text:
        try:
            unicode_only(record)
        except InvalidEvent as err:
            return err.message
    if not _LINE_FIELDS.issuperset(record):
        return f"unknown fields {', '.join(sorted(record.keys() - _LINE_FIELDS))}"
    campaign = record.get("campaign")
    if campaign not in known and (not isinstance(campaign, str) or not CAMPAIGN_ID.match(campaign)):
        return "the campaign id is missing or is not lower-case letters, digits and dashes"
    if not isinstance(record.get("meta") or {}, dict):
        return "meta is a JSON object"
    recorded_at = record.get("recorded_at")
    if recorded_at is not None and not isinstance(recorded_at, str):
        return "recorded_at is a time such as 2026-01-31T18:00:00.000000Z"
    return None


def read_lines(lines: Iterable[str], actor: str) -> Iterator[list[Line]]:
    """The lines that are not blank, as read, in order, a chunk at a time."""
    known: dict = {}
    chunk: list[Line] = []
    for number, text in enumerate(lines, start=1):
        line = read_line(number, text, actor, known)
        if line is not None:
            chunk.append(line)
            if len(chunk) == CHUNK:
                yield chunk
                chunk = []
    yield chunk


class Importer:
    """One import into a repository's store."""

    def __init__(self, repository):
        self.repository = repository
        self.store = repository.store
        self.campaigns: dict[str, dict] = {}
        self.now = utcnow()

    def run(self, lines: Iterable[str], actor: str) -> list[AppendResult]:
        self.store.import_rows(self._checked(lines, actor))
        return [
            AppendResult(c, 1, run["version"], run["head"]) for c, run in self.campaigns.items()
        ]

    def _checked(self, lines, actor) -> Iterator[list[tuple]]:
        """The rows of each chunk of lines once the rules have passed them."""
        for chunk in read_lines(lines, actor):
            rows: list[tuple] = []
            for line in chunk:
                if line.early:
                    raise ImportFailed(line.number, line.early)
                if line.data_json is None and rows:
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
            raise ImportFailed(0, "the file holds no event")

    def _one(self, line: Line) -> tuple:
        """One line checked by the rules against its campaign so far, then chained."""
        run = self.campaigns.get(line.campaign)
        data_json, meta_json = line.data_json, line.meta_json
        if run is None:
            run = self._begin(line)
        elif line.late:
            raise InvalidEvent(line.late)
        elif data_json is not None:
            run["version"] += 1
            event = unrecorded(
                campaign=line.campaign,
                version=run["version"],
                type=line.type,
                data=line.data,
                meta=meta_json,
            )
            run["state"] = run["system"].apply(run["state"], run["system"].upcast(event))
        else:
            data_json, meta_json = self._through_the_batch(run, line)
        return self._chained(run, line, data_json, meta_json)

    def _begin(self, line: Line) -> dict:
        if self.store.exists(line.campaign):
            raise RuleViolation(
                f"campaign {line.campaign!r} already exists; import refuses to add to it"
            )
        if line.type != "CampaignStarted":
            raise RuleViolation(
                f"campaign {line.campaign!r} must begin with CampaignStarted, not {line.type}"
            )
        if line.late:
            raise InvalidEvent(line.late)
        system = systems.get(line.data["system"])
        run = self.campaigns[line.campaign] = {
            "system": system,
            "state": system.initial_state(line.data["settings"]),
            "version": 1,
            "head": GENESIS,
        }
        return run

    def _through_the_batch(self, run: dict, line: Line) -> tuple[str, str]:
        """A correction, an unknown type, a second start: the write path's checks say."""
        so_far = View(line.campaign, run["system"], "", run["version"], "", 0, run["state"])
        [event], run["state"] = check(
            self.repository,
            so_far,
            [
                {
                    "type": line.type,
                    "data": decode(line.text).get("data"),
                    "meta": decode(line.meta_json),
                }
            ],
            meta={},
            roller=None,
            pending=[],  # every earlier line is written already
        )
        run["version"] += 1
        return canonical(event.data), canonical_meta(event.meta)

    def _chained(self, run: dict, line: Line, data_json: str, meta_json: str) -> tuple:
        version = run["version"]
        if line.version is not None and line.version != version:
            raise RuleViolation(
                f"this is event {version} of {line.campaign!r}, but the line says version "
                f"{line.version}"
            )
        if line.hash is not None and not line.recorded_at:
            raise InvalidEvent("a line with a hash needs its recorded_at")
        at = line.recorded_at or self.now
        head = chain_hash(run["head"], line.campaign, version, line.type, data_json, meta_json, at)
        if line.hash is not None and head != line.hash:
            raise RuleViolation(
                "its hash does not match the events before it: the file "
                "was changed after it was exported"
            )
        run["head"] = head
        return (line.campaign, version, line.type, data_json, meta_json, at, head)
