"""The Warcry campaign's contract with the core: its events, content, fold and words."""

from __future__ import annotations

import functools

from tracker.errors import InvalidEvent
from tracker.systems.base import GameSystem, load_json
from tracker.systems.i18n import _, localised
from tracker.systems.warcry import packs, rules, tables, views, words
from tracker.systems.warcry.schemas import EVENTS, ORGANISER_EVENTS, UPCASTERS, Settings


class Warcry(GameSystem):
    name = "warcry"
    title = _("Warcry campaign")
    events = EVENTS
    organiser_events = ORGANISER_EVENTS
    settings_schema = Settings
    side_field = "warband"
    upcasters = UPCASTERS
    handlers = rules.handlers
    views = views

    # -- content ---------------------------------------------------------------------------

    def content_packs(self) -> dict[str, str]:
        packs = {}
        for path in sorted(self.content_dir.glob("*.json")):
            pack = load_json(path)
            packs[path.stem] = localised(pack, "title") or path.stem
        return packs

    def quests(self, pack: str = "sample") -> dict[str, str]:
        content = self._pack(pack)
        return {qid: localised(q, "title") for qid, q in content["quests"].items()}

    def _pack(self, pack: str) -> dict:
        path = self.content_dir / f"{pack}.json"
        if not pack.replace("-", "").isalnum() or not path.exists():
            raise InvalidEvent(
                _(
                    "there is no Warcry content pack %(pack)r (there are: %(packs)s)",
                    pack=pack,
                    packs=", ".join(self.content_packs()),
                ),
                {"pack": ["unknown"]},
            )
        return _loaded(path)

    def prepare_settings(self, settings: dict) -> dict:
        """A new campaign's settings: the pack's content copied in, and today's rules unless
        they name others. Settings that carry their content already (an exported campaign)
        are kept as they are: without `rules`, they are a campaign of the first rules.

        The first rules are stored as no `rules` at all, as every campaign begun before the
        rules had versions was: a file naming them (the sample) is stored, and hashed, as
        it was then.
        """
        settings = dict(settings)
        if "content" not in settings:
            content = self._pack(settings.get("pack") or "sample")
            keys = ("lesser_artefacts", "quests", "factions")
            # The pack's words in other languages stay out of the log (and its hashes): the
            # state takes them from the pack when it is read (`initial_state`).
            settings["content"] = {k: _without_versions(content[k]) for k in keys if k in content}
            settings.setdefault("pack", content.get("id", "sample"))
            if not settings.get("quest"):
                settings["quest"] = next(iter(content["quests"]))
            settings.setdefault("rules", tables.CURRENT_RULES)
        named = settings.get("rules")
        if type(named) is int and named == tables.FIRST_RULES:
            del settings["rules"]
        return settings

    def content_events(self, document, source: str = "") -> list[dict]:
        """A warcry_data file: its factions and profiles, one `FactionsImported`."""
        return [{"type": "FactionsImported", "data": packs.factions_imported(document, source)}]

    def roster_events(self, state: dict, roster: dict, founding: dict) -> list[dict]:
        return packs.roster_events(state, roster, founding)

    # -- the fold and reading --------------------------------------------------------------

    def initial_state(self, settings: dict) -> dict:
        """The campaign before its first event, its content with the versions in other
        languages of its pack's words, where it still says them as the pack does."""
        state = rules.initial_state(settings)
        pack = settings.get("pack") or "sample"
        path = self.content_dir / f"{pack}.json"
        if pack.replace("-", "").isalnum() and path.exists():
            state["content"] = packs.with_versions(state["content"], _loaded(path))
        return state

    def visible_state(self, state: dict, side: str | None) -> dict:
        return views.visible_state(state, side)

    def public_state(self, state: dict) -> dict:
        return views.public_state(state)

    def describe(self, state: dict, event) -> str:
        return words.describe(state, event)

    def happening(self, state: dict, event) -> str | None:
        """A battle fought; an aftermath finished (the events that may end one: completing
        step 5 or declining the reward, or taking the reward; the warband then has none)."""
        if event.type == "BattleFought":
            return "battle"
        if event.type in ("AftermathStepCompleted", "ArtefactOfPowerGained", "CommandTraitGained"):
            wb = state["warbands"].get(event.data.get("warband"))
            if wb is not None and wb["aftermath"] is None:
                return "aftermath"
        return None

    def sides(self, state: dict) -> dict[str, str]:
        return {wid: wb["name"] for wid, wb in state["warbands"].items()}

    def sides_of(self, state: dict, event_type: str, data: dict) -> set[str]:
        if event_type == "BattleFought":
            return {side.get("warband") for side in data.get("sides", []) if isinstance(side, dict)}
        return {data["warband"]} if "warband" in data else set()


@functools.cache
def _loaded(path):
    """A content pack as its file holds it (read once: packs ship with the tracker). Callers
    copy before they change it."""
    return load_json(path)


def _without_versions(words):
    """A pack's content without its `i18n` versions, all through."""
    if isinstance(words, dict):
        return {k: _without_versions(v) for k, v in words.items() if k != "i18n"}
    if isinstance(words, list):
        return [_without_versions(v) for v in words]
    return words
