"""What a player may see and do: the rules' answers the pages ask for."""

from __future__ import annotations

from tracker.errors import RuleViolation

from . import hexes, rules


def visible_state(state: dict, side: str | None) -> dict:
    """The state a player (or a spectator, side None) may see.

    Monster battles hide nothing: the board, every figure and every die are open to all.
    """
    return state


def destinations(state: dict, piece_id: str) -> dict[str, list[str]]:
    """The spaces a figure may move to now, each with one legal path (empty when none)."""
    battle = state["battle"]
    if not battle or battle["phase"] != "fighting":
        return {}
    piece = battle["pieces"].get(piece_id)
    if piece is None or piece["pos"] is None:
        return {}
    turn = battle["turn"]
    mine = piece["side"] == turn["side"] and turn["moved"] is None
    theirs = piece["side"] != turn["side"] and turn["moved"] is not None
    if not (mine or theirs):
        return {}
    return rules.reachable(state, battle, piece)


def targets(state: dict, piece_id: str) -> list[str]:
    """The enemies the figure may attack now (it must be the figure that moved this turn)."""
    battle = state["battle"]
    if not battle or battle["phase"] != "fighting":
        return []
    piece = battle["pieces"].get(piece_id)
    if piece is None or piece["pos"] is None or battle["turn"]["moved"] != piece_id:
        return []
    return [p["id"] for p in rules.attackable(state, battle, piece)]


# -- what the pages offer: only what the rules allow now --------------------------------------


def placements(state: dict, piece_id: str) -> list[str]:
    """The spaces a figure may be placed on now (empty when it may not be placed now)."""
    battle = state["battle"]
    if not battle or battle["phase"] != "placing":
        return []
    piece = battle["pieces"].get(piece_id)
    if piece is None or piece["pos"] is not None:
        return []
    castle = battle["castles"][piece["side"]]
    if piece["king"]:
        return [castle]
    if rules.king_of(battle, piece["side"])["pos"] is None:
        return []
    free = [
        space
        for space, terrain in battle["spaces"].items()
        if space not in battle["board"] and rules._may_stand(piece, terrain)
    ]
    if not free:
        return []
    nearest = min(hexes.distance(space, castle) for space in free)
    return sorted(
        (s for s in free if hexes.distance(s, castle) == nearest), key=lambda s: hexes.coords(s)
    )


def moves(state: dict, piece_id: str) -> dict[str, list[str]]:
    """The moves the rules allow the figure now: destination -> one legal path.

    Like `destinations`, and also keeps a lone king to its forced march and holds back the
    other side while a lone king still owes its attack.
    """
    out = destinations(state, piece_id)
    if not out:
        return {}
    battle = state["battle"]
    piece = battle["pieces"][piece_id]
    side = piece["side"]
    if side != battle["turn"]["side"]:
        try:
            rules._check_turn_may_end(state, battle)
        except RuleViolation:
            return {}
    if rules.lone_king(battle, side):
        start = piece["pos"]
        kept = {}
        castle = battle["castles"][rules.other(state, side)]
        for end, path in out.items():
            if piece["king"] and castle in path:  # entering the enemy castle wins
                kept[end] = path
                continue
            try:
                rules._check_lone_king_march(state, battle, piece, start, end)
            except RuleViolation:
                continue
            kept[end] = path
        out = kept
    return out


def movers(state: dict) -> list[str]:
    """The figures that have a legal move now, in the order of the board's pieces."""
    battle = state["battle"]
    if not battle or battle["phase"] != "fighting":
        return []
    return [pid for pid in battle["pieces"] if moves(state, pid)]


def attack_options(state: dict, attacker_id: str) -> list[dict]:
    """The enemies the figure that moved may attack now, each with what comes first.

    `{"defender": id, "ask": True}` when the defender is a flier whose owner must first say
    whether it comes down to fight; `"ask": False` when the attack may be rolled at once.
    """
    battle = state["battle"]
    out = []
    for defender_id in targets(state, attacker_id):
        attacker = battle["pieces"][attacker_id]
        defender = battle["pieces"][defender_id]
        ask = (
            defender["movement"] == "flier"
            and attacker["movement"] != "flier"
            and rules.may_refuse(battle, defender)
            and rules._answer(battle, defender_id, attacker_id) is None
        )
        out.append({"defender": defender_id, "ask": ask})
    return out


def may_stay_aloft(state: dict, flier_id: str) -> bool:
    """True when the flier may refuse to come down (it is not its side's last but the king)."""
    battle = state["battle"]
    flier = battle["pieces"].get(flier_id) if battle else None
    return bool(flier) and rules.may_refuse(battle, flier)
