"""The fold of Leaders: every event checked against the rules, then applied to the state.

Each handler checks first and changes the state only once every rule holds. An action is
worked out as a list of moves (piece, from, to); the end of the game is judged on the
positions those moves would leave, before anything is changed.
"""

from __future__ import annotations

from itertools import combinations

from tracker.errors import RuleViolation
from tracker.systems.base import Handlers
from tracker.systems.i18n import N_, _, listed

from . import geometry as geo
from .names import named

#: what each ability's character is called at the table
TITLES = {
    "leader": N_("Leader"),
    "acrobat": N_("Acrobat"),
    "rider": N_("Rider"),
    "colossus": N_("Colossus"),
    "royal-guard": N_("Royal Guard"),
    "illusionist": N_("Illusionist"),
    "claw": N_("Claw"),
    "manipulator": N_("Manipulator"),
    "wanderer": N_("Wanderer"),
    "brewmaster": N_("Brewmaster"),
    "archer": N_("Archer"),
    "assassin": N_("Assassin"),
    "jailer": N_("Jailer"),
    "protector": N_("Protector"),
    "vizier": N_("Vizier"),
    "hermit": N_("Hermit"),
    "cub": N_("Cub"),
    "nemesis": N_("Nemesis"),
}
#: the two modes of a match, as a word on its own (a tag, a table cell)
MODES = {"standard": N_("standard"), "expert": N_("expert")}
#: how a match was won, as a word on its own
HOW = {"capture": N_("capture"), "encirclement": N_("encirclement")}
#: the phases of a match, as a word on its own
PHASES = {
    "leaders": N_("choosing Leaders"),
    "deck": N_("shuffling the deck"),
    "draw": N_("drawing the first player"),
    "exile": N_("exile"),
    "action": N_("action"),
    "recruitment": N_("recruitment"),
    "over": N_("over"),
}
HAND_LIMIT = 5
ROW_SIZE = 3

handlers = Handlers()


# -- the state -----------------------------------------------------------------------------


def initial_state(settings: dict) -> dict:
    """The campaign before its first match: players, content, empty standings."""
    board = settings["board"]
    cells = {tuple(c) for c in board["cells"]}
    for seat, place in zip(settings["players"], board["seats"], strict=True):
        spaces = [place["start"], *place["recruitment"]]
        for space in spaces:
            if tuple(space) not in cells:
                raise RuleViolation(
                    _(
                        "board %(board)s: %(player)s's space %(space)s is off the board",
                        board=repr(board["id"]),
                        player=seat["name"],
                        space=fmt(space),
                    )
                )
    ids = [piece["id"] for card in settings["characters"]["cards"] for piece in card["pieces"]]
    ids += [leader["id"] for leader in settings["characters"]["leaders"]]
    if len(set(ids)) != len(ids):
        raise RuleViolation(_("every Leader and character piece needs its own id"))
    return {
        "players": [dict(p) for p in settings["players"]],
        "board": board,
        "characters": settings["characters"],
        "standings": {
            p["id"]: {"played": 0, "won": 0, "lost": 0, "by_capture": 0, "by_encirclement": 0}
            for p in settings["players"]
        },
        "matches": [],
        "match": None,
    }


def fmt(space) -> str:
    return f"({space[0]}, {space[1]})"


def player_name(state: dict, pid: str) -> str:
    for p in state["players"]:
        if p["id"] == pid:
            return p["name"]
    return pid


def other(state: dict, pid: str) -> str:
    a, b = (p["id"] for p in state["players"])
    return b if pid == a else a


def word(words: dict, key: str):
    """One of the words above (a mode, a phase...) to translate where it is shown."""
    return _(words[key]) if key in words else key


def ability_title(ability: str) -> str:
    title = TITLES.get(ability)
    return _(title) if title else ability.capitalize()


def piece_label(piece: dict, capital: bool = False) -> str:
    """A piece as players call it: "Ysa the Tumbler (Acrobat)"."""
    return _(
        "%(name)s (%(ability)s)",
        name=named(piece["name"], capital),
        ability=ability_title(piece["ability"]),
    )


def both(first, second) -> str:
    """Two things named together: "the Hermit of Stonewell and Burr the Cub"."""
    return _("%(first)s and %(second)s", first=first, second=second)


def card_index(state: dict) -> dict[str, dict]:
    return {card["id"]: card for card in state["characters"]["cards"]}


def card_label(state: dict, card_id: str, capital: bool = False) -> str:
    """A card as players call it: its piece, or both its pieces."""
    card = card_index(state).get(card_id)
    if card is None:
        return card_id
    labels = [piece_label(p, capital and i == 0) for i, p in enumerate(card["pieces"])]
    return both(*labels) if len(labels) == 2 else labels[0]


def hand_size(match: dict, pid: str) -> int:
    """Cards a player holds, its Leader's included (Hermit and Cub are one card)."""
    return 1 + len(match["hands"].get(pid, []))


class Board:
    """The pieces of the current match on the board, with their spaces as tuples."""

    __slots__ = ("cells", "pieces", "at", "occupied")

    def __init__(self, state: dict):
        match = state["match"]
        self.cells = {tuple(c) for c in state["board"]["cells"]}
        self.pieces = match["pieces"]
        self.at = {pid: tuple(p["at"]) for pid, p in self.pieces.items() if p["at"] is not None}
        self.occupied = {space: pid for pid, space in self.at.items()}

    def free(self, space, positions=None) -> bool:
        taken = self.occupied if positions is None else positions
        return space in self.cells and space not in taken

    def leader_of(self, pid: str) -> str | None:
        for piece_id, piece in self.pieces.items():
            if piece["owner"] == pid and piece["ability"] == "leader":
                return piece_id
        return None

    def has(self, owner: str, ability: str) -> str | None:
        """The id of `owner`'s piece with `ability` on the board, if any."""
        for piece_id, piece in self.pieces.items():
            if piece["owner"] == owner and piece["ability"] == ability and piece_id in self.at:
                return piece_id
        return None


# -- the end of the game -------------------------------------------------------------------


def capture_count(board: Board, positions: dict, leader_id: str) -> int:
    """How many enemy characters count toward capturing a Leader at the given positions."""
    owner = board.pieces[leader_id]["owner"]
    spot = positions[leader_id]
    count = 0
    for piece_id, space in positions.items():
        piece = board.pieces[piece_id]
        if piece["owner"] == owner:
            continue
        ability = piece["ability"]
        d = geo.distance(spot, space)
        if d == 1:
            if ability == "assassin":
                count += 2
            elif ability not in ("archer", "cub"):
                count += 1
        elif d == 2 and ability == "archer" and geo.on_line(spot, space):
            count += 1
    return count


def fallen(state: dict, board: Board, positions: dict) -> dict[str, str]:
    """{player: "capture" | "encirclement"} for each Leader the positions take."""
    taken = {}
    by_space = {space: pid for pid, space in positions.items()}
    for p in state["players"]:
        leader = board.leader_of(p["id"])
        if leader is None or leader not in positions:
            continue
        if capture_count(board, positions, leader) >= 2:
            taken[p["id"]] = "capture"
        elif all(s in by_space for s in geo.neighbours(positions[leader], board.cells)):
            taken[p["id"]] = "encirclement"
    return taken


def positions_after(board: Board, moves: list) -> dict:
    positions = dict(board.at)
    for piece_id, _from, to in moves:
        positions[piece_id] = to
    return positions


def refuse_self_harm(state, board, player, positions, what: str) -> dict[str, str]:
    """The Leaders the positions take; refused when the player's own Leader is among them."""
    taken = fallen(state, board, positions)
    if player in taken:
        leader = board.pieces[board.leader_of(player)]
        params = {"what": what, "player": player_name(state, player)}
        params["leader"] = named(leader["name"])
        if taken[player] == "capture":
            raise RuleViolation(
                _(
                    "a player may not end the game against its own Leader (%(what)s would "
                    "capture %(player)s's %(leader)s)",
                    **params,
                )
            )
        raise RuleViolation(
            _(
                "a player may not end the game against its own Leader (%(what)s would "
                "encircle %(player)s's %(leader)s)",
                **params,
            )
        )
    return taken


def end_match(state: dict, match: dict, loser: str, how: str, version: int) -> None:
    winner = other(state, loser)
    match.update(phase="over", winner=winner, loser=loser, how=how, nemesis=None, exile=None)
    for pid in (winner, loser):
        state["standings"][pid]["played"] += 1
    state["standings"][winner]["won"] += 1
    state["standings"][loser]["lost"] += 1
    state["standings"][winner]["by_" + how] += 1
    state["matches"].append(
        {
            "id": match["id"],
            "mode": match["mode"],
            "first": match["first"],
            "winner": winner,
            "loser": loser,
            "how": how,
            "turns": match["turn"],
            "from_version": match["from_version"],
            "to_version": version,
        }
    )


# -- guards ---------------------------------------------------------------------------------


def current_match(state: dict) -> dict:
    match = state["match"]
    if match is None:
        raise RuleViolation(_("no match is under way: start one first"))
    if match["phase"] == "over":
        params = {"match": repr(match["id"]), "winner": player_name(state, match["winner"])}
        if match["how"] == "capture":
            raise RuleViolation(
                _(
                    "match %(match)s is over (%(winner)s won by capture): nothing more is "
                    "played in it",
                    **params,
                )
            )
        raise RuleViolation(
            _(
                "match %(match)s is over (%(winner)s won by encirclement): nothing more is "
                "played in it",
                **params,
            )
        )
    return match


def known_player(state: dict, pid: str) -> None:
    if pid not in state["standings"]:
        names = ", ".join(p["id"] for p in state["players"])
        raise RuleViolation(
            _(
                "%(player)s is not a player of this campaign (the players: %(players)s)",
                player=repr(pid),
                players=names,
            )
        )


def waiting(state: dict, match: dict) -> None:
    """Refuse while the match waits for a forced Nemesis move or an exile."""
    if match.get("nemesis"):
        who = player_name(state, match["nemesis"]["owner"])
        raise RuleViolation(
            _("the match waits for %(player)s to move the Nemesis first", player=who)
        )
    if match.get("exile"):
        exile = match["exile"]
        who = player_name(state, exile["order"][exile["next"]])
        raise RuleViolation(
            _("the match waits for %(player)s to exile a character first", player=who)
        )


def in_turn(state: dict, player: str, phase: str) -> dict:
    match = current_match(state)
    known_player(state, player)
    waiting(state, match)
    if match["phase"] not in ("action", "recruitment"):
        raise RuleViolation(
            _(
                "the match has not begun its turns yet (it is at %(phase)s)",
                phase=word(PHASES, match["phase"]),
            )
        )
    if match["active"] != player:
        raise RuleViolation(
            _(
                "it is %(active)s's turn, not %(player)s's",
                active=player_name(state, match["active"]),
                player=player_name(state, player),
            )
        )
    if match["phase"] != phase:
        if phase == "action":
            raise RuleViolation(
                _(
                    "%(player)s's action phase is over: after recruitment no character acts "
                    "until the next turn",
                    player=player_name(state, player),
                )
            )
        raise RuleViolation(
            _(
                "%(player)s is still in the action phase: end it before recruiting or ending "
                "the turn",
                player=player_name(state, player),
            )
        )
    return match


# -- setup ----------------------------------------------------------------------------------


@handlers.on("MatchStarted")
def match_started(state, event):
    data, version = event.data, event.version
    match = state["match"]
    if match is not None and match["phase"] != "over":
        raise RuleViolation(
            _(
                "match %(match)s is still under way: a match ends only with a capture or an "
                "encirclement",
                match=repr(match["id"]),
            )
        )
    if any(m["id"] == data["match"] for m in state["matches"]):
        raise RuleViolation(
            _("this campaign already had a match called %(match)s", match=repr(data["match"]))
        )
    cards = [card["id"] for card in state["characters"]["cards"]]
    seats = {p["id"]: i for i, p in enumerate(state["players"])}
    state["match"] = {
        "id": data["match"],
        "number": len(state["matches"]) + 1,
        "mode": data["mode"],
        "from_version": version,
        "phase": "leaders",
        "seats": seats,
        "leaders": {},
        "first": None,
        "active": None,
        "turn": 0,
        "pool": cards,
        "deck": [],
        "row": [],
        "available": list(cards) if data["mode"] == "expert" else [],
        "exiled": [],
        "exile": None,
        "exile_rounds": 0,
        "hands": {p["id"]: [] for p in state["players"]},
        "pieces": {},
        "acted": [],
        "recruits_due": 0,
        "nemesis": None,
        "last": None,
        "winner": None,
        "loser": None,
        "how": None,
    }


@handlers.on("LeaderChosen")
def leader_chosen(state, event):
    data = event.data
    match = current_match(state)
    player, leader = data["player"], data["leader"]
    known_player(state, player)
    if match["phase"] != "leaders":
        raise RuleViolation(_("Leaders are chosen at the start of a match, before anything else"))
    if player in match["leaders"]:
        raise RuleViolation(
            _("%(player)s has already chosen a Leader", player=player_name(state, player))
        )
    figures = {f["id"]: f for f in state["characters"]["leaders"]}
    if leader not in figures:
        raise RuleViolation(
            _(
                "there is no Leader called %(leader)s (there are: %(known)s)",
                leader=repr(leader),
                known=", ".join(figures),
            )
        )
    for pid, chosen in match["leaders"].items():
        if chosen == leader:
            raise RuleViolation(
                _(
                    "%(leader)s is already %(player)s's Leader",
                    leader=named(figures[leader]["name"]),
                    player=player_name(state, pid),
                )
            )
    start = state["board"]["seats"][match["seats"][player]]["start"]
    match["leaders"][player] = leader
    match["pieces"][leader] = {
        "owner": player,
        "name": figures[leader]["name"],
        "ability": "leader",
        "card": None,
        "at": list(start),
    }
    if len(match["leaders"]) == 2:
        match["phase"] = "deck" if match["mode"] == "standard" else "draw"


@handlers.on("DeckShuffled")
def deck_shuffled(state, event):
    data = event.data
    match = current_match(state)
    if match["mode"] != "standard":
        raise RuleViolation(_("the expert mode has no deck: every character lies face up"))
    if match["phase"] != "deck":
        raise RuleViolation(_("the deck is shuffled once, after both Leaders are chosen"))
    deck = data.get("deck")
    if deck is None:
        raise RuleViolation(_("the shuffled deck must be recorded with its order"))
    missing = sorted(set(match["pool"]) - set(deck))
    unknown = sorted(set(deck) - set(match["pool"]))
    if missing or unknown:
        none = _("none")
        raise RuleViolation(
            _(
                "the shuffled deck holds every character card exactly once (missing: "
                "%(missing)s; unknown: %(unknown)s)",
                missing=", ".join(missing) or none,
                unknown=", ".join(unknown) or none,
            )
        )
    match["row"] = list(deck[:ROW_SIZE])
    match["deck"] = list(deck[ROW_SIZE:])
    match["phase"] = "draw"


@handlers.on("FirstPlayerDrawn")
def first_player_drawn(state, event):
    data = event.data
    match = current_match(state)
    first = data.get("first")
    if first is None:
        raise RuleViolation(_("the draw for the first player must be recorded with its result"))
    known_player(state, first)
    if match["phase"] != "draw":
        if match["phase"] in ("leaders", "deck"):
            raise RuleViolation(
                _("the first player is drawn once the Leaders are chosen and the row is dealt")
            )
        raise RuleViolation(_("the first player of this match has already been drawn"))
    match["first"] = first
    if match["mode"] == "expert":
        match["phase"] = "exile"
        match["exile"] = {"round": 1, "order": [first, other(state, first)], "next": 0}
    else:
        begin_turn(match, first, 1)


def begin_turn(match: dict, player: str, turn: int) -> None:
    match.update(phase="action", active=player, turn=turn, acted=[], acted_out=False)
    due = 2 if turn == 2 else 1
    match["recruits_due"] = 0 if hand_size(match, player) >= HAND_LIMIT else due


@handlers.on("CharacterExiled")
def character_exiled(state, event):
    data = event.data
    match = current_match(state)
    player, card = data["player"], data["card"]
    known_player(state, player)
    if match["mode"] != "expert":
        raise RuleViolation(_("characters are exiled only in the expert mode"))
    exile = match["exile"]
    if exile is None:
        raise RuleViolation(
            _(
                "exiles happen before the first turn and when both players reach three "
                "characters, not now"
            )
        )
    due = exile["order"][exile["next"]]
    if player != due:
        raise RuleViolation(
            _(
                "it is %(due)s's turn to exile, not %(player)s's",
                due=player_name(state, due),
                player=player_name(state, player),
            )
        )
    if card not in match["available"]:
        params = {"player": player_name(state, player), "card": repr(card)}
        if card in match["exiled"]:
            raise RuleViolation(
                _("%(player)s cannot exile %(card)s: it is already exiled", **params)
            )
        raise RuleViolation(_("%(player)s cannot exile %(card)s: it is not available", **params))
    match["available"].remove(card)
    match["exiled"].append(card)
    exile["next"] += 1
    if exile["next"] == 2:
        match["exile"] = None
        match["exile_rounds"] += 1
        if match["turn"] == 0:
            begin_turn(match, match["first"], 1)
        else:
            match["phase"] = "recruitment"


# -- actions --------------------------------------------------------------------------------


def acting_piece(state, board: Board, match, player, piece_id) -> dict:
    piece = board.pieces.get(piece_id)
    who = player_name(state, player)
    if piece is None or piece_id not in board.at:
        raise RuleViolation(
            _(
                "%(player)s has no character %(piece)s on the board",
                player=who,
                piece=repr(piece_id),
            )
        )
    if piece["owner"] != player:
        raise RuleViolation(
            _(
                "%(player)s cannot act with %(piece)s: it belongs to the enemy",
                player=who,
                piece=piece_label(piece),
            )
        )
    if piece["ability"] == "nemesis":
        raise RuleViolation(
            _(
                "the Nemesis never acts in the action phase (%(player)s's %(name)s)",
                player=who,
                name=named(piece["name"]),
            )
        )
    if piece_id in match["acted"]:
        raise RuleViolation(
            _(
                "each character acts once a turn (%(piece)s has acted)",
                piece=piece_label(piece),
            )
        )
    return piece


def step_to(board: Board, positions: dict, piece: dict, origin, space, what: str) -> tuple:
    """One step of a move to an adjacent free space of the board."""
    space = tuple(space)
    params = {"piece": piece_label(piece), "space": fmt(space)}
    if space not in board.cells:
        raise RuleViolation(_(STEPS[what][0], **params))
    if not geo.adjacent(origin, space):
        raise RuleViolation(_(STEPS[what][1], origin=fmt(origin), **params))
    if space in positions:
        held = piece_label(board.pieces[positions[space]])
        raise RuleViolation(_(STEPS[what][2], held=held, **params))
    return space


#: the refusals of one step (off the board, not adjacent, not free), by the kind of move;
#: each kind is its own sentence, since "a move" and "the Nemesis's move" decline apart
STEPS = {
    "move": (
        N_("a move must stay on the board (%(piece)s to %(space)s)"),
        N_("a move goes to an adjacent space (%(piece)s from %(origin)s to %(space)s)"),
        N_("a move goes to a free space (%(piece)s to %(space)s, held by %(held)s)"),
    ),
    "nemesis": (
        N_("the Nemesis's move must stay on the board (%(piece)s to %(space)s)"),
        N_("the Nemesis's move goes to an adjacent space (%(piece)s from %(origin)s to %(space)s)"),
        N_("the Nemesis's move goes to a free space (%(piece)s to %(space)s, held by %(held)s)"),
    ),
    "royal-guard": (
        N_("the Royal Guard's extra step must stay on the board (%(piece)s to %(space)s)"),
        N_(
            "the Royal Guard's extra step goes to an adjacent space (%(piece)s from "
            "%(origin)s to %(space)s)"
        ),
        N_(
            "the Royal Guard's extra step goes to a free space (%(piece)s to %(space)s, "
            "held by %(held)s)"
        ),
    ),
    "manipulator": (
        N_("a Manipulator's move must stay on the board (%(piece)s to %(space)s)"),
        N_(
            "a Manipulator's move goes to an adjacent space (%(piece)s from %(origin)s to "
            "%(space)s)"
        ),
        N_("a Manipulator's move goes to a free space (%(piece)s to %(space)s, held by %(held)s)"),
    ),
    "brewmaster": (
        N_("a Brewmaster's move must stay on the board (%(piece)s to %(space)s)"),
        N_(
            "a Brewmaster's move goes to an adjacent space (%(piece)s from %(origin)s to %(space)s)"
        ),
        N_("a Brewmaster's move goes to a free space (%(piece)s to %(space)s, held by %(held)s)"),
    ),
}


@handlers.on("CharacterMoved")
def character_moved(state, event):
    data, version = event.data, event.version
    player = data["player"]
    match = in_turn(state, player, "action")
    board = Board(state)
    piece_id = data["character"]
    piece = acting_piece(state, board, match, player, piece_id)
    path = data["path"]
    if len(path) == 2:
        if piece["ability"] != "leader":
            raise RuleViolation(
                _(
                    "a move is one space to an adjacent free space (%(piece)s was given two)",
                    piece=piece_label(piece),
                )
            )
        if board.has(player, "vizier") is None:
            raise RuleViolation(
                _(
                    "a Leader moves one space; only a Vizier on the board gives it a second "
                    "(%(name)s)",
                    name=named(piece["name"]),
                )
            )
    occupied = {s: p for s, p in board.occupied.items() if p != piece_id}
    origin = board.at[piece_id]
    moves = []
    for space in path:
        to = step_to(board, occupied, piece, origin, space, "move")
        moves.append((piece_id, origin, to))
        origin = to
    finish_action(state, board, match, player, piece_id, moves, "CharacterMoved", version)


def protected(board: Board, positions: dict, target_id: str) -> str | None:
    """The Protector that shields an enemy piece from being moved, if any."""
    owner = board.pieces[target_id]["owner"]
    guard = board.has(owner, "protector")
    if guard is None:
        return None
    if guard == target_id or geo.adjacent(positions[guard], positions[target_id]):
        return guard
    return None


def target_piece(state, board, player, piece, data, *, enemy=None, ally=None) -> tuple:
    target_id = data.get("target")
    label = piece_label(piece)
    if not target_id:
        raise RuleViolation(_("%(piece)s needs a target character", piece=label))
    target = board.pieces.get(target_id)
    if target is None or target_id not in board.at:
        raise RuleViolation(
            _(
                "%(piece)s has no target %(target)s on the board",
                piece=label,
                target=repr(target_id),
            )
        )
    if target_id == data["character"]:
        raise RuleViolation(_("%(piece)s cannot target itself", piece=label))
    params = {
        "kind": ability_title(piece["ability"]),
        "name": named(piece["name"]),
        "target": piece_label(target),
    }
    if enemy and target["owner"] == player:
        raise RuleViolation(
            _("the %(kind)s acts on an enemy, not on an ally (%(name)s on %(target)s)", **params)
        )
    if ally and target["owner"] != player:
        raise RuleViolation(
            _("the %(kind)s acts on an ally, not on an enemy (%(name)s on %(target)s)", **params)
        )
    return target_id, target


def refuse_protected(state, board, piece, target_id) -> None:
    if board.pieces[target_id]["owner"] == piece["owner"]:
        return
    guard = protected(board, board.at, target_id)
    if guard is not None:
        params = {"piece": piece_label(piece), "target": piece_label(board.pieces[target_id])}
        if guard == target_id:
            raise RuleViolation(
                _(
                    "a Protector cannot be moved by enemy abilities (%(piece)s on %(target)s)",
                    **params,
                )
            )
        raise RuleViolation(
            _(
                "the Protector keeps its adjacent allies from being moved by enemy abilities "
                "(%(piece)s on %(target)s)",
                **params,
            )
        )


def want_path(piece, path, counts: tuple[int, ...], what: str) -> None:
    """`what` a whole sentence with the piece as %(piece)s, marked where it is written."""
    if len(path) not in counts:
        raise RuleViolation(_(what, piece=piece_label(piece)))


@handlers.on("AbilityUsed")
def ability_used(state, event):
    data, version = event.data, event.version
    player = data["player"]
    match = in_turn(state, player, "action")
    board = Board(state)
    piece_id = data["character"]
    piece = acting_piece(state, board, match, player, piece_id)
    ability = piece["ability"]
    label = piece_label(piece)
    if ability not in ACTIVE:
        if ability == "leader":
            raise RuleViolation(
                _("%(piece)s has no active ability: a Leader can only move", piece=label)
            )
        raise RuleViolation(_("%(piece)s has no active ability: it can only move", piece=label))
    origin = board.at[piece_id]
    for pid, space in board.at.items():
        other_piece = board.pieces[pid]
        if (
            other_piece["owner"] != player
            and other_piece["ability"] == "jailer"
            and geo.adjacent(space, origin)
        ):
            raise RuleViolation(
                _(
                    "a Jailer keeps adjacent enemies from using their abilities (%(jailer)s "
                    "next to %(piece)s)",
                    jailer=piece_label(other_piece),
                    piece=piece_label(piece),
                )
            )
    path = [tuple(s) for s in data.get("path") or []]
    moves = ABILITIES[ability](state, board, player, piece_id, piece, origin, path, data)
    finish_action(state, board, match, player, piece_id, moves, "AbilityUsed", version)


def _no_target(piece, data):
    if data.get("target"):
        raise RuleViolation(_("%(piece)s takes no target", piece=piece_label(piece)))


def acrobat(state, board, player, piece_id, piece, origin, path, data):
    _no_target(piece, data)
    want_path(
        piece, path, (1, 2), N_("%(piece)s makes one or two jumps: give one or two landing spaces")
    )
    occupied = {s: p for s, p in board.occupied.items() if p != piece_id}
    moves, here = [], origin
    for landing in path:
        index = geo.direction_to(here, landing)
        if index is None or geo.distance(here, landing) != 2:
            raise RuleViolation(
                _(
                    "the Acrobat jumps in a straight line over one adjacent character, landing "
                    "two spaces away (%(name)s from %(origin)s to %(space)s)",
                    name=named(piece["name"]),
                    origin=fmt(here),
                    space=fmt(landing),
                )
            )
        over = geo.step(here, geo.DIRECTIONS[index])
        if over not in occupied:
            raise RuleViolation(
                _(
                    "the Acrobat jumps over a character, and %(over)s is empty (%(name)s to "
                    "%(space)s)",
                    over=fmt(over),
                    name=named(piece["name"]),
                    space=fmt(landing),
                )
            )
        if not board.free(landing, occupied):
            raise RuleViolation(
                _(
                    "the Acrobat lands on a free space of the board (%(name)s to %(space)s)",
                    name=named(piece["name"]),
                    space=fmt(landing),
                )
            )
        moves.append((piece_id, here, landing))
        here = landing
    return moves


def rider(state, board, player, piece_id, piece, origin, path, data):
    _no_target(piece, data)
    want_path(
        piece,
        path,
        (1,),
        N_("%(piece)s moves two spaces in a straight line: give the space it reaches"),
    )
    to = path[0]
    index = geo.direction_to(origin, to)
    if index is None or geo.distance(origin, to) != 2:
        raise RuleViolation(
            _(
                "the Rider moves exactly two spaces in a straight line (%(name)s from "
                "%(origin)s to %(space)s)",
                name=named(piece["name"]),
                origin=fmt(origin),
                space=fmt(to),
            )
        )
    middle = geo.step(origin, geo.DIRECTIONS[index])
    if middle in board.occupied or not board.free(to):
        raise RuleViolation(
            _(
                "the Rider passes through and ends on free spaces (%(name)s to %(space)s)",
                name=named(piece["name"]),
                space=fmt(to),
            )
        )
    return [(piece_id, origin, to)]


def colossus(state, board, player, piece_id, piece, origin, path, data):
    target_id, target = target_piece(state, board, player, piece, data, enemy=True)
    spot = board.at[target_id]
    if not geo.adjacent(origin, spot):
        raise RuleViolation(
            _(
                "the Colossus pushes an adjacent enemy (%(name)s and %(target)s)",
                name=named(piece["name"]),
                target=piece_label(target),
            )
        )
    refuse_protected(state, board, piece, target_id)
    want_path(piece, path, (1,), N_("%(piece)s needs the space the enemy is pushed to"))
    to = path[0]
    if to not in geo.behind(origin, spot):
        raise RuleViolation(
            _(
                "the Colossus pushes its enemy into one of the three spaces behind it "
                "(%(target)s to %(space)s)",
                target=piece_label(target),
                space=fmt(to),
            )
        )
    if not board.free(to):
        raise RuleViolation(
            _(
                "a pushed character must land on a free space of the board (%(target)s to "
                "%(space)s)",
                target=piece_label(target),
                space=fmt(to),
            )
        )
    return [(target_id, spot, to), (piece_id, origin, spot)]


def royal_guard(state, board, player, piece_id, piece, origin, path, data):
    _no_target(piece, data)
    want_path(
        piece, path, (1, 2), N_("%(piece)s goes next to its Leader, then may take one more step")
    )
    leader = board.at[board.leader_of(player)]
    first = path[0]
    occupied = {s: p for s, p in board.occupied.items() if p != piece_id}
    if first == origin or not geo.adjacent(first, leader):
        raise RuleViolation(
            _(
                "the Royal Guard moves to a space next to its own Leader (%(name)s to %(space)s)",
                name=named(piece["name"]),
                space=fmt(first),
            )
        )
    if not board.free(first, occupied):
        raise RuleViolation(
            _(
                "the Royal Guard moves to a free space (%(name)s to %(space)s)",
                name=named(piece["name"]),
                space=fmt(first),
            )
        )
    moves = [(piece_id, origin, first)]
    if len(path) == 2:
        second = step_to(board, occupied, piece, first, path[1], "royal-guard")
        moves.append((piece_id, first, second))
    return moves


def illusionist(state, board, player, piece_id, piece, origin, path, data):
    target_id, target = target_piece(state, board, player, piece, data)
    if path:
        raise RuleViolation(_("%(piece)s swaps places: it takes no path", piece=piece_label(piece)))
    spot = board.at[target_id]
    if geo.adjacent(origin, spot) or not geo.visible(origin, spot, board.occupied):
        raise RuleViolation(
            _(
                "the Illusionist swaps with a character it sees in a straight line and that is "
                "not adjacent (%(name)s and %(target)s)",
                name=named(piece["name"]),
                target=piece_label(target),
            )
        )
    refuse_protected(state, board, piece, target_id)
    return [(target_id, spot, origin), (piece_id, origin, spot)]


def claw(state, board, player, piece_id, piece, origin, path, data):
    target_id, target = target_piece(state, board, player, piece, data)
    form = data.get("form")
    if form not in ("move", "pull"):
        raise RuleViolation(
            _(
                "%(piece)s either moves or pulls: say which (form)",
                piece=piece_label(piece),
            )
        )
    if path:
        raise RuleViolation(
            _(
                "%(piece)s goes straight to its target: it takes no path",
                piece=piece_label(piece),
            )
        )
    spot = board.at[target_id]
    if geo.adjacent(origin, spot) or not geo.visible(origin, spot, board.occupied):
        raise RuleViolation(
            _(
                "the Claw reaches a character it sees in a straight line and that is not "
                "adjacent (%(name)s and %(target)s)",
                name=named(piece["name"]),
                target=piece_label(target),
            )
        )
    if form == "move":
        index = geo.direction_to(spot, origin)
        return [(piece_id, origin, geo.step(spot, geo.DIRECTIONS[index]))]
    refuse_protected(state, board, piece, target_id)
    index = geo.direction_to(origin, spot)
    return [(target_id, spot, geo.step(origin, geo.DIRECTIONS[index]))]


def manipulator(state, board, player, piece_id, piece, origin, path, data):
    target_id, target = target_piece(state, board, player, piece, data, enemy=True)
    spot = board.at[target_id]
    if geo.adjacent(origin, spot) or not geo.visible(origin, spot, board.occupied):
        raise RuleViolation(
            _(
                "the Manipulator moves an enemy it sees in a straight line and that is not "
                "adjacent (%(name)s and %(target)s)",
                name=named(piece["name"]),
                target=piece_label(target),
            )
        )
    refuse_protected(state, board, piece, target_id)
    want_path(piece, path, (1,), N_("%(piece)s needs the space the enemy is moved to"))
    to = step_to(board, board.occupied, target, spot, path[0], "manipulator")
    return [(target_id, spot, to)]


def wanderer(state, board, player, piece_id, piece, origin, path, data):
    _no_target(piece, data)
    want_path(piece, path, (1,), N_("%(piece)s needs the space it goes to"))
    to = path[0]
    if to == origin or not board.free(to):
        raise RuleViolation(
            _(
                "the Wanderer goes to a free space of the board (%(name)s to %(space)s)",
                name=named(piece["name"]),
                space=fmt(to),
            )
        )
    for pid, space in board.at.items():
        if board.pieces[pid]["owner"] != player and geo.adjacent(space, to):
            raise RuleViolation(
                _(
                    "the Wanderer goes only to a space not adjacent to an enemy (%(name)s to "
                    "%(space)s, next to %(enemy)s)",
                    name=named(piece["name"]),
                    space=fmt(to),
                    enemy=piece_label(board.pieces[pid]),
                )
            )
    return [(piece_id, origin, to)]


def brewmaster(state, board, player, piece_id, piece, origin, path, data):
    target_id, target = target_piece(state, board, player, piece, data, ally=True)
    spot = board.at[target_id]
    if not geo.adjacent(origin, spot):
        raise RuleViolation(
            _(
                "the Brewmaster moves an adjacent ally (%(name)s and %(target)s)",
                name=named(piece["name"]),
                target=piece_label(target),
            )
        )
    want_path(piece, path, (1,), N_("%(piece)s needs the space the ally is moved to"))
    to = step_to(board, board.occupied, target, spot, path[0], "brewmaster")
    return [(target_id, spot, to)]


ABILITIES = {
    "acrobat": acrobat,
    "rider": rider,
    "colossus": colossus,
    "royal-guard": royal_guard,
    "illusionist": illusionist,
    "claw": claw,
    "manipulator": manipulator,
    "wanderer": wanderer,
    "brewmaster": brewmaster,
}

# The characters with an active ability: those the table above can play.
ACTIVE = tuple(ABILITIES)


def describe_moves(board: Board, moves) -> str:
    """Where an action's moves go: "the Hook to (1, 2), Lady Thessaly to (0, 1)"."""
    return listed(
        _("%(name)s to %(space)s", name=named(board.pieces[p]["name"]), space=fmt(to))
        for p, _from, to in moves
    )


def finish_action(state, board, match, player, piece_id, moves, kind, version) -> None:
    """Judge the end on the positions the moves leave, then change the state."""
    positions = positions_after(board, moves)
    taken = refuse_self_harm(state, board, player, positions, describe_moves(board, moves))
    for moved, _from, to in moves:
        board.pieces[moved]["at"] = list(to)
    match["acted"].append(piece_id)
    match["last"] = {
        "version": version,
        "type": kind,
        "player": player,
        "piece": piece_id,
        "moves": [{"piece": p, "from": list(a), "to": list(b)} for p, a, b in moves],
    }
    enemy = other(state, player)
    if enemy in taken:
        end_match(state, match, enemy, taken[enemy], version)
        return
    nemesis_follows(state, board, match, positions, moves)
    if all_acted(match, player):
        # the source: "the phase ends when every character has acted"
        match["phase"] = "recruitment"
        match["acted_out"] = True


def all_acted(match: dict, player: str) -> bool:
    """Whether every character of the player on the board that can act has acted this turn
    (the Nemesis never acts in the action phase, so it is not waited for)."""
    return all(
        pid in match["acted"]
        for pid, piece in match["pieces"].items()
        if piece["owner"] == player and piece["at"] is not None and piece["ability"] != "nemesis"
    )


def nemesis_steps(board: Board, positions: dict, nemesis_id: str) -> int:
    """How far the Nemesis must go: two if it can (ending elsewhere), else one, else none."""
    start = positions[nemesis_id]
    taken = {s for p, s in positions.items() if p != nemesis_id}
    firsts = [s for s in geo.neighbours(start, board.cells) if s not in taken]
    for first in firsts:
        for second in geo.neighbours(first, board.cells):
            if second != start and second not in taken:
                return 2
    return 1 if firsts else 0


def nemesis_follows(state, board, match, positions, moves) -> None:
    """After an enemy Leader moved, the match waits for that enemy's Nemesis to follow."""
    for moved, frm, to in moves:
        piece = board.pieces[moved]
        if piece["ability"] != "leader" or frm == to:
            continue
        enemy = other(state, piece["owner"])
        nemesis = board.has(enemy, "nemesis")
        if nemesis is None:
            continue
        steps = nemesis_steps(board, positions, nemesis)
        if steps:
            match["nemesis"] = {"owner": enemy, "piece": nemesis, "steps": steps}
        return


@handlers.on("NemesisMoved")
def nemesis_moved(state, event):
    data, version = event.data, event.version
    match = current_match(state)
    player = data["player"]
    known_player(state, player)
    due = match.get("nemesis")
    if not due:
        raise RuleViolation(
            _("the Nemesis moves only when the enemy Leader has just moved, never as an action")
        )
    if due["owner"] != player:
        raise RuleViolation(
            _(
                "the Nemesis is %(owner)s's to move, not %(player)s's",
                owner=player_name(state, due["owner"]),
                player=player_name(state, player),
            )
        )
    board = Board(state)
    piece_id = due["piece"]
    piece = board.pieces[piece_id]
    path = [tuple(s) for s in data["path"]]
    if len(path) != due["steps"]:
        params = {"player": player_name(state, player), "num": len(path)}
        if due["steps"] == 2:
            raise RuleViolation(
                _("the Nemesis moves two spaces (%(player)s gave %(num)s)", **params)
            )
        raise RuleViolation(
            _(
                "the Nemesis moves one space, as it cannot move two (%(player)s gave %(num)s)",
                **params,
            )
        )
    start = board.at[piece_id]
    occupied = {s: p for s, p in board.occupied.items() if p != piece_id}
    moves, here = [], start
    for space in path:
        to = step_to(board, occupied, piece, here, space, "nemesis")
        moves.append((piece_id, here, to))
        here = to
    if len(path) == 2 and here == start:
        raise RuleViolation(
            _("the Nemesis may not end where it started (%(space)s)", space=fmt(start))
        )
    positions = positions_after(board, moves)
    taken = fallen(state, board, positions)
    piece["at"] = list(here)
    match["nemesis"] = None
    match["last"] = {
        "version": version,
        "type": "NemesisMoved",
        "player": player,
        "piece": piece_id,
        "moves": [{"piece": p, "from": list(a), "to": list(b)} for p, a, b in moves],
    }
    # A forced move may even take its own Leader; if it takes both, its owner loses.
    if player in taken:
        end_match(state, match, player, taken[player], version)
    elif taken:
        loser = other(state, player)
        end_match(state, match, loser, taken[loser], version)


@handlers.on("ActionPhaseEnded")
def action_phase_ended(state, event):
    data = event.data
    player = data["player"]
    match = current_match(state)
    if match["phase"] == "recruitment" and match.get("acted_out") and match["active"] == player:
        # The phase ended by itself when the last character acted; a player saying so
        # before recruiting (as logs written before it ended by itself do) changes nothing.
        in_turn(state, player, "recruitment")
        match["acted_out"] = False
        return
    match = in_turn(state, player, "action")
    match["phase"] = "recruitment"


# -- recruitment ----------------------------------------------------------------------------


def offered(match: dict) -> list[str]:
    """The cards a player may recruit from now: the row, or every available card (expert)."""
    return match["available"] if match["mode"] == "expert" else match["row"]


def own_recruitment_spaces(state, match, player) -> list[tuple]:
    seat = state["board"]["seats"][match["seats"][player]]
    return [tuple(s) for s in seat["recruitment"]]


def placement_ok(state, board, player, card, spaces) -> bool:
    positions = dict(board.at)
    for piece, space in zip(card["pieces"], spaces, strict=True):
        positions[piece["id"]] = space
    board_pieces = board.pieces
    extra = {p["id"]: {"owner": player, "ability": p["ability"]} for p in card["pieces"]}
    board.pieces = {**board_pieces, **extra}
    try:
        return player not in fallen(state, board, positions)
    finally:
        board.pieces = board_pieces


def recruitment_options(state: dict, player: str):
    """Every legal recruitment left to the player this turn: (card id, spaces) pairs."""
    match = state["match"]
    if match["recruits_due"] <= 0 or hand_size(match, player) >= HAND_LIMIT:
        return
    board = Board(state)
    free = [s for s in own_recruitment_spaces(state, match, player) if s not in board.occupied]
    cards = card_index(state)
    for card_id in offered(match):
        card = cards[card_id]
        for spaces in combinations(free, len(card["pieces"])):
            if placement_ok(state, board, player, card, spaces):
                yield card_id, [list(s) for s in spaces]


def can_recruit(state: dict, player: str) -> bool:
    """Whether the player has any legal recruitment left this turn."""
    return next(recruitment_options(state, player), None) is not None


@handlers.on("CharacterRecruited")
def character_recruited(state, event):
    data, version = event.data, event.version
    player = data["player"]
    match = in_turn(state, player, "recruitment")
    card, spaces = _check_recruitment(state, match, player, data)
    _recruit(state, match, player, card, spaces, version)
    board = Board(state)
    taken = fallen(state, board, board.at)
    enemy = other(state, player)
    if enemy in taken:
        end_match(state, match, enemy, taken[enemy], version)
        return
    if (
        match["mode"] == "expert"
        and match["exile_rounds"] == 1
        and all(hand_size(match, p["id"]) >= 3 for p in state["players"])
    ):
        first = match["first"]
        match["phase"] = "exile"
        match["exile"] = {"round": 2, "order": [first, other(state, first)], "next": 0}


def _check_recruitment(state, match, player, data) -> tuple[dict, list[tuple]]:
    """The card and the spaces of a recruitment, once every rule of recruiting holds."""
    who = player_name(state, player)
    if hand_size(match, player) >= HAND_LIMIT:
        raise RuleViolation(
            _(
                "a player holding five cards recruits no more (%(player)s holds %(num)s)",
                player=who,
                num=hand_size(match, player),
            )
        )
    if match["recruits_due"] <= 0:
        raise RuleViolation(_("%(player)s has already recruited this turn", player=who))
    card_id = data["card"]
    if card_id not in offered(match):
        if match["mode"] == "expert":
            raise RuleViolation(
                _(
                    "%(player)s cannot recruit %(card)s: it is not available",
                    player=who,
                    card=repr(card_id),
                )
            )
        row = listed((card_label(state, c) for c in match["row"]), empty=_("empty"))
        raise RuleViolation(
            _(
                "%(player)s recruits only from the face-up row (%(card)s is not in it; the "
                "row: %(row)s)",
                player=who,
                card=repr(card_id),
                row=row,
            )
        )
    card = card_index(state)[card_id]
    spaces = [tuple(s) for s in data["spaces"]]
    if len(spaces) != len(card["pieces"]):
        if len(card["pieces"]) == 2:
            raise RuleViolation(
                _(
                    "%(card)s go on two free recruitment spaces (%(player)s gave %(num)s)",
                    card=card_label(state, card_id),
                    player=who,
                    num=len(spaces),
                )
            )
        raise RuleViolation(
            _(
                "%(card)s goes on one recruitment space",
                card=card_label(state, card_id),
            )
        )
    if len(set(spaces)) != len(spaces):
        raise RuleViolation(
            _("two recruits cannot share one space (%(space)s)", space=fmt(spaces[0]))
        )
    board = Board(state)
    _check_spaces(state, match, board, player, card, spaces)
    if not placement_ok(state, board, player, card, spaces):
        leader = board.pieces[board.leader_of(player)]["name"]
        raise RuleViolation(
            _(
                "a player may not end the game against its own Leader (recruiting %(card)s "
                "would encircle %(player)s's %(leader)s)",
                card=card_label(state, card_id),
                player=who,
                leader=named(leader),
            )
        )
    return card, spaces


def _check_spaces(state, match, board, player, card, spaces) -> None:
    who = player_name(state, player)
    own = own_recruitment_spaces(state, match, player)
    for piece, space in zip(card["pieces"], spaces, strict=True):
        if space not in own:
            raise RuleViolation(
                _(
                    "a recruit goes on one of its player's own recruitment spaces "
                    "(%(player)s's %(name)s to %(space)s)",
                    player=who,
                    name=named(piece["name"]),
                    space=fmt(space),
                )
            )
        if space in board.occupied:
            raise RuleViolation(
                _(
                    "a recruit goes on a free recruitment space (%(player)s's %(name)s to "
                    "%(space)s, held by %(held)s)",
                    player=who,
                    name=named(piece["name"]),
                    space=fmt(space),
                    held=piece_label(board.pieces[board.occupied[space]]),
                )
            )


def _recruit(state, match, player, card, spaces, version) -> None:
    """The card's pieces onto the board and the card into the player's hand."""
    card_id = card["id"]
    for piece, space in zip(card["pieces"], spaces, strict=True):
        match["pieces"][piece["id"]] = {
            "owner": player,
            "name": piece["name"],
            "ability": piece["ability"],
            "card": card_id,
            "at": list(space),
        }
    match["hands"][player].append(card_id)
    if match["mode"] == "expert":
        match["available"].remove(card_id)
    else:
        match["row"].remove(card_id)
        if match["deck"]:
            match["row"].append(match["deck"].pop(0))
    match["recruits_due"] -= 1
    match["acted_out"] = False
    if hand_size(match, player) >= HAND_LIMIT:
        match["recruits_due"] = 0
    match["last"] = {
        "version": version,
        "type": "CharacterRecruited",
        "player": player,
        "piece": card["pieces"][0]["id"],
        "moves": [
            {"piece": p["id"], "from": None, "to": list(s)}
            for p, s in zip(card["pieces"], spaces, strict=True)
        ],
    }


@handlers.on("TurnEnded")
def turn_ended(state, event):
    data = event.data
    player = data["player"]
    match = in_turn(state, player, "recruitment")
    if can_recruit(state, player):
        raise RuleViolation(
            _(
                "%(player)s still has a recruitment to make this turn",
                player=player_name(state, player),
            )
        )
    begin_turn(match, other(state, player), match["turn"] + 1)
