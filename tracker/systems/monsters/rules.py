"""The rules of monster battles: each event checked against them, then folded into the state.

Every handler checks all its rules first and raises `RuleViolation` in the words a player
would use at the table; only then does it change the state, in place.
"""

from __future__ import annotations

from tracker.errors import RuleViolation
from tracker.events import Event
from tracker.systems.base import Handlers
from tracker.systems.i18n import N_, _, localised

from . import hexes
from .hexes import shown

#: the rules' handlers, one per event type
handlers = Handlers()

#: steps a turn for the figures that go on foot; fliers go anywhere
STEPS = {"walker": 3, "runner": 5}
#: what a defender's ground adds to its total (a castle counts +3 whatever it stands on)
GROUND = {"castle": 3, "mountains": 3, "forest": 1}
REASONS = ("king-killed", "castle-taken", "both-kings-fell", "conceded")
#: the words of each way a battle ends, as the pages list them
REASON_WORDS = {
    "king-killed": N_("king killed"),
    "castle-taken": N_("castle taken"),
    "both-kings-fell": N_("both kings fell"),
    "conceded": N_("conceded"),
}
#: how each kind of figure moves, in the players' words
MOVEMENT_WORDS = {"walker": N_("walker"), "runner": N_("runner"), "flier": N_("flier")}
#: a battle's phases, as the pages name them
PHASE_WORDS = {
    "choosing": N_("choosing"),
    "placing": N_("placing"),
    "fighting": N_("fighting"),
    "decided": N_("decided"),
    "ended": N_("ended"),
}


# -- the state ---------------------------------------------------------------------------------


def initial_state(settings: dict) -> dict:
    players = settings["players"]
    return {
        "sides": {p["id"]: p["name"] for p in players},
        "order": [p["id"] for p in players],
        "maps": settings["maps"],
        "figures": settings["figures"],
        "battle": None,
        "battles": [],
        "standings": {p["id"]: {"played": 0, "won": 0, "lost": 0, "drawn": 0} for p in players},
        "records": {},
    }


# -- small helpers -----------------------------------------------------------------------------


def other(state: dict, side: str) -> str:
    first, second = state["order"]
    return second if side == first else first


def who(state: dict, piece: dict) -> str:
    """A figure as players name it: Alice's Bear."""
    return _(
        "%(player)s's %(figure)s",
        player=state["sides"][piece["side"]],
        figure=figure_name(state, piece),
    )


def figure_name(state: dict, piece: dict) -> str:
    """A figure's name in the reader's language where its content has one: "Bear", and the
    second of a kind "Bear 2" (the state keeps the name it was given, in the pack's words)."""
    figure = state["figures"].get(piece["kind"]) or {}
    default = figure.get("name")
    if default is None or not piece["name"].startswith(default):
        return piece["name"]
    number = piece["name"][len(default) :].strip()
    name = localised(figure, "name")
    if not number:
        return name
    if not number.isdigit():
        return piece["name"]
    return _("%(figure)s %(number)s", figure=name, number=number)


def map_name(state: dict, battle: dict) -> str:
    """The name of a battle's map in the reader's language where its content has one."""
    chosen = state["maps"].get(battle["map"]) or {}
    if chosen.get("name") != battle["map_name"]:
        return battle["map_name"]
    return localised(chosen, "name")


def movement(word: str) -> str:
    """A kind of movement (walker, runner, flier) in the reader's words."""
    return _(MOVEMENT_WORDS[word]) if word in MOVEMENT_WORDS else word


def strength(state: dict, piece: dict) -> int:
    return state["figures"][piece["kind"]]["strength"][str(piece["lives"])]


def alive(battle: dict, side: str | None = None):
    """The figures on the board (of one side when given)."""
    return [
        p
        for p in battle["pieces"].values()
        if p["pos"] is not None and (side is None or p["side"] == side)
    ]


def king_of(battle: dict, side: str) -> dict:
    return battle["pieces"][battle["kings"][side]]


def lone_king(battle: dict, side: str) -> bool:
    """True when a side's king is its only figure left on the board."""
    left = alive(battle, side)
    return len(left) == 1 and left[0]["king"]


def may_refuse(battle: dict, flier: dict) -> bool:
    """A flier may refuse to come down unless it is its side's last figure besides the king."""
    others = [p for p in alive(battle, flier["side"]) if not p["king"] and p is not flier]
    return bool(others)


def _battle(state: dict, data: dict) -> dict:
    battle = state["battle"]
    if battle is None or battle["phase"] == "ended":
        raise RuleViolation(_("no battle is under way: begin one first"))
    if data["battle"] != battle["id"]:
        raise RuleViolation(
            _(
                "the battle under way is %(battle)s, not %(asked)s",
                battle=battle["id"],
                asked=data["battle"],
            )
        )
    return battle


def _piece(battle: dict, piece_id: str) -> dict:
    piece = battle["pieces"].get(piece_id)
    if piece is None:
        raise RuleViolation(
            _(
                "there is no figure %(figure)s in battle %(battle)s",
                figure=repr(piece_id),
                battle=battle["id"],
            )
        )
    return piece


def _on_board(state: dict, battle: dict, piece_id: str) -> dict:
    piece = _piece(battle, piece_id)
    if piece["pos"] is None:
        if piece["lives"] == 0:
            raise RuleViolation(
                _("%(figure)s was killed and has left the battle", figure=who(state, piece))
            )
        raise RuleViolation(_("%(figure)s is not on the board yet", figure=who(state, piece)))
    return piece


def _fighting(state: dict, battle: dict) -> None:
    phase = battle["phase"]
    if phase == "choosing":
        raise RuleViolation(_("the figures are chosen and placed before the first move"))
    if phase == "placing":
        missing = [p for p in battle["pieces"].values() if p["pos"] is None]
        raise RuleViolation(
            _(
                "every figure is placed before the first move (%(figure)s is not)",
                figure=who(state, missing[0]),
            )
        )
    if phase == "decided":
        raise RuleViolation(
            _(
                "battle %(battle)s is decided (%(outcome)s); record its end",
                battle=battle["id"],
                outcome=outcome_words(state, battle),
            )
        )


def outcome_words(state: dict, battle: dict) -> str:
    outcome = battle["outcome"]
    reason, winner = outcome["reason"], outcome["winner"]
    if reason == "both-kings-fell":
        return _("both kings fell at once")
    loser = state["sides"][other(state, winner)]
    if reason == "king-killed":
        return _("%(loser)s's king was killed", loser=loser)
    if reason == "castle-taken":
        return _(
            "%(winner)s's king entered %(loser)s's castle",
            winner=state["sides"][winner],
            loser=loser,
        )
    return _("%(loser)s conceded", loser=loser)


def _coord(value) -> str:
    return hexes.key(value[0], value[1])


# -- setting up a battle -----------------------------------------------------------------------


@handlers.on("BattleBegun")
def battle_begun(state: dict, event: Event) -> None:
    data = event.data
    current = state["battle"]
    if current is not None and current["phase"] != "ended":
        raise RuleViolation(
            _(
                "battle %(battle)s is still under way: end it before beginning another",
                battle=current["id"],
            )
        )
    if any(b["id"] == data["battle"] for b in state["battles"]):
        raise RuleViolation(
            _("this campaign already had a battle called %(battle)s", battle=data["battle"])
        )
    chosen = state["maps"].get(data["map"])
    if chosen is None:
        known = ", ".join(sorted(state["maps"]))
        raise RuleViolation(
            _(
                "there is no map called %(map)s (there are: %(known)s)",
                map=repr(data["map"]),
                known=known,
            )
        )
    if data["first"] not in state["sides"]:
        names = ", ".join(state["order"])
        raise RuleViolation(
            _(
                "%(player)s is not a player of this campaign (%(players)s)",
                player=repr(data["first"]),
                players=names,
            )
        )
    spaces, castles = hexes.parse_rows(chosen["rows"])
    first, second = state["order"]
    state["battle"] = {
        "id": data["battle"],
        "map": data["map"],
        "map_name": chosen["name"],
        "spaces": spaces,
        "castles": {first: castles["A"], second: castles["B"]},
        "first": data["first"],
        "phase": "choosing",
        "king": None,
        "kings": {},
        "pieces": {},
        "board": {},
        "turn": None,
        "last_attack_by": None,
        "outcome": None,
        "last_action": {"type": "begun"},
    }


@handlers.on("FiguresChosen")
def figures_chosen(state: dict, event: Event) -> None:
    data = event.data
    battle = _battle(state, data)
    if battle["phase"] != "choosing":
        raise RuleViolation(
            _("the figures of battle %(battle)s are chosen already", battle=battle["id"])
        )
    figures = state["figures"]
    for kind in data["figures"]:
        if kind not in figures:
            known = ", ".join(sorted(figures))
            raise RuleViolation(
                _(
                    "there is no figure called %(figure)s (there are: %(known)s)",
                    figure=repr(kind),
                    known=known,
                )
            )
    king = data["king"]
    if king not in data["figures"]:
        raise RuleViolation(
            _("the king is one of the chosen figures (%(king)s is not)", king=repr(king))
        )
    if figures[king]["movement"] == "flier":
        raise RuleViolation(
            _(
                "a king is a walker or a runner, never a flier (%(figure)s)",
                figure=localised(figures[king], "name"),
            )
        )
    seen: dict[str, int] = {}
    order = []
    for kind in data["figures"]:
        seen[kind] = seen.get(kind, 0) + 1
        order.append((kind, seen[kind]))
    for side in state["order"]:
        for kind, n in order:
            figure = figures[kind]
            piece_id = f"{side}-{kind}" if n == 1 else f"{side}-{kind}-{n}"
            is_king = kind == king and n == 1
            battle["pieces"][piece_id] = {
                "id": piece_id,
                "side": side,
                "kind": kind,
                "name": figure["name"] if n == 1 else f"{figure['name']} {n}",
                "movement": figure["movement"],
                "lives": figure["lives"],
                "max_lives": figure["lives"],
                "king": is_king,
                "pos": None,
                "kills": 0,
                "lives_lost": 0,
            }
            if is_king:
                battle["kings"][side] = piece_id
            record = state["records"].setdefault(
                piece_id,
                {
                    "side": side,
                    "kind": kind,
                    "name": battle["pieces"][piece_id]["name"],
                    "battles": 0,
                    "kills": 0,
                    "lives_lost": 0,
                    "deaths": 0,
                },
            )
            record["battles"] += 1
    battle["king"] = king
    battle["phase"] = "placing"
    battle["last_action"] = {"type": "chosen", "figures": list(data["figures"]), "king": king}


@handlers.on("FigurePlaced")
def figure_placed(state: dict, event: Event) -> None:
    data = event.data
    battle = _battle(state, data)
    if battle["phase"] == "choosing":
        raise RuleViolation(_("the figures are chosen before any is placed"))
    if battle["phase"] != "placing":
        raise RuleViolation(_("figures are placed only before the first move"))
    piece = _piece(battle, data["piece"])
    at = _coord(data["at"])
    check_placement(state, battle, piece, at)
    piece["pos"] = at
    battle["board"][at] = piece["id"]
    battle["last_action"] = {"type": "placed", "piece": piece["id"], "at": at}
    if all(p["pos"] is not None for p in battle["pieces"].values()):
        battle["phase"] = "fighting"
        battle["turn"] = _turn(battle["first"], 1)


def check_placement(
    state: dict, battle: dict, piece: dict, at: str, nearest: int | None = None
) -> None:
    """RuleViolation unless `piece` may be placed on space `at` now (the battle is placing).

    The king starts in its own castle; the other figures after it, each on a free space it
    may stand on, as close around the castle as free spaces allow. `nearest` is
    `nearest_free(battle, piece)` when the caller has it already (a page asking of every
    space).
    """
    name = who(state, piece)
    if piece["pos"] is not None:
        raise RuleViolation(
            _(
                "%(figure)s is already placed at %(space)s",
                figure=name,
                space=shown(piece["pos"]),
            )
        )
    spaces = battle["spaces"]
    if at not in spaces:
        raise RuleViolation(
            _("%(space)s is not on the map (%(figure)s)", space=shown(at), figure=name)
        )
    side = piece["side"]
    castle = battle["castles"][side]
    if piece["king"]:
        if at != castle:
            raise RuleViolation(
                _(
                    "the king starts in its own castle (%(figure)s to %(space)s; "
                    "the castle is %(castle)s)",
                    figure=name,
                    space=shown(at),
                    castle=shown(castle),
                )
            )
        return
    if king_of(battle, side)["pos"] is None:
        raise RuleViolation(
            _(
                "the king is placed in its castle before the other figures (%(figure)s waits)",
                figure=name,
            )
        )
    holder = battle["board"].get(at)
    if holder is not None:
        raise RuleViolation(
            _(
                "two figures never share a space (%(space)s holds %(figure)s)",
                space=shown(at),
                figure=who(state, battle["pieces"][holder]),
            )
        )
    if not _may_stand(piece, spaces[at]):
        raise RuleViolation(
            _(
                "a %(movement)s cannot stand in water (%(figure)s to %(space)s)",
                movement=movement(piece["movement"]),
                figure=name,
                space=shown(at),
            )
        )
    far = hexes.distance(at, castle)
    if nearest is None:
        nearest = nearest_free(battle, piece)
    if nearest is not None and far > nearest:
        raise RuleViolation(
            _(
                "figures start as close around their castle as free spaces allow "
                "(%(figure)s to %(space)s is %(far)s from the castle; free spaces "
                "%(nearest)s away remain)",
                figure=name,
                space=shown(at),
                far=far,
                nearest=nearest,
            )
        )


def nearest_free(battle: dict, piece: dict) -> int | None:
    """How far from its castle the nearest free space `piece` may stand on lies (None: none)."""
    castle = battle["castles"][piece["side"]]
    return min(
        (
            hexes.distance(space, castle)
            for space, terrain in battle["spaces"].items()
            if space not in battle["board"] and _may_stand(piece, terrain)
        ),
        default=None,
    )


def _may_stand(piece: dict, terrain: str) -> bool:
    return terrain != "water" or piece["movement"] == "flier"


def _turn(side: str, number: int) -> dict:
    return {"side": side, "number": number, "moved": None, "answers": []}


def _next_turn(battle: dict, side: str, number: int) -> dict:
    """The turn that begins, with the fliers' answers given ahead of it for its attackers."""
    turn = _turn(side, number)
    turn["answers"] = battle.pop("next_answers", None) or []
    return turn


# -- movement ----------------------------------------------------------------------------------


def check_path(state: dict, battle: dict, piece: dict, path: list[str]) -> int:
    """The steps a move costs, or RuleViolation naming the first rule the path breaks."""
    spaces = battle["spaces"]
    name = who(state, piece)
    flier = piece["movement"] == "flier"
    cost = 0
    here = piece["pos"]
    for i, there in enumerate(path):
        if there not in spaces:
            raise RuleViolation(
                _("%(space)s is not on the map (%(figure)s)", space=shown(there), figure=name)
            )
        if not hexes.adjacent(here, there):
            raise RuleViolation(
                _(
                    "a move goes from a space to a neighbouring one, step by step "
                    "(%(figure)s: %(start)s to %(space)s is no step)",
                    figure=name,
                    start=shown(here),
                    space=shown(there),
                )
            )
        if flier:
            cost += 1
        else:
            cost = _foot_step(
                state, battle, piece, here, there, first=i == 0, alone=len(path) == 1, spent=cost
            )
        here = there
    _check_landing(state, battle, piece, path[-1])
    return cost


def _foot_step(state, battle, piece, here, there, *, first, alone, spent) -> int:
    """The steps spent once a walker or runner has entered `there` from `here`."""
    spaces, pieces = battle["spaces"], battle["pieces"]
    moves = piece["movement"]
    word = movement(moves)
    name = who(state, piece)
    terrain = spaces[there]
    if terrain == "water":
        raise RuleViolation(
            _(
                "a %(movement)s cannot enter water (%(figure)s to %(space)s)",
                movement=word,
                figure=name,
                space=shown(there),
            )
        )
    holder = battle["board"].get(there)
    if holder is not None and pieces[holder]["side"] != piece["side"]:
        enemy = pieces[holder]
        if enemy["movement"] == "flier":
            raise RuleViolation(
                _(
                    "a %(movement)s cannot pass an enemy flier, only go around it "
                    "(%(figure)s into %(enemy)s at %(space)s)",
                    movement=word,
                    figure=name,
                    enemy=who(state, enemy),
                    space=shown(there),
                )
            )
        raise RuleViolation(
            _(
                "a %(movement)s cannot move through or onto an enemy "
                "(%(figure)s into %(enemy)s at %(space)s)",
                movement=word,
                figure=name,
                enemy=who(state, enemy),
                space=shown(there),
            )
        )
    _check_mountains(word, name, spaces[here] == "mountains", here, there, terrain, first, alone)
    cost = spent + (2 if terrain == "forest" else 1)
    allowance = STEPS.get(moves, 0)
    if cost > allowance:
        raise RuleViolation(
            _(
                "a %(movement)s moves at most %(allowance)s steps a turn, a forest costing 2 "
                "(%(figure)s would spend %(cost)s to reach %(space)s)",
                movement=word,
                allowance=allowance,
                figure=name,
                cost=cost,
                space=shown(there),
            )
        )
    return cost


def _check_mountains(movement, name, from_mountains, here, there, terrain, first, alone) -> None:
    """Mountains are entered, crossed and left one space a turn, as a whole move."""
    to_mountains = terrain == "mountains"
    if to_mountains and not from_mountains and not first:
        raise RuleViolation(
            _(
                "a %(movement)s stops before the mountains and enters them on a later turn "
                "(%(figure)s to %(space)s)",
                movement=movement,
                figure=name,
                space=shown(there),
            )
        )
    if (from_mountains or to_mountains) and not alone:
        if from_mountains and to_mountains:
            rule = N_(
                "in the mountains a %(movement)s moves one space a turn "
                "(%(figure)s from %(start)s to %(space)s)"
            )
        elif from_mountains:
            rule = N_(
                "leaving the mountains takes a %(movement)s a whole turn "
                "(%(figure)s from %(start)s to %(space)s)"
            )
        else:
            rule = N_(
                "entering the mountains takes a %(movement)s a whole turn "
                "(%(figure)s from %(start)s to %(space)s)"
            )
        raise RuleViolation(
            _(rule, movement=movement, figure=name, start=shown(here), space=shown(there))
        )


def _check_landing(state: dict, battle: dict, piece: dict, end: str) -> None:
    """A move ends on a free space (its own counts), and a flier not among enemies."""
    holder = battle["board"].get(end)
    if holder is not None and holder != piece["id"]:
        raise RuleViolation(
            _(
                "two figures never share a space (%(space)s holds %(figure)s)",
                space=shown(end),
                figure=who(state, battle["pieces"][holder]),
            )
        )
    if piece["movement"] == "flier" and surrounded(battle, end, piece["side"]):
        raise RuleViolation(
            _(
                "a flier cannot land on a space surrounded by enemy monsters "
                "(%(figure)s to %(space)s)",
                figure=who(state, piece),
                space=shown(end),
            )
        )


def surrounded(battle: dict, space: str, side: str) -> bool:
    """True when every neighbour of `space` on the map holds an enemy of `side`."""
    spaces, board, pieces = battle["spaces"], battle["board"], battle["pieces"]
    around = [n for n in hexes.neighbours(space) if n in spaces]
    return bool(around) and all(n in board and pieces[board[n]]["side"] != side for n in around)


def reachable(state: dict, battle: dict, piece: dict) -> dict[str, list[str]]:
    """Every space the figure may end its move on this turn, with one legal path to it."""
    if piece["movement"] == "flier":
        return _flier_reach(battle, piece)
    if battle["spaces"][piece["pos"]] == "mountains":
        return {
            there: [there]
            for there in hexes.neighbours(piece["pos"])
            if _passable(battle, piece, there) and _free(battle, piece, there)
        }
    return _foot_reach(battle, piece)


def _flier_reach(battle: dict, piece: dict) -> dict[str, list[str]]:
    """A flier goes anywhere on the map, landing on a free space not among enemies."""
    spaces, board = battle["spaces"], battle["board"]
    start = piece["pos"]
    paths = {start: []}
    frontier = [start]
    while frontier:
        following = []
        for here in frontier:
            for there in hexes.neighbours(here):
                if there in spaces and there not in paths:
                    paths[there] = paths[here] + [there]
                    following.append(there)
        frontier = following
    out = {}
    for space, path in paths.items():
        if space == start:
            near = [n for n in hexes.neighbours(start) if n in spaces]
            if not near:
                continue
            path = [near[0], start]
        if board.get(space, piece["id"]) != piece["id"] or surrounded(battle, space, piece["side"]):
            continue
        out[space] = path
    return out


def _passable(battle: dict, piece: dict, space: str) -> bool:
    """A walker or runner may enter `space`: on the map, no water, no enemy in it."""
    spaces = battle["spaces"]
    if space not in spaces or spaces[space] == "water":
        return False
    holder = battle["board"].get(space)
    return holder is None or battle["pieces"][holder]["side"] == piece["side"]


def _free(battle: dict, piece: dict, space: str) -> bool:
    return battle["board"].get(space, piece["id"]) == piece["id"]


def _step_cost(terrain: str) -> int:
    return 2 if terrain == "forest" else 1


def _foot_reach(battle: dict, piece: dict) -> dict[str, list[str]]:
    """A walker's or runner's moves from outside the mountains: the cheapest paths over
    spaces that are not mountains, back to the start, and one step into the mountains."""
    spaces = battle["spaces"]
    start = piece["pos"]
    allowance = STEPS[piece["movement"]]
    out = {
        space: path
        for space, (_cost, path) in _cheapest_paths(battle, piece, allowance).items()
        if space != start and _free(battle, piece, space)
    }
    home = _step_cost(spaces[start])
    for there in hexes.neighbours(start):
        if _passable(battle, piece, there) and spaces[there] != "mountains":
            if _step_cost(spaces[there]) + home <= allowance:
                out[start] = [there, start]
                break
    for there in hexes.neighbours(start):
        if _passable(battle, piece, there) and spaces[there] == "mountains":
            if _free(battle, piece, there):
                out[there] = [there]
    return out


def _cheapest_paths(battle: dict, piece: dict, allowance: int) -> dict[str, tuple]:
    """space -> (steps, path) of the cheapest path there within `allowance`, no mountains."""
    spaces = battle["spaces"]
    best = {piece["pos"]: (0, [])}
    frontier = [piece["pos"]]
    while frontier:
        following = []
        for here in frontier:
            spent, path = best[here]
            for there in hexes.neighbours(here):
                if not _passable(battle, piece, there) or spaces[there] == "mountains":
                    continue
                cost = spent + _step_cost(spaces[there])
                if cost > allowance:
                    continue
                if there not in best or best[there][0] > cost:
                    best[there] = (cost, path + [there])
                    following.append(there)
        frontier = following
    return best


@handlers.on("FigureMoved")
def figure_moved(state: dict, event: Event) -> None:
    data = event.data
    battle = _battle(state, data)
    _fighting(state, battle)
    piece = _on_board(state, battle, data["piece"])
    path = [_coord(step) for step in data["path"]]
    cost, takes_castle = check_move(state, battle, piece, path)
    # the rules hold: change the state
    side = piece["side"]
    turn = battle["turn"]
    if side != turn["side"]:
        battle["turn"] = turn = _next_turn(battle, side, turn["number"] + 1)
    start, end = piece["pos"], path[-1]
    del battle["board"][start]
    battle["board"][end] = piece["id"]
    piece["pos"] = end
    turn["moved"] = piece["id"]
    battle["last_action"] = {
        "type": "moved",
        "piece": piece["id"],
        "from": start,
        "path": path,
        "steps": cost,
    }
    if takes_castle:
        battle["phase"] = "decided"
        battle["outcome"] = {"winner": side, "reason": "castle-taken"}


def check_move(state: dict, battle: dict, piece: dict, path: list[str]) -> tuple[int, bool]:
    """The steps the move of `piece` along `path` costs now and whether its king takes the
    enemy castle, or RuleViolation naming the first rule it breaks (the battle is fighting)."""
    _check_mover_turn(state, battle, piece)
    cost = check_path(state, battle, piece, path)
    side = piece["side"]
    # the source: a side wins by *entering* the enemy castle with its king, so a king whose
    # path goes through that castle has entered it, wherever the move stops
    takes_castle = piece["king"] and battle["castles"][other(state, side)] in path
    if lone_king(battle, side) and not takes_castle:
        _check_lone_king_march(state, battle, piece, piece["pos"], path[-1])
    return cost, takes_castle


def _check_mover_turn(state: dict, battle: dict, piece: dict) -> None:
    """A figure moves first in its side's turn, one figure a turn."""
    side = piece["side"]
    turn = battle["turn"]
    if side != turn["side"]:
        if turn["moved"] is None:
            if battle["last_attack_by"] == side:
                raise RuleViolation(
                    _(
                        "a monster moves and then attacks, never attacks and then moves "
                        "(%(player)s attacked; it is %(turn)s's turn)",
                        player=state["sides"][side],
                        turn=state["sides"][turn["side"]],
                    )
                )
            raise RuleViolation(
                _(
                    "players take turns: it is %(turn)s's turn (%(figure)s waits)",
                    turn=state["sides"][turn["side"]],
                    figure=who(state, piece),
                )
            )
        _check_turn_may_end(state, battle)
    elif turn["moved"] is not None:
        moved = battle["pieces"][turn["moved"]]
        raise RuleViolation(
            _(
                "a player moves one figure a turn (%(player)s already moved the %(figure)s "
                "this turn)",
                player=state["sides"][side],
                figure=figure_name(state, moved),
            )
        )


def _check_lone_king_march(state, battle, king, start, end) -> None:
    enemies = [p["pos"] for p in alive(battle, other(state, king["side"]))]

    def toward(space: str) -> bool:
        return any(
            hexes.distance(space, e) < hexes.distance(start, e) or hexes.distance(space, e) == 1
            for e in enemies
        )

    if toward(end) or not any(toward(s) for s in reachable(state, battle, king)):
        return
    raise RuleViolation(
        _(
            "a king left alone moves at least one space toward an enemy monster every turn "
            "(%(figure)s from %(start)s to %(space)s)",
            figure=who(state, king),
            start=shown(start),
            space=shown(end),
        )
    )


def _check_turn_may_end(state: dict, battle: dict) -> None:
    """A lone king that reached an enemy it may attack must attack before the turn passes."""
    side = battle["turn"]["side"]
    if not lone_king(battle, side):
        return
    king = king_of(battle, side)
    for target in attackable(state, battle, king):
        raise RuleViolation(
            _(
                "a king left alone attacks the enemy it reaches (%(figure)s stands next "
                "to %(enemy)s, and the turn cannot pass before it attacks)",
                figure=who(state, king),
                enemy=who(state, target),
            )
        )


def attackable(state: dict, battle: dict, attacker: dict) -> list[dict]:
    """The enemies next to a figure that it may attack now (fliers that stayed up excluded)."""
    refused = {
        a["flier"]
        for a in battle["turn"]["answers"]
        if a["attacker"] == attacker["id"] and not a["came_down"]
    }
    board, pieces = battle["board"], battle["pieces"]
    out = []
    for space in hexes.neighbours(attacker["pos"]):
        holder = board.get(space)
        if holder is None or holder in refused:
            continue
        target = pieces[holder]
        if target["side"] != attacker["side"]:
            out.append(target)
    return out


# -- attacks -----------------------------------------------------------------------------------


def attack_base(state: dict, battle: dict, attacker: dict, defender: dict) -> dict:
    """What each side adds to its die: strength, the attack, friends around, the ground."""
    board, pieces = battle["board"], battle["pieces"]
    friends = 0
    for space in hexes.neighbours(defender["pos"]):
        holder = board.get(space)
        if holder is not None and holder != attacker["id"]:
            if pieces[holder]["side"] == attacker["side"]:
                friends += 1
    where = defender["pos"]
    ground = "castle" if where in battle["castles"].values() else battle["spaces"][where]
    a_strength = strength(state, attacker)
    d_strength = strength(state, defender)
    return {
        "attacker": {
            "strength": a_strength,
            "attack": 1,
            "friends": friends,
            "base": a_strength + 1 + friends,
        },
        "defender": {
            "strength": d_strength,
            "ground": ground,
            "ground_bonus": GROUND.get(ground, 0),
            "base": d_strength + GROUND.get(ground, 0),
        },
    }


def round_result(base: dict, rolled: dict) -> tuple[str, int, int]:
    """The result of one round of dice: who won it, and the two totals."""
    a_dice, d_dice = rolled["attacker"], rolled["defender"]
    a_total = base["attacker"]["base"] + a_dice[0]
    d_total = base["defender"]["base"] + d_dice[0]
    a_sixes = a_dice == [6, 6]
    d_sixes = d_dice == [6, 6]
    if a_sixes and d_sixes:
        return "both-sixes", a_total, d_total
    if a_sixes:
        return "attacker-sixes", a_total, d_total
    if d_sixes:
        return "defender-sixes", a_total, d_total
    if a_total > d_total:
        return "attacker", a_total, d_total
    if d_total > a_total:
        return "defender", a_total, d_total
    return "tie", a_total, d_total


def roll_attack(roller, data: dict, state: dict) -> list[dict]:
    """The server's dice for an attack: rounds until one is not a tie, sixes rolled again."""

    def one() -> list[int]:
        dice = [roller.die(6)]
        if dice[0] == 6:
            dice.append(roller.die(6))
        return dice

    base = None
    try:
        battle = state["battle"]
        attacker = battle["pieces"][data["attacker"]]
        defender = battle["pieces"][data["defender"]]
        if attacker["pos"] and defender["pos"]:
            base = attack_base(state, battle, attacker, defender)
    except (KeyError, TypeError):
        base = None  # the rules will refuse this attack; any dice do
    rounds = []
    while True:
        rolled = {"attacker": one(), "defender": one()}
        rounds.append(rolled)
        if base is None or len(rounds) >= 50 or round_result(base, rolled)[0] != "tie":
            return rounds


@handlers.on("AttackMade")
def attack_made(state: dict, event: Event) -> None:
    data = event.data
    battle = _battle(state, data)
    _fighting(state, battle)
    attacker = _on_board(state, battle, data["attacker"])
    _check_attacker_turn(state, battle, attacker)
    defender = _on_board(state, battle, data["defender"])
    _check_target(state, battle, attacker, defender)
    base = attack_base(state, battle, attacker, defender)
    results = _checked_rounds(base, data["rounds"])
    # the rules hold: change the state
    outcome = results[-1]["result"]
    removed = _resolve_attack(state, battle, attacker, defender, outcome)
    battle["last_action"] = {
        "type": "attack",
        "attacker": attacker["id"],
        "defender": defender["id"],
        "base": base,
        "rounds": results,
        "outcome": outcome,
        "lives": {attacker["id"]: attacker["lives"], defender["id"]: defender["lives"]},
        "removed": removed,
    }
    _check_kings_fallen(state, battle)
    side = attacker["side"]
    battle["last_attack_by"] = side
    battle["turn"] = _next_turn(battle, other(state, side), battle["turn"]["number"] + 1)


def awaited_answer(battle: dict, attacker: dict, defender: dict) -> str | None:
    """What an attack on `defender` waits for: "ask" while a flier's owner has still to say
    whether it comes down, "refused" when it stayed aloft, None when nothing is awaited."""
    if (
        defender["movement"] != "flier"
        or attacker["movement"] == "flier"
        or not may_refuse(battle, defender)
    ):
        return None
    answer = _answer(battle, defender["id"], attacker["id"])
    if answer is None:
        return "ask"
    return None if answer["came_down"] else "refused"


def _check_target(state: dict, battle: dict, attacker: dict, defender: dict) -> None:
    """A monster attacks an enemy right next to it, and a flier only once it came down."""
    name = who(state, attacker)
    if defender["side"] == attacker["side"]:
        raise RuleViolation(
            _(
                "a monster attacks only enemies (%(figure)s against %(enemy)s)",
                figure=name,
                enemy=who(state, defender),
            )
        )
    if not hexes.adjacent(attacker["pos"], defender["pos"]):
        raise RuleViolation(
            _(
                "a monster attacks only an enemy right next to it (%(figure)s at %(space)s, "
                "%(enemy)s at %(enemy_space)s)",
                figure=name,
                space=shown(attacker["pos"]),
                enemy=who(state, defender),
                enemy_space=shown(defender["pos"]),
            )
        )
    awaited = awaited_answer(battle, attacker, defender)
    if awaited == "ask":
        # a walker or a runner: each its own sentence, as the word is declined in some languages
        ask = (
            N_(
                "a flier's owner first chooses whether it comes down to fight a walker "
                "(%(flier)s, attacked by %(figure)s)"
            )
            if attacker["movement"] == "walker"
            else N_(
                "a flier's owner first chooses whether it comes down to fight a runner "
                "(%(flier)s, attacked by %(figure)s)"
            )
        )
        raise RuleViolation(_(ask, flier=who(state, defender), figure=name))
    if awaited == "refused":
        raise RuleViolation(
            _(
                "a flier that stayed aloft cannot be attacked this turn "
                "(%(flier)s refused %(figure)s)",
                flier=who(state, defender),
                figure=name,
            )
        )


def _checked_rounds(base: dict, rounds: list[dict]) -> list[dict]:
    """Each round of dice with its totals and result; only a tie is rolled again."""
    results = []
    last = len(rounds) - 1
    for i, rolled in enumerate(rounds):
        result, a_total, d_total = round_result(base, rolled)
        if result == "tie" and i == last:
            raise RuleViolation(
                _(
                    "equal totals are rolled again (round %(round)s ended %(attacker)s against "
                    "%(defender)s, and no round follows)",
                    round=i + 1,
                    attacker=a_total,
                    defender=d_total,
                )
            )
        if result != "tie" and i < last:
            raise RuleViolation(
                _(
                    "only a tie is rolled again (round %(round)s was decided, %(attacker)s "
                    "against %(defender)s, yet %(more)s more followed)",
                    round=i + 1,
                    attacker=a_total,
                    defender=d_total,
                    more=last - i,
                )
            )
        results.append(
            {
                "attacker": list(rolled["attacker"]),
                "defender": list(rolled["defender"]),
                "attacker_total": a_total,
                "defender_total": d_total,
                "result": result,
            }
        )
    return results


def _resolve_attack(state, battle, attacker, defender, outcome: str) -> list[str]:
    """Take the lives the attack cost and credit the kills; the figures it removed."""
    removed: list[str] = []
    if outcome == "both-sixes":
        for dead, killer in ((attacker, defender), (defender, attacker)):
            _lose(state, battle, dead, dead["lives"], removed)
            _credit(state, killer)
        return removed
    winner, loser = (attacker, defender) if outcome.startswith("attacker") else (defender, attacker)
    _lose(state, battle, loser, 1, removed)
    if loser["pos"] is None:
        _credit(state, winner)
    return removed


def _check_kings_fallen(state: dict, battle: dict) -> None:
    """A fallen king decides the battle; both at once, a draw."""
    fallen = [s for s in state["order"] if king_of(battle, s)["pos"] is None]
    if len(fallen) == 2:
        battle["outcome"] = {"winner": None, "reason": "both-kings-fell"}
        battle["phase"] = "decided"
    elif fallen:
        battle["outcome"] = {"winner": other(state, fallen[0]), "reason": "king-killed"}
        battle["phase"] = "decided"


def _check_attacker_turn(state: dict, battle: dict, attacker: dict) -> None:
    """An attack comes in its side's turn, by the figure that has just moved."""
    side = attacker["side"]
    turn = battle["turn"]
    name = who(state, attacker)
    if side != turn["side"]:
        if turn["moved"] is not None:
            # the other player has moved: this player's turn comes next, and it begins with a move
            raise RuleViolation(
                _(
                    "a monster moves and then attacks: %(player)s's turn begins with a move, "
                    "and the figure that moved attacks (%(figure)s)",
                    player=state["sides"][side],
                    figure=name,
                )
            )
        raise RuleViolation(
            _(
                "players take turns: it is %(turn)s's turn (%(figure)s waits)",
                turn=state["sides"][turn["side"]],
                figure=name,
            )
        )
    if turn["moved"] is None:
        raise RuleViolation(
            _(
                "a monster moves and then attacks: every turn moves one figure first (%(figure)s)",
                figure=name,
            )
        )
    if turn["moved"] != attacker["id"]:
        _not_the_mover(state, battle["pieces"][turn["moved"]], attacker)


def _not_the_mover(state: dict, moved: dict, attacker: dict) -> None:
    raise RuleViolation(
        _(
            "the figure that moved is the one that attacks (%(moved)s moved, not %(figure)s)",
            moved=figure_name(state, moved),
            figure=figure_name(state, attacker),
        )
    )


def _lose(state: dict, battle: dict, piece: dict, lives: int, removed: list) -> None:
    piece["lives"] -= lives
    piece["lives_lost"] += lives
    record = state["records"][piece["id"]]
    record["lives_lost"] += lives
    if piece["lives"] <= 0:
        piece["lives"] = 0
        del battle["board"][piece["pos"]]
        piece["pos"] = None
        record["deaths"] += 1
        removed.append(piece["id"])


def _credit(state: dict, killer: dict) -> None:
    killer["kills"] += 1
    state["records"][killer["id"]]["kills"] += 1


def _answer(battle: dict, flier: str, attacker: str) -> dict | None:
    for answer in battle["turn"]["answers"]:
        if answer["flier"] == flier and answer["attacker"] == attacker:
            return answer
    return None


@handlers.on("FlierCameDown")
def flier_came_down(state: dict, event: Event) -> None:
    _flier_answered(state, event.data, came_down=True)


@handlers.on("FlierStayedAloft")
def flier_stayed_aloft(state: dict, event: Event) -> None:
    _flier_answered(state, event.data, came_down=False)


def _flier_answered(state: dict, data: dict, came_down: bool) -> None:
    battle = _battle(state, data)
    _fighting(state, battle)
    flier = _on_board(state, battle, data["flier"])
    attacker = _on_board(state, battle, data["attacker"])
    name, foe = who(state, flier), who(state, attacker)
    if flier["movement"] != "flier":
        raise RuleViolation(
            _("only a flier chooses whether to come down (%(figure)s walks)", figure=name)
        )
    if attacker["side"] == flier["side"]:
        raise RuleViolation(
            _("a flier answers only an enemy's attack (%(figure)s is a friend)", figure=foe)
        )
    turn = battle["turn"]
    # once the flier's side has moved, the attacker's turn comes next: an answer given
    # now is kept for that turn (the attacker may be asked before it moves)
    ahead = attacker["side"] != turn["side"] and turn["moved"] is not None
    if attacker["side"] != turn["side"] and not ahead:
        raise RuleViolation(
            _(
                "a flier answers an attack during its enemy's turn, and it is %(turn)s's turn "
                "(%(figure)s)",
                turn=state["sides"][turn["side"]],
                figure=name,
            )
        )
    if attacker["movement"] == "flier":
        raise RuleViolation(
            _(
                "a flier attacked by a flier cannot refuse, so there is nothing to choose "
                "(%(figure)s attacked by %(enemy)s)",
                figure=name,
                enemy=foe,
            )
        )
    if not ahead and turn["moved"] is not None and turn["moved"] != attacker["id"]:
        _not_the_mover(state, battle["pieces"][turn["moved"]], attacker)
    if not hexes.adjacent(flier["pos"], attacker["pos"]):
        raise RuleViolation(
            _(
                "a monster attacks only an enemy right next to it (%(figure)s at %(space)s, "
                "%(enemy)s at %(enemy_space)s)",
                figure=foe,
                space=shown(attacker["pos"]),
                enemy=name,
                enemy_space=shown(flier["pos"]),
            )
        )
    answers = battle.get("next_answers", []) if ahead else turn["answers"]
    if any(a["flier"] == flier["id"] and a["attacker"] == attacker["id"] for a in answers):
        raise RuleViolation(
            _("%(flier)s already answered %(figure)s this turn", flier=name, figure=foe)
        )
    if not came_down and not may_refuse(battle, flier):
        raise RuleViolation(
            _(
                "a flier that is its side's last figure besides the king cannot refuse to "
                "fight (%(figure)s)",
                figure=name,
            )
        )
    answer = {"flier": flier["id"], "attacker": attacker["id"], "came_down": came_down}
    if ahead:
        battle["next_answers"] = [*answers, answer]
    else:
        answers.append(answer)
    battle["last_action"] = {
        "type": "came-down" if came_down else "stayed-aloft",
        "flier": flier["id"],
        "attacker": attacker["id"],
    }


# -- the end of a battle -----------------------------------------------------------------------


@handlers.on("BattleEnded")
def battle_ended(state: dict, event: Event) -> None:
    data = event.data
    battle = _battle(state, data)
    winner, reason = data["winner"], data["reason"]
    if winner is not None and winner not in state["sides"]:
        names = ", ".join(state["order"])
        raise RuleViolation(
            _(
                "%(player)s is not a player of this campaign (%(players)s)",
                player=repr(winner),
                players=names,
            )
        )
    outcome = battle["outcome"]
    if outcome is not None:
        if (winner, reason) != (outcome["winner"], outcome["reason"]):
            raise RuleViolation(
                _(
                    "battle %(battle)s ended as the board says: %(outcome)s",
                    battle=battle["id"],
                    outcome=outcome_words(state, battle),
                )
            )
    else:
        if reason != "conceded":
            raise RuleViolation(
                _(
                    "battle %(battle)s is not decided (no king has fallen or taken a "
                    "castle): it ends early only when a player concedes",
                    battle=battle["id"],
                )
            )
        if winner is None:
            raise RuleViolation(_("a player who concedes leaves the battle to the other player"))
    # the rules hold: change the state
    battle["phase"] = "ended"
    battle["outcome"] = {"winner": winner, "reason": reason}
    battle["last_action"] = {"type": "ended", "winner": winner, "reason": reason}
    for side, row in state["standings"].items():
        row["played"] += 1
        if winner is None:
            row["drawn"] += 1
        elif side == winner:
            row["won"] += 1
        else:
            row["lost"] += 1
    turn = battle["turn"]
    state["battles"].append(
        {
            "id": battle["id"],
            "map": battle["map"],
            "winner": winner,
            "reason": reason,
            "turns": turn["number"] if turn else 0,
        }
    )
