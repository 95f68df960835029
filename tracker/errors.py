"""The errors the tracker raises, each carrying a message a player can read: a
`tracker.systems.i18n.Said`, read in the reader's language where it is shown."""

from tracker.systems.i18n import _, listed


class TrackerError(Exception):
    """Base of every error the tracker reports to a user in plain words."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class RuleViolation(TrackerError):
    """An event would break a rule of the campaign's game system.

    A void refused because a later event depends on the voided one names that event
    (`depends_on`, its version) and that event's own refusal without it (`reason`); both are
    None for any other refusal.
    """

    def __init__(self, message: str, *, depends_on: int | None = None, reason: str | None = None):
        super().__init__(message)
        self.depends_on = depends_on
        self.reason = reason


class InvalidEvent(TrackerError):
    """An event is malformed: unknown type, missing or ill-typed fields.

    `errors` maps each field to its list of messages, as marshmallow gives them; `schema`
    names the event type (or "settings") whose schema refused them, when one did.
    """

    def __init__(self, message: str, errors: dict | None = None, schema: str | None = None):
        super().__init__(message)
        self.errors = errors or {}
        self.schema = schema


class Conflict(TrackerError):
    """The campaign moved on since the client last saw it; nothing was written."""

    def __init__(self, campaign: str, expected: int, actual: int, changed: list[str] | None = None):
        words = _(
            "the campaign changed since you loaded it: %(campaign)r is at version %(actual)s, "
            "not %(expected)s",
            campaign=campaign,
            actual=actual,
            expected=expected,
        )
        if changed:
            words = _(
                "%(conflict)s; meanwhile, on the same side: %(changed)s",
                conflict=words,
                changed=joined(changed),
            )
        super().__init__(words)
        self.campaign = campaign
        self.expected = expected
        self.actual = actual
        self.changed = changed or []


class NotFound(TrackerError):
    """A campaign, event or page that does not exist."""


class ShownAt(TrackerError):
    """What a page was asked for is shown as the campaign stood at event `version` (a battle
    that has since left the state whole): the page answers with a link there."""

    def __init__(self, version: int):
        super().__init__(_("shown as the campaign stood at event %(version)s", version=version))
        self.version = version


class BatchError(TrackerError):
    """One event of a batch failed; `index` is its place in the batch (0-based)."""

    def __init__(self, index: int, event_type: str, error: TrackerError):
        super().__init__(
            _(
                "event %(n)s (%(type)s): %(error)s",
                n=index + 1,
                type=event_type,
                error=error.message,
            )
        )
        self.index = index
        self.event_type = event_type
        self.error = error


class ImportFailed(TrackerError):
    """A line of an import file failed; nothing of the file was written."""

    def __init__(self, line: int, message: str):
        super().__init__(_("line %(line)s: %(error)s", line=line, error=message))
        self.line = line


class KeyReused(TrackerError):
    """An Idempotency-Key already used by this account for a different request."""

    def __init__(self, key: str):
        super().__init__(
            _(
                "the Idempotency-Key %(key)r was already used for a different request; "
                "nothing was written (use a new key for a new request)",
                key=key,
            )
        )
        self.key = key


class CampaignExists(Conflict):
    """A campaign with this id exists already; nothing was written."""

    def __init__(self, campaign: str):
        TrackerError.__init__(
            self,
            _("there is already a campaign %(campaign)r: choose another id", campaign=campaign),
        )
        self.campaign = campaign
        self.expected = 0
        self.actual = None


def joined(parts: list):
    """Several messages as one ("a; b; c"), each still a message."""
    return listed(parts, "; ")
