"""Properties over random play: refusals change nothing, limits always hold, folds repeat."""

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.dice import SeededRoller
from tracker.errors import InvalidEvent, RuleViolation
from tracker.events import Event, state_text
from tracker.systems.base import copy_for_rules, load_json, settled
from tracker.systems.hellas import rules, system
from tracker.systems.hellas.cards import server_draw

_CONTENT = load_json(system.content_dir / "base.json")
REGIONS = sorted(_CONTENT["regions"])
PLAYERS = ["ann", "bo"]
region = st.sampled_from(REGIONS)
# "@turn" stands for whoever's turn it is; most events come from that player.
player = st.sampled_from(["@turn", "@turn", "@turn", *PLAYERS])
step = st.integers(min_value=0, max_value=5)
count = st.integers(min_value=1, max_value=4)
card = st.sampled_from(sorted(_CONTENT["combat_cards"]))


def _wounds():
    wound = st.sampled_from(
        sorted({w["id"] for m in _CONTENT["monsters"].values() for w in m["wounds"]})
    )
    return st.lists(
        st.fixed_dictionaries({"wound": wound, "cards": st.lists(card, min_size=1, max_size=3)}),
        max_size=2,
    )


move = st.fixed_dictionaries({"origin": step, "destination": step, "count": count})
# Proposals made from the state ("@legal": what a player who knows the rules would do;
# "@next": what the game waits for) keep random play moving; the rest are mostly refused.
LEGAL = st.sampled_from(
    ["hunt", "draw", "grant", "grant", "play", "wound", "quest", "quest", "move", "attack"]
)
EVENT = st.one_of(
    *[st.builds(lambda w: ("@legal", {"what": w}), LEGAL)] * 20,
    *[st.just(("@next", {}))] * 16,
    st.builds(lambda p: ("TurnEnded", {"player": p}), player),
    st.builds(
        lambda p, r: ("HeroMoved", {"player": p, "path": r}),
        player,
        st.lists(step, min_size=1, max_size=2),
    ),
    st.builds(
        lambda p, m: ("HoplitesMoved", {"player": p, "moves": m}),
        player,
        st.lists(move, min_size=1, max_size=2),
    ),
    st.builds(
        lambda p, m: ("HoplitesMarched", {"player": p, "moves": m}),
        player,
        st.lists(move, min_size=1, max_size=2),
    ),
    st.builds(
        lambda p, r, n: ("HoplitesRecruited", {"player": p, "placed": [{"region": r, "count": n}]}),
        player,
        region,
        st.integers(1, 8),
    ),
    st.builds(
        lambda p, m, n: ("PriestsSent", {"player": p, "monument": m, "count": n}),
        player,
        st.sampled_from(["zeus", "hermes", "athena"]),
        st.integers(1, 2),
    ),
    st.builds(lambda p: ("Prayed", {"player": p}), player),
    st.builds(
        lambda p, m: ("MonumentBuilt", {"player": p, "monument": m}),
        player,
        st.sampled_from(["zeus", "hermes", "athena"]),
    ),
    st.builds(
        lambda p, c: ("MonsterPhaseResolved", {"player": p, "card": c}),
        player,
        st.sampled_from(sorted(_CONTENT["event_cards"])),
    ),
    st.builds(lambda p: ("EventResolved", {"player": p}), player),
    st.builds(
        lambda p, q: ("QuestUndertaken", {"player": p, "quest": q}),
        player,
        st.sampled_from(sorted(_CONTENT["quests"])),
    ),
    st.builds(lambda p: ("QuestAdvanced", {"player": p}), player),
    st.builds(
        lambda p, cs: ("CombatCardsDrawn", {"player": p, "cards": cs}),
        player,
        st.lists(card, max_size=3),
    ),
    st.builds(
        lambda p, a: ("HeroAttributeChanged", {"player": p, "attribute": a, "value": 2}),
        player,
        st.sampled_from(["leadership", "strength", "speed"]),
    ),
    st.builds(
        lambda p, a: ("ArtifactGained", {"player": p, "artifact": a}),
        player,
        st.sampled_from(sorted(_CONTENT["artifacts"])),
    ),
    st.builds(lambda p, r: ("RegionUsurped", {"player": p, "region": r}), player, region),
    st.builds(
        lambda p, m, cs: ("HuntBegan", {"player": p, "monster": m, "cards": cs}),
        player,
        st.sampled_from(["boar", "harpy"]),
        st.lists(card, max_size=2),
    ),
    st.builds(lambda p, w: ("HeroAttacked", {"player": p, "wounds": w}), player, _wounds()),
    st.builds(
        lambda p, d: ("MonsterAttacked", {"player": p, "roll": [d]}), player, st.integers(1, 6)
    ),
    st.builds(lambda p, r: ("BattleBegan", {"player": p, "region": r}), player, region),
    st.builds(lambda p, c: ("CombatCardPlayed", {"player": p, "card": c}), player, card),
    st.builds(lambda p: ("BattlePassed", {"player": p}), player),
    st.builds(
        lambda p, r: ("ArmyRetreated", {"player": p, "to": r}), player, st.one_of(st.none(), region)
    ),
    st.builds(lambda p, r: ("TempleBuilt", {"player": p, "region": r}), player, region),
    st.builds(
        lambda p, r, n: ("HoplitesFortified", {"player": p, "region": r, "count": n}),
        player,
        region,
        st.integers(1, 3),
    ),
    st.builds(
        lambda p, r: ("RegionControlChanged", {"region": r, "player": p, "reason": "chance"}),
        player,
        region,
    ),
)


def _next(state):
    """The event the game most plainly waits for, so that random play gets somewhere."""
    game = state["game"]
    turn = game["turn"]
    battle, hunt = game["battle"], game["hunt"]
    if battle and battle["outcome"]:
        legal = rules.legal_retreats(state, game, battle)
        return "ArmyRetreated", {
            "player": battle["outcome"]["loser"],
            "to": legal[0] if legal else None,
        }
    if battle:
        return "BattlePassed", {"player": battle["next"]}
    if game["contested"]:
        return "BattleBegan", {"player": turn["player"], "region": game["contested"][0]}
    if turn["phase"] == "monster":
        card = next(
            c for c in sorted(state["content"]["event_cards"]) if c not in game["events_drawn"]
        )
        return "MonsterPhaseResolved", {"player": turn["player"], "card": card}
    if turn["phase"] == "event":
        return "EventResolved", {"player": turn["player"]}
    if hunt and hunt["status"] == "monster":
        return "MonsterAttacked", {"player": turn["player"], "roll": [2]}
    if hunt and hunt["status"] == "hero":
        return "HeroAttacked", {"player": turn["player"], "wounds": []}
    if not turn["special"]:
        return _a_special(state, turn["player"])
    return "TurnEnded", {"player": turn["player"]}


def _a_special(state, who):
    """One of the special actions still open, so that the turn can end."""
    game = state["game"]
    open_now = rules.open_actions(state, who)["special"]
    mine = sorted(r for r, p in game["regions"].items() if p["controller"] == who)
    if "prayer" in open_now:
        return "Prayed", {"player": who}
    if "recruit" in open_now and mine:
        return "HoplitesRecruited", {"player": who, "placed": [{"region": mine[0], "count": 1}]}
    building = [m for m, v in sorted(game["monuments"].items()) if v["level"] < 5]
    if "build_monument" in open_now and building:
        return "MonumentBuilt", {"player": who, "monument": building[len(mine) % len(building)]}
    return "TurnEnded", {"player": who}


def _grant_effect(state, game, grant):
    """The effect event that takes a grant, with data the rules may accept."""
    who, kind = grant["player"], grant["kind"]
    regions = state["content"]["regions"]
    if kind == "temple":
        sites = [r for r, p in game["regions"].items() if p["controller"] == who]
        sites = [r for r in sites if regions[r]["temple_site"]] or REGIONS
        return "TempleBuilt", {"player": who, "region": sites[0]}
    if kind == "fortify":
        mine = [r for r, p in game["regions"].items() if p["hoplites"].get(who)] or REGIONS
        return "HoplitesFortified", {"player": who, "region": mine[0], "count": 1}
    if kind == "artifact":
        free = [a for a, held in sorted(game["artifacts"].items()) if not held["owner"]]
        return "ArtifactGained", {"player": who, "artifact": (free or ["owl-lantern"])[0]}
    if kind == "attribute":
        attribute = grant.get("attribute") or "speed"
        value = game["heroes"][who][attribute] + 1
        return "HeroAttributeChanged", {"player": who, "attribute": attribute, "value": value}
    if kind == "control":
        return "RegionControlChanged", {"player": who, "region": grant["region"]}
    return "CombatCardsDrawn", {"player": who, "cards": _drawn(state, "grant", who)}


def _drawn(state, what, who):
    return server_draw(state, what, {"player": who}, SeededRoller(len(json.dumps(state))))


def _legal(state, what):
    """A proposal made from the state, as a player who knows the rules would make it."""
    game = state["game"]
    who = game["turn"]["player"]
    hand = game["hands"][who]
    waiting = rules.waiting_for(state)
    if waiting and what not in ("play", "wound"):
        return "@next", {}
    if what == "hunt":
        here = game["heroes"][who]["region"]
        beasts = [m for m, r in sorted(game["monsters"].items()) if r == here]
        if beasts:
            return "HuntBegan", {
                "player": who,
                "monster": beasts[0],
                "cards": _drawn(state, "hunt", who),
            }
        return "@next", {}
    if what == "grant" and game["grants"]:
        return _grant_effect(state, game, game["grants"][0])
    if what == "draw" and game["grants"]:
        first = game["grants"][0]
        return "CombatCardsDrawn", {
            "player": first["player"],
            "cards": _drawn(state, "grant", first["player"]),
        }
    if what == "play" and game["battle"] and game["battle"]["next"]:
        side = game["battle"]["next"]
        if game["hands"][side]:
            return "CombatCardPlayed", {"player": side, "card": game["hands"][side][0]}
    if what == "wound" and game["hunt"] and game["hunt"]["status"] == "hero":
        symbols = state["content"]["combat_cards"]
        monster = state["content"]["monsters"][game["hunt"]["monster"]]
        left = Counter(hand)
        for wound in monster["wounds"]:
            if wound["id"] in game["hunt"]["wounds"]:
                continue
            paid = []
            for symbol in wound["symbols"]:
                card = next(
                    (c for c in sorted(left) if left[c] and symbols[c]["symbol"] == symbol), None
                )
                if card is None:
                    break
                left[card] -= 1
                paid.append(card)
            else:
                return "HeroAttacked", {
                    "player": who,
                    "wounds": [{"wound": wound["id"], "cards": paid}],
                }
            left = Counter(hand)
    if what == "move" and "hero" in rules.open_actions(state, who)["normal"]:
        if not game["heroes"][who]["quest"]:
            near = state["neighbours"][game["heroes"][who]["region"]]
            quests = {q["region"] for q in game["quests"].values() if not q["done_by"]}
            to = next((r for r in near if r in quests), near[len(hand) % len(near)])
            return "HeroMoved", {"player": who, "path": [to]}
    if what == "attack" and "hoplites" in rules.open_actions(state, who)["normal"]:
        for rid, place in sorted(game["regions"].items()):
            if place["hoplites"].get(who):
                near = state["neighbours"][rid]
                foes = [r for r in near if any(p != who for p in game["regions"][r]["hoplites"])]
                to = (foes or near)[0]
                move = {"origin": rid, "destination": to, "count": place["hoplites"][who]}
                return "HoplitesMoved", {"player": who, "moves": [move]}
    if what == "quest":
        open_quests = system.views.choices(state, who)["quests_open"]
        if open_quests:
            return "QuestUndertaken", {"player": who, "quest": open_quests[0]}
        if game["heroes"][who]["quest"]:
            return "QuestAdvanced", {"player": who}
    return "@next", {}


def _resolve(state, type_, data):
    """Turn the placeholders into real names: the turn's player, neighbouring regions."""
    game, near = state["game"], state["neighbours"]
    if type_ == "@legal":
        type_, data = _legal(state, data["what"])
    if type_ == "@next":
        return _next(state)
    data = dict(data)
    if data.get("player") == "@turn":
        data["player"] = game["turn"]["player"]
    if "moves" in data and all(isinstance(m["origin"], int) for m in data["moves"]):
        mine = [r for r, p in game["regions"].items() if data["player"] in p["hoplites"]]
        moves = []
        for m in data["moves"]:
            origin = mine[m["origin"] % len(mine)] if mine else REGIONS[m["origin"]]
            moves.append(
                {
                    **m,
                    "origin": origin,
                    "destination": near[origin][m["destination"] % len(near[origin])],
                }
            )
        data["moves"] = moves
    if type_ == "HeroMoved" and all(isinstance(i, int) for i in data["path"]):
        here = game["heroes"].get(data["player"], {}).get("region", REGIONS[0])
        path = []
        for index in data["path"]:
            here = near[here][index % len(near[here])]
            path.append(here)
        data["path"] = path
    return type_, data


EFFECT_EVENTS = {
    "TempleBuilt",
    "HoplitesFortified",
    "ArtifactGained",
    "HeroAttributeChanged",
    "RegionControlChanged",
    "CombatCardsDrawn",
}


def _granted(state) -> int:
    return sum(g.get("count", 1) for g in state["game"]["grants"])


def _check_limits(state):
    game = state["game"]
    limits = state["content"]["limits"]
    for p in game["order"]:
        assert sum(r["hoplites"].get(p, 0) for r in game["regions"].values()) <= limits["hoplites"]
        priests = game["priests"][p] + sum(
            m["priests"].get(p, 0) for m in game["monuments"].values()
        )
        assert 0 <= priests <= limits["priests"]
        assert game["priests"][p] >= 0
    for rid, place in game["regions"].items():
        assert all(n > 0 for n in place["hoplites"].values())
        for p, n in place["fortified"].items():
            assert 0 < n <= place["hoplites"].get(p, 0)
        if len(place["hoplites"]) > 1:
            assert rid in game["contested"]
    for m in game["monuments"].values():
        assert 1 <= m["level"] <= limits["monument_levels"]
    # Every card of the deck is in exactly one place: the deck, a hand, the discard pile or
    # on the table in the battle being fought.
    where = Counter(game["deck"]) + Counter(game["discard"])
    for hand in game["hands"].values():
        assert len(hand) <= limits["hand"]
        where.update(hand)
    if game["battle"] and not game["battle"]["outcome"]:  # decided: played cards discarded
        for played in game["battle"]["cards"].values():
            where.update(played)
    assert where == Counter(
        {cid: c["copies"] for cid, c in state["content"]["combat_cards"].items()}
    )
    for p in game["order"]:
        hero = game["heroes"][p]
        assert all(
            1 <= hero[a] <= limits["attribute_max"] for a in ("leadership", "strength", "speed")
        )
        assert hero["quest"] is None or game["quests"][hero["quest"]]["hero"] == p


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(events=st.lists(EVENT, min_size=20, max_size=120))
def test_random_play_keeps_every_limit_and_refusals_change_nothing(make_table, events):
    Table = make_table
    table = Table()
    table.start(
        hoplites={"ann": {"korythos": 3, "eirinos": 2}, "bo": {"skiathe": 3, "dymara": 2}},
        heroes={"ann": "eirinos", "bo": "thyrea"},
    )
    accepted = [("GameStarted", None)]
    for type_, data in events:
        if table.game["over"]:
            break
        type_, data = _resolve(table.state, type_, data)
        before = json.dumps(table.state, sort_keys=True)
        try:
            table.play(type_, **data)
        except (RuleViolation, InvalidEvent):
            assert json.dumps(table.state, sort_keys=True) == before
            continue
        accepted.append((type_, table.last))
        _check_limits(table.state)
        if type_ in EFFECT_EVENTS:  # an effect took something granted, or it was refused
            assert _granted(table.state) < _granted(json.loads(before))
    # Folding the accepted events again gives the same state: the fold is deterministic. Each
    # is applied as a writer applies it, to a copy made as the rules reach into it: the
    # state copied from stays as it was.
    again = Table()
    again.start(
        hoplites={"ann": {"korythos": 3, "eirinos": 2}, "bo": {"skiathe": 3, "dymara": 2}},
        heroes={"ann": "eirinos", "bo": "thyrea"},
    )
    for _type, event in accepted[1:]:
        previous, before = again.state, state_text(again.state)
        again.state = settled(
            system.apply(
                copy_for_rules(previous),
                Event(None, "t", event.version, event.type, event.data, {}, None, None),
            )
        )
        assert state_text(previous) == before, event.type
    assert again.state == table.state


LEGAL_PLAY = st.one_of(st.builds(lambda w: ("@legal", {"what": w}), LEGAL), st.just(("@next", {})))


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(events=st.lists(LEGAL_PLAY, min_size=150, max_size=300))
def test_long_legal_games_with_hunts_battles_quests_and_cards_keep_every_limit(make_table, events):
    table = make_table()
    table.start(heroes={"ann": "eirinos", "bo": "thyrea"})
    for type_, data in events:
        if table.game["over"]:
            break
        type_, data = _resolve(table.state, type_, data)
        before = json.dumps(table.state, sort_keys=True)
        try:
            table.play(type_, **data)
        except (RuleViolation, InvalidEvent):
            assert json.dumps(table.state, sort_keys=True) == before
            continue
        _check_limits(table.state)
        if type_ in EFFECT_EVENTS:
            assert _granted(table.state) < _granted(json.loads(before))
