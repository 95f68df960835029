"""The monster battles game system: the contract with the core, and the words of its events."""

from __future__ import annotations

from marshmallow import ValidationError

from tracker.errors import InvalidEvent
from tracker.systems.base import Event, GameSystem, _plain

from . import content, formtext, rules, views
from .hexes import parse_rows, shown
from .schemas import EVENTS


def _check_typed(name: str, entries: dict) -> None:
    """Refuse a figure or map typed in the start form (or given in the settings) in words
    that name it (the settings schema would check it too, in words about dictionaries)."""
    schema = content.MapSchema() if name == "own_map" else content.FigureSchema()
    for entry_id, entry in entries.items():
        try:
            content.SLUG(entry_id)
            errors = schema.validate(entry)
        except ValidationError as err:
            errors = {"id": err.messages}
        if errors:
            words = _plain(entry_id, errors)
            raise InvalidEvent(f"settings: {name}: {words}", {name: [words]})


class MonsterBattles(GameSystem):
    name = "monsters"
    title = "Monster battles"
    events = EVENTS
    settings_schema = content.SettingsSchema

    # -- content ---------------------------------------------------------------------------

    def content_packs(self) -> dict[str, str]:
        return dict(content.PACKS)

    def prepare_settings(self, settings: dict) -> dict:
        """Copy the pack's maps and figures into settings that do not carry their own, and
        add the figures and map typed in the start form (`own_figures`, `own_map`) to them."""
        if not isinstance(settings, dict):
            return settings
        prepared = dict(settings)
        typed = {}
        for name, read in (("own_figures", formtext.figures), ("own_map", formtext.game_map)):
            text = prepared.pop(name, None)
            if text is None:
                continue
            if not isinstance(text, str):
                raise InvalidEvent(f"settings: {name}: a text", {name: ["a text"]})
            try:
                typed[name] = read(text)
            except ValueError as err:
                raise InvalidEvent(f"settings: {name}: {err}", {name: [str(err)]}) from None
            _check_typed(name, typed[name])
        pack = prepared.get("pack", "standard")
        if ("maps" not in prepared or "figures" not in prepared) and pack in content.PACKS:
            loaded = content.load_pack(self.content_dir, pack)
            prepared.setdefault("maps", loaded["maps"])
            prepared.setdefault("figures", loaded["figures"])
        # What is typed joins the pack's (and replaces an entry of the same id); the settings
        # schema checks every entry.
        for name, key in (("own_figures", "figures"), ("own_map", "maps")):
            if typed.get(name) and isinstance(prepared.get(key), dict):
                prepared[key] = {**prepared[key], **typed[name]}
        if isinstance(prepared.get("figures"), dict):
            given = {k: v for k, v in prepared["figures"].items() if isinstance(v, dict)}
            _check_typed("figures", given)
        return prepared

    # -- the fold --------------------------------------------------------------------------

    def initial_state(self, settings: dict) -> dict:
        return rules.initial_state(settings)

    def apply(self, state: dict, event: Event) -> dict:
        return rules.apply(state, event)

    # -- reading ---------------------------------------------------------------------------

    def sides(self, state: dict) -> dict[str, str]:
        return dict(state["sides"])

    def sides_of(self, state: dict, event_type: str, data: dict) -> set[str]:
        """Setup agreements act for both players; a figure's event for its owner."""
        everyone = set(state["order"])
        if event_type in ("BattleBegun", "FiguresChosen"):
            return everyone
        if event_type == "BattleEnded":
            winner = data.get("winner")
            if winner not in everyone:
                return everyone
            if data.get("reason") == "conceded":
                return {rules.other(state, winner)}
            return {winner}
        field = {
            "FigurePlaced": "piece",
            "FigureMoved": "piece",
            "AttackMade": "attacker",
            "FlierCameDown": "flier",
            "FlierStayedAloft": "flier",
        }.get(event_type)
        battle = state.get("battle") or {}
        piece = battle.get("pieces", {}).get(data.get(field)) if field else None
        return {piece["side"]} if piece else set()

    def public_state(self, state: dict) -> dict:
        """Nothing is hidden in monster battles: the whole state is public."""
        return state

    # -- what the pages ask (pure: the rules' answers, no HTML) ----------------------------

    def placements(self, state: dict, piece_id: str) -> list[str]:
        return views.placements(state, piece_id)

    def moves(self, state: dict, piece_id: str) -> dict[str, list[str]]:
        return views.moves(state, piece_id)

    def movers(self, state: dict) -> list[str]:
        return views.movers(state)

    def attack_options(self, state: dict, attacker_id: str) -> list[dict]:
        return views.attack_options(state, attacker_id)

    def may_stay_aloft(self, state: dict, flier_id: str) -> bool:
        return views.may_stay_aloft(state, flier_id)

    def outcome_words(self, state: dict) -> str:
        """How the battle under way was decided (or ended), in words; "" when it was not."""
        battle = state.get("battle")
        if not battle or not battle.get("outcome"):
            return ""
        return rules.outcome_words(state, battle)

    def map_layout(self, state: dict, map_id: str) -> dict:
        """A map of the campaign as spaces ("q,r" -> terrain) and castles (side -> space)."""
        spaces, castles = parse_rows(state["maps"][map_id]["rows"])
        first, second = state["order"]
        return {"spaces": spaces, "castles": {first: castles["A"], second: castles["B"]}}

    def shown(self, space: str) -> str:
        """A space as players read it: (q, r)."""
        return shown(space)

    def path_text(self, path: list[str]) -> str:
        """A path as a form sends it back: "3,2 3,3"."""
        return formtext.shown_path(path)

    def describe(self, state: dict, event: Event) -> str:
        data = event.data
        battle = state["battle"]
        if event.type == "BattleBegun":
            first = state["sides"][data["first"]]
            return f"Battle {data['battle']} began on {battle['map_name']}; {first} moves first"
        if event.type == "FiguresChosen":
            figures = state["figures"]
            names = ", ".join(figures[k]["name"] for k in data["figures"])
            return f"Each side fields {names}, with the {figures[data['king']]['name']} as king"
        pieces = battle["pieces"]
        who = rules.who
        if event.type == "FigurePlaced":
            piece = pieces[data["piece"]]
            king = " (king)" if piece["king"] else ""
            return f"{who(state, piece)}{king} was placed at {shown(piece['pos'])}"
        if event.type == "FigureMoved":
            piece = pieces[data["piece"]]
            action = battle["last_action"]
            steps = action["steps"]
            words = (
                f"{who(state, piece)} moved from {shown(action['from'])} to "
                f"{shown(action['path'][-1])} ({steps} step{'' if steps == 1 else 's'})"
            )
            outcome = battle["outcome"]
            if outcome and outcome["reason"] == "castle-taken" and battle["phase"] == "decided":
                words += f" and {rules.outcome_words(state, battle)}"
            return words
        if event.type in ("FlierCameDown", "FlierStayedAloft"):
            flier, attacker = pieces[data["flier"]], pieces[data["attacker"]]
            if event.type == "FlierCameDown":
                return f"{who(state, flier)} came down to fight {who(state, attacker)}"
            return f"{who(state, flier)} stayed aloft and would not fight {who(state, attacker)}"
        if event.type == "AttackMade":
            return attack_words(state, battle["last_action"])
        if event.type == "BattleEnded":
            if data["winner"] is None:
                return f"Battle {data['battle']} ended in a draw: both kings fell at once"
            return (
                f"Battle {data['battle']} ended: {state['sides'][data['winner']]} won "
                f"({rules.outcome_words(state, battle)})"
            )
        return event.type


def attack_words(state: dict, action: dict) -> str:
    """An attack as one line: who, the totals of each round, and what it cost."""
    pieces = state["battle"]["pieces"]
    attacker, defender = pieces[action["attacker"]], pieces[action["defender"]]
    # a tie is rolled again: "10 against 10, rolled again, then 13 against 9"
    rounds = ", rolled again, then ".join(
        f"{r['attacker_total']} against {r['defender_total']}" for r in action["rounds"]
    )
    words = f"{rules.who(state, attacker)} attacked {rules.who(state, defender)}: {rounds}"
    outcome = action["outcome"]
    if outcome == "both-sixes":
        return words + "; both rolled two sixes and both died"
    winner, loser = (attacker, defender) if outcome.startswith("attacker") else (defender, attacker)
    if outcome.endswith("sixes"):
        words += f"; the {winner['name']} rolled two sixes"
    if loser["id"] in action["removed"]:
        return words + f"; the {loser['name']} was killed"
    left = loser["lives"]
    return (
        words
        + f"; the {loser['name']} lost a life ({left} {'life' if left == 1 else 'lives'} left)"
    )
