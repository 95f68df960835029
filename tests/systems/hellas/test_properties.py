"""Properties over random play: refusals change nothing, limits always hold, folds repeat."""

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.errors import InvalidEvent, RuleViolation
from tracker.events import Event
from tracker.systems.base import load_json
from tracker.systems.hellas import rules, system

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
EVENT = st.one_of(
    st.just(("@next", {})),
    st.just(("@next", {})),
    st.just(("@next", {})),
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
    return "TurnEnded", {"player": turn["player"]}


def _resolve(state, type_, data):
    """Turn the placeholders into real names: the turn's player, neighbouring regions."""
    game, near = state["game"], state["neighbours"]
    if type_ == "@next":
        return _next(state)
    data = dict(data)
    if data.get("player") == "@turn":
        data["player"] = game["turn"]["player"]
    if "moves" in data:
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
    if type_ == "HeroMoved":
        here = game["heroes"].get(data["player"], {}).get("region", REGIONS[0])
        path = []
        for index in data["path"]:
            here = near[here][index % len(near[here])]
            path.append(here)
        data["path"] = path
    return type_, data


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
    # on the table in the battle under way.
    where = Counter(game["deck"]) + Counter(game["discard"])
    for hand in game["hands"].values():
        assert len(hand) <= limits["hand"]
        where.update(hand)
    if game["battle"]:
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
@given(events=st.lists(EVENT, max_size=80))
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
    # Folding the accepted events again gives the same state: the fold is deterministic.
    again = Table()
    again.start(
        hoplites={"ann": {"korythos": 3, "eirinos": 2}, "bo": {"skiathe": 3, "dymara": 2}},
        heroes={"ann": "eirinos", "bo": "thyrea"},
    )
    for _type, event in accepted[1:]:
        again.state = system.apply(
            again.state, Event(None, "t", event.version, event.type, event.data, {}, None, None)
        )
    assert again.state == table.state
