"""The one door to campaigns: every entry point (pages, API, command line) goes through a
`Service`, which hands each call to its use case (tracker.recording, tracker.upkeep, the
importer) and reads through the campaign repository (tracker.repository)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from tracker import recording, upkeep
from tracker.campaign import CAMPAIGN_ID, CORE_EVENTS, Entry, View, slug
from tracker.dice import Roller, SystemRoller
from tracker.importer import Importer
from tracker.repository import SNAPSHOT_EVERY, CampaignRepository, DiceTally, Projections, worded
from tracker.store import AppendResult, Store

__all__ = ["Service", "View", "Entry", "CAMPAIGN_ID", "CORE_EVENTS", "slug"]


class Service:
    """Campaigns as the rules see them, over one store. `kept`: what the process keeps of
    campaigns between requests, shared by its services (one of its own when None)."""

    def __init__(
        self,
        store: Store,
        roller: Roller | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
        kept: Projections | None = None,
    ):
        self.store = store
        self.roller = roller or SystemRoller()
        self.repository = CampaignRepository(store, kept, snapshot_every)

    # -- reading ---------------------------------------------------------------------------

    def system_of(self, campaign: str):
        """The campaign's game system and name."""
        return self.repository.system_of(campaign)

    def state(self, campaign: str, at: int | None = None) -> View:
        """The campaign folded to version `at` (the latest when None): time travel. The
        latest state is shared with other readers: it must not be changed."""
        return self.repository.state(campaign, at)

    def history(self, campaign: str, upto: int | None = None) -> Iterator[Entry]:
        """Every event up to `upto` with its words, folded as it goes (the audit log)."""
        system, _ = self.system_of(campaign)
        voided = self.store.voids(campaign, upto)
        yield from worded(system, None, self.store.read(campaign, upto=upto), voided)

    def log_page(self, campaign: str, upto: int, count: int, as_of: int | None = None):
        """The `count` events up to `upto` with their words, oldest first, as the campaign
        stood at `as_of` (the latest when None): worded as `history(campaign, as_of)`."""
        return self.repository.log_page(campaign, upto, count, as_of)

    def recent(self, campaign: str, count: int = 10, upto: int | None = None) -> list[Entry]:
        """The last `count` events up to `upto` (the latest when None), newest first."""
        upto = upto or self.store.version(campaign)
        return self.log_page(campaign, upto, count, as_of=upto)[::-1]

    def dice(self, campaign: str, version: int) -> DiceTally:
        """The dice rolled up to `version`, counted (not to be changed)."""
        return self.repository.dice(campaign, version)

    def void_chain(self, campaign: str, version: int) -> list[Entry]:
        """Event `version` and every later one that depends on it, newest first: what a
        void of it takes with it (`tracker.recording.chain`)."""
        return recording.chain(self.repository, campaign, version)

    def campaigns(self):
        return self.store.campaigns()

    def campaign_page(self, among: list[tuple[str, tuple]], **page):
        """A page of campaigns (`Store.campaign_page`)."""
        return self.store.campaign_page(among, **page)

    def campaign_row(self, campaign: str):
        """One campaign's row (`Store.campaign`), or None."""
        return self.store.campaign(campaign)

    # -- writing ---------------------------------------------------------------------------

    def start(
        self,
        campaign: str,
        system_name: str,
        name: str,
        settings: dict | None = None,
        *,
        actor: str = "anonymous",
        source: str = "api",
        idempotency_key: str | None = None,
    ) -> AppendResult:
        """Start a new campaign of a game system; its first event names the system."""
        return recording.start(
            self.repository, campaign, system_name, name, settings,
            actor=actor, source=source, idempotency_key=idempotency_key,
        )  # fmt: skip

    def append(
        self,
        campaign: str,
        submissions: list[dict],
        expected_version: int | None,
        *,
        actor: str = "anonymous",
        source: str = "api",
        idempotency_key: str | None = None,
        roller: Roller | None = None,
        guard: Callable | None = None,
        strict: bool = True,
    ) -> AppendResult:
        """Check a batch of events against the rules and append it, or write nothing
        (`tracker.recording.record`)."""
        return recording.record(
            self.repository, campaign, submissions, expected_version,
            actor=actor, source=source, idempotency_key=idempotency_key,
            roller=roller or self.roller, guard=guard, strict=strict,
        )  # fmt: skip

    def branch(
        self, source: str, upto: int, campaign: str, name: str, *, actor: str, visible=None
    ) -> AppendResult:
        """Play on from `source` as it stood at `upto` (`tracker.recording.branch`)."""
        return recording.branch(
            self.repository, source, upto, campaign, name, actor=actor, visible=visible
        )

    def import_lines(self, lines: Iterable[str], *, actor: str = "import") -> list[AppendResult]:
        """Import JSON Lines: every event checked by its rules; all of the file or nothing."""
        return Importer(self.repository).run(lines, actor)

    # -- upkeep ----------------------------------------------------------------------------

    def verify(self, campaign: str | None = None):
        return upkeep.verify(self.repository, campaign)

    def check_snapshots(self, campaign: str) -> list[int]:
        return upkeep.check_snapshots(self.repository, campaign)

    def witness(self, campaign: str, version: int, head: str) -> str | None:
        return upkeep.witness(self.repository, campaign, version, head)

    def export(self, campaign: str, guard: Callable | None = None) -> Iterator[str]:
        return upkeep.export(self.repository, campaign, guard)

    def rebuild(self, progress: Callable[[int], None] | None = None) -> int:
        return upkeep.rebuild(self.repository, progress)
