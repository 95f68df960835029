"""The fold of Lords of Hellas: each event checked against the rules, then applied in place.

Every handler first checks (raising RuleViolation in a player's words) and only then
changes the state. A campaign is a series of games; `state["game"]` is the one under way
or the last one played, and `state["standings"]` counts games played and won.
"""

from __future__ import annotations

from collections import Counter

from tracker.errors import RuleViolation
from tracker.events import Event
from tracker.systems.base import Handlers
from tracker.systems.i18n import N_, _, listed, localised, ngettext

from . import cards as deck
from . import grants

NORMAL = {
    "ArtifactsUsed": "artifacts",
    "HeroMoved": "hero",
    "HoplitesMoved": "hoplites",
    "PriestsSent": "priests",
}
NORMAL_WORDS = {
    "artifacts": N_("used artifacts"),
    "hero": N_("moved the hero or took a quest step"),
    "hoplites": N_("moved hoplites"),
    "priests": N_("sent priests"),
}
SPECIAL = {
    "HoplitesRecruited": "recruit",
    "HoplitesMarched": "march",
    "RegionUsurped": "usurp",
    "Prayed": "prayer",
    "HuntBegan": "hunt",
    "MonumentBuilt": "build_monument",
}
SPECIAL_WORDS = {
    "recruit": N_("Recruit"),
    "march": N_("March"),
    "usurp": N_("Usurp"),
    "prayer": N_("Prayer"),
    "hunt": N_("Hunt"),
    "build_monument": N_("Build Monument"),
}
BATTLE_EVENTS = {"BattleBegan", "CombatCardPlayed", "BattlePassed", "ArmyRetreated"}
HUNT_EVENTS = {"HeroAttacked", "MonsterAttacked"}
#: the effects of a grant (a quest's reward, an event card, a Monument): recorded by the
#: player granted, in any player's turn, each taking a grant that allows it (effects.py)
EFFECTS = {
    "RegionControlChanged",
    "TempleBuilt",
    "HoplitesFortified",
    "ArtifactGained",
    "HeroAttributeChanged",
    "CombatCardsDrawn",
}
CONDITIONS = ("warlord", "favoured", "slayer", "king_of_kings")
CONDITION_WORDS = {
    "warlord": N_("Warlord"),
    "favoured": N_("Favoured by the Gods"),
    "slayer": N_("Monster Slayer"),
    "king_of_kings": N_("King of Kings"),
}
ATTRIBUTE_WORDS = {
    "leadership": N_("Leadership"),
    "strength": N_("Strength"),
    "speed": N_("Speed"),
}


# -- words ---------------------------------------------------------------------------------
# Names come as messages: a pack's names in the reader's language (`localised`), the terms of
# the game translated where they are read. English puts "the" before a monster's, a
# Monument's or an artifact's name; the other languages leave the article out.


def condition(key: str):
    """A victory condition's name, as a message."""
    return _(CONDITION_WORDS[key])


def special(kind: str):
    """A special action's name, as a message."""
    return _(SPECIAL_WORDS[kind])


def attribute(key: str | None):
    """A hero's attribute as a player names it (Leadership, Strength, Speed)."""
    if key in ATTRIBUTE_WORDS:
        return _(ATTRIBUTE_WORDS[key])
    return _("Attribute") if key is None else key.capitalize()


def hoplites(n: int):
    return ngettext("%(num)d hoplite", "%(num)d hoplites", n)


def priests(n: int):
    return ngettext("%(num)d priest", "%(num)d priests", n)


def combat_cards(n: int):
    return ngettext("%(num)d combat card", "%(num)d combat cards", n)


def name(state: dict, player: str | None) -> str:
    if player is None:
        return _("nobody")
    return state["names"].get(player, player)


def _the(found):
    return _("the %(name)s", name=localised(found, "name"))


def region_name(state: dict, region: str) -> str:
    found = state["content"]["regions"].get(region)
    return localised(found, "name") if found else region


def land_name(state: dict, land: str) -> str:
    found = state["content"]["lands"].get(land)
    return localised(found, "name") if found else land


def monster_name(state: dict, monster: str) -> str:
    found = state["content"]["monsters"].get(monster)
    return _the(found) if found else monster


def monument_name(state: dict, monument: str) -> str:
    found = state["content"]["monuments"].get(monument)
    return _the(found) if found else monument


def artifact_name(state: dict, artifact: str) -> str:
    found = state["content"]["artifacts"].get(artifact)
    return _the(found) if found else artifact


def card_name(state: dict, card: str) -> str:
    found = state["content"]["combat_cards"].get(card)
    return localised(found, "name") if found else card


def quest_title(state: dict, qid: str) -> str:
    found = state["content"].get("quests", {}).get(qid)
    return localised(found, "name") if found else qid


def event_card_name(state: dict, cid: str) -> str:
    found = state["content"]["event_cards"].get(cid)
    return localised(found, "name") if found else cid


# -- reading the board ---------------------------------------------------------------------


def region(state: dict, rid: str) -> dict:
    """A region's place in the game, or RuleViolation when the board has no such region."""
    try:
        return state["game"]["regions"][rid]
    except KeyError:
        raise RuleViolation(_("there is no region %(region)r on this board", region=rid)) from None


def hoplites_on_board(game: dict, player: str) -> int:
    return sum(r["hoplites"].get(player, 0) for r in game["regions"].values())


def priests_owned(game: dict, player: str) -> int:
    """Priests in the pool and on the Monuments: what counts against the limit."""
    on_monuments = sum(m["priests"].get(player, 0) for m in game["monuments"].values())
    return game["priests"][player] + on_monuments


def temples_controlled(game: dict, player: str) -> int:
    return sum(1 for r in game["regions"].values() if r["temple"] and r["controller"] == player)


def lands_controlled(state: dict, player: str) -> list[str]:
    """The Lands whose every Region the player controls, the excluded ones left out."""
    game = state["game"]
    held: dict[str, bool] = {}
    for rid, place in state["content"]["regions"].items():
        mine = game["regions"][rid]["controller"] == player
        held[place["land"]] = held.get(place["land"], True) and mine
    return sorted(
        land for land, whole in held.items() if whole and land not in game["excluded_lands"]
    )


def warlord_need(state: dict, players: int) -> dict:
    table = state["content"]["victory"]["warlord"]
    return table.get(str(players)) or {"lands": 2, "excluded_lands": 0}


def free_tokens(state: dict, game: dict, player: str) -> int:
    limit = state["content"]["limits"]["used_action_tokens"]
    king = game["king"]
    on_card = king["tokens"] if king and king["builder"] == player else 0
    return limit - len(game["tokens"][player]) - on_card


def progress(state: dict, player: str) -> dict:
    """How near a player is to each victory condition in the current game."""
    game = state["game"]
    victory = state["content"]["victory"]
    need = warlord_need(state, len(game["order"]))
    king = game["king"]
    return {
        "warlord": {"have": len(lands_controlled(state, player)), "need": need["lands"]},
        "favoured": {
            "have": temples_controlled(game, player),
            "need": victory["favoured_temples"],
        },
        "slayer": {"have": len(game["slain"][player]), "need": victory["slayer_monsters"]},
        "king_of_kings": None
        if not game["king_of_kings"] or king is None
        else {
            "monument": king["monument"],
            "tokens_left": king["tokens"],
            "holds_region": game["regions"][king["region"]]["controller"] == player,
        },
    }


def legal_retreats(state: dict, game: dict, battle: dict) -> list[str]:
    """Adjacent Regions the loser may fall back to: no other player's Hoplites, nor control."""
    loser = battle["outcome"]["loser"]
    found = []
    for rid in state["neighbours"][battle["region"]]:
        place = game["regions"][rid]
        others = any(n for p, n in place["hoplites"].items() if p != loser)
        if not others and place["controller"] in (None, loser):
            found.append(rid)
    return found


def waiting_for(state: dict) -> str | None:
    """What the game waits for before anything else may happen, in words; None when free."""
    game = state["game"]
    if game is None or game["over"]:
        return None
    battle = game["battle"]
    if battle:
        where = region_name(state, battle["region"])
        if battle["outcome"]:
            loser = name(state, battle["outcome"]["loser"])
            return _("%(player)s to retreat from %(region)s", player=loser, region=where)
        return _(
            "%(player)s to play a combat card or pass in %(region)s",
            player=name(state, battle["next"]),
            region=where,
        )
    if game["contested"]:
        return _("the battle for %(region)s", region=region_name(state, game["contested"][0]))
    phase = game["turn"]["phase"]
    who = name(state, game["turn"]["player"])
    if phase == "monster":
        return _("%(player)s to resolve the monster phase", player=who)
    if phase:
        return _("%(player)s to resolve the event phase", player=who)
    hunt = game["hunt"]
    if hunt and hunt["status"] in ("hero", "monster"):
        beast = monster_name(state, hunt["monster"])
        if hunt["status"] == "hero":
            return _("the hero to attack in the hunt of %(monster)s", monster=beast)
        return _("the monster to attack in the hunt of %(monster)s", monster=beast)
    return None


def open_actions(state: dict, player: str) -> dict:
    """What a player may record now: the forms a page offers it, from the rules."""
    game = state.get("game")
    if not game or game["over"] or player not in game["order"]:
        return {"my_turn": False, "normal": [], "special": [], "blocked": [], "waiting": None}
    turn = game["turn"]
    mine = turn["player"] == player
    free = mine and waiting_for(state) is None
    normal = (
        [k for k in NORMAL_WORDS if k not in turn["normal"]] if free and not turn["special"] else []
    )
    blocked = list(game["tokens"][player])
    special = []
    if free and not turn["special"] and free_tokens(state, game, player) > 0:
        special = [k for k in SPECIAL_WORDS if k not in blocked]
    return {
        "my_turn": mine,
        "normal": normal,
        "special": special,
        "blocked": blocked,
        "may_end_turn": free and bool(turn["special"]),
        "waiting": waiting_for(state),
    }


# -- the fold ------------------------------------------------------------------------------


class GameHandlers(Handlers):
    """The handlers of Lords of Hellas, with the frame every event of a game under way keeps.

    ``@handlers.in_game("HeroMoved")`` registers a step ``step(state, game, data)`` as the
    handler of that event: the handler refuses it when no game is under way, when its player
    is not playing, or while the game waits for something else (a battle, a phase, a hunt);
    runs the step; then notes the event as the game's last and ends the game when a player
    has met a victory condition.
    """

    def in_game(self, event_type: str):
        def register(step):
            def handler(state: dict, event: Event) -> None:
                game = game_under_way(state, event.type)
                player = event.data.get("player")
                if player is not None and player not in game["order"]:
                    raise RuleViolation(
                        _(
                            "%(player)s is not playing in game %(game)s",
                            player=name(state, player),
                            game=game["id"],
                        )
                    )
                _check_waiting(state, game, event.type)
                step(state, game, event.data)
                game["last"] = {"version": event.version, "type": event.type, "player": player}
                _check_victory(state, game, player, event.version)

            self[event_type] = handler
            return step

        return register


#: the handlers of rules.py (effects.py and quests.py hold the others)
handlers = GameHandlers()


def game_under_way(state: dict, kind: str) -> dict:
    """The game under way, or RuleViolation when there is none (`kind`: the event that
    asks, named in no refusal: a player knows a move, not an event's type)."""
    game = state["game"]
    if game is None:
        raise RuleViolation(
            _("no game is under way: a game begins before anything is played in it")
        )
    if game["over"]:
        over = game["over"]
        if over["winner"] is None:
            raise RuleViolation(_("game %(game)s is over (it was abandoned)", game=game["id"]))
        raise RuleViolation(
            _(
                "game %(game)s is over (%(player)s won as %(condition)s)",
                game=game["id"],
                player=name(state, over["winner"]),
                condition=condition(over["condition"]),
            )
        )
    return game


@handlers.on("GameStarted")
def game_started(state: dict, event: Event) -> None:
    _start_game(state, event.data, event.version)
    _check_victory(state, state["game"], None, event.version)


@handlers.on("GameAbandoned")
def game_abandoned(state: dict, event: Event) -> None:
    _end(state, game_under_way(state, event.type), None, None, event.version)


def _check_waiting(state, game, kind):
    battle = game["battle"]
    if (battle or game["contested"]) and kind not in BATTLE_EVENTS:
        where = battle["region"] if battle else game["contested"][0]
        raise RuleViolation(
            _(
                "the battle for %(region)s is fought before anything else",
                region=region_name(state, where),
            )
        )
    phase = game["turn"]["phase"]
    if phase == "monster" and kind != "MonsterPhaseResolved":
        raise RuleViolation(_("after a Monument is built, the Monster Phase comes next"))
    if phase == "event" and kind != "EventResolved":
        raise RuleViolation(_("after the Monster Phase, the Event Phase comes next"))
    hunt = game["hunt"]
    if hunt and hunt["status"] in ("hero", "monster") and kind not in HUNT_EVENTS:
        raise RuleViolation(
            _(
                "the hunt of %(monster)s goes on until the monster is slain or the hunt fails",
                monster=monster_name(state, hunt["monster"]),
            )
        )


def _my_turn(state, game, player):
    current = game["turn"]["player"]
    if player != current:
        raise RuleViolation(
            _(
                "it is %(current)s's turn, not %(player)s's",
                current=name(state, current),
                player=name(state, player),
            )
        )


def _normal_action(state, game, data, kind):
    player = data["player"]
    _my_turn(state, game, player)
    turn = game["turn"]
    who = name(state, player)
    if turn["special"]:
        raise RuleViolation(
            _(
                "normal actions come before the special action (%(player)s already took "
                "%(action)s this turn)",
                player=who,
                action=special(turn["special"]),
            )
        )
    if kind in turn["normal"]:
        raise RuleViolation(
            _(
                "each kind of normal action is taken once a turn (%(player)s already "
                "%(action)s this turn)",
                player=who,
                action=_(NORMAL_WORDS[kind]),
            )
        )


def _special_action(state, game, data, kind):
    player = data["player"]
    _my_turn(state, game, player)
    who = name(state, player)
    taken = game["turn"]["special"]
    if taken:
        raise RuleViolation(
            _(
                "a player takes exactly one special action a turn (%(player)s already took "
                "%(action)s)",
                player=who,
                action=special(taken),
            )
        )
    if kind in game["tokens"][player]:
        raise RuleViolation(
            _(
                "%(action)s is blocked by %(player)s's Used Action token until a Monument is built",
                action=special(kind),
                player=who,
            )
        )
    if free_tokens(state, game, player) <= 0:
        raise RuleViolation(
            _("%(player)s has no Used Action token left for a special action", player=who)
        )


def _take_special(state, game, player, kind):
    """Place the Used Action token; a builder's later special action takes one off the card."""
    game["turn"]["special"] = kind
    game["tokens"][player].append(kind)
    king = game["king"]
    if king and king["builder"] == player and king["tokens"] > 0:
        king["tokens"] -= 1


# -- games ---------------------------------------------------------------------------------


def setup_defaults(state: dict, data: dict) -> dict:
    """A game's setup with what it leaves out taken from the content: each seat's hero and
    hoplites (`start.seats`, by seat order), the monsters, the Lands that do not count."""
    start = state["content"]["start"]
    order = data["order"]
    seats = start.get("seats", [])
    data = dict(data)
    heroes = {p: seats[i]["hero"] for i, p in enumerate(order) if i < len(seats)}
    data["heroes"] = {**heroes, **(data.get("heroes") or {})}
    if not data.get("hoplites"):
        data["hoplites"] = {
            p: dict(seats[i]["hoplites"]) for i, p in enumerate(order) if i < len(seats)
        }
    if data.get("monsters") is None:
        data["monsters"] = dict(start.get("monsters", {}))
    if data.get("excluded_lands") is None:
        data["excluded_lands"] = list(start.get("excluded_lands", {}).get(str(len(order)), []))
    return data


def _check_seats(state, data):
    content = state["content"]
    earlier = state["game"]
    if earlier and not earlier["over"]:
        raise RuleViolation(
            _("game %(game)s is still under way: it ends before another", game=earlier["id"])
        )
    if any(g["id"] == data["game"] for g in state["games"]):
        raise RuleViolation(
            _("this campaign already played a game called %(game)s", game=data["game"])
        )
    order = data["order"]
    for player in order:
        if player not in state["names"]:
            raise RuleViolation(_("%(player)s is not a player of this campaign", player=player))
    if len(set(order)) != len(order):
        raise RuleViolation(_("each player takes one seat at the table"))
    low, high = content["players"]["min"], content["players"]["max"]
    if not low <= len(order) <= high:
        raise RuleViolation(
            _(
                "a game has %(low)s to %(high)s players, not %(count)s",
                low=low,
                high=high,
                count=len(order),
            )
        )


def _check_pieces(state, data) -> dict[str, str]:
    """Heroes, hoplites and monsters set out on regions of the board; who holds which."""
    content, order = state["content"], data["order"]
    regions = content["regions"]
    if set(data["heroes"]) != set(order):
        raise RuleViolation(_("each player of the game places one hero, and only they do"))
    for rid in data["heroes"].values():
        if rid not in regions:
            raise RuleViolation(_("there is no region %(region)r on this board", region=rid))
    limit = content["limits"]["hoplites"]
    held: dict[str, str] = {}
    for player, placed in data["hoplites"].items():
        if player not in order:
            raise RuleViolation(
                _("%(player)s is not playing in this game", player=name(state, player))
            )
        total = sum(placed.values())
        if total > limit:
            raise RuleViolation(
                _(
                    "a player has at most %(limit)s hoplites (%(player)s would have %(count)s)",
                    limit=limit,
                    player=name(state, player),
                    count=total,
                )
            )
        for rid in placed:
            if rid not in regions:
                raise RuleViolation(_("there is no region %(region)r on this board", region=rid))
            if rid in held:
                raise RuleViolation(
                    _(
                        "%(region)s starts with the hoplites of one player only "
                        "(%(first)s and %(second)s)",
                        region=region_name(state, rid),
                        first=name(state, held[rid]),
                        second=name(state, player),
                    )
                )
            held[rid] = player
    for monster, rid in data["monsters"].items():
        if monster not in content["monsters"]:
            raise RuleViolation(
                _("there is no monster %(monster)r in this game's content", monster=monster)
            )
        if rid not in regions:
            raise RuleViolation(_("there is no region %(region)r on this board", region=rid))
    return held


def _check_victory_setup(state, data) -> bool:
    """The Lands left out for Warlord, and whether King of Kings is played."""
    content, order = state["content"], data["order"]
    need = warlord_need(state, len(order))
    excluded = data["excluded_lands"]
    if len(set(excluded)) != need["excluded_lands"] or len(excluded) != len(set(excluded)):
        raise RuleViolation(
            ngettext(
                "with %(players)s players, %(num)d Land(s) do not count for Warlord "
                "(%(named)s named)",
                "with %(players)s players, %(num)d Land(s) do not count for Warlord "
                "(%(named)s named)",
                need["excluded_lands"],
                players=len(order),
                named=len(excluded),
            )
        )
    for land in excluded:
        if land not in content["lands"]:
            raise RuleViolation(_("there is no land %(land)r on this board", land=land))
    king = data["king_of_kings"]
    if len(order) == 2:
        return content["victory"]["king_with_two_players"] if king is None else king
    if king is False:
        raise RuleViolation(_("King of Kings may be left out only in a game of two players"))
    return True


def _regions_at_start(content, data, held):
    return {
        rid: {
            "controller": held.get(rid),
            "hoplites": {held[rid]: data["hoplites"][held[rid]][rid]} if rid in held else {},
            "fortified": {},
            "temple": False,
        }
        for rid in content["regions"]
    }


def _deck_left(content: dict, hands: dict[str, list[str]]) -> dict[str, int]:
    """The combat cards left in the deck once the hands are dealt: card -> how many."""
    left = deck.full_deck(content)
    for hand in hands.values():
        for cid in hand:
            left[cid] -= 1
    return {cid: n for cid, n in left.items() if n}


def _start_game(state, data, version):
    """Check the setup of a new game and set it out: board, heroes, hands, tokens."""
    _check_seats(state, data)
    data = setup_defaults(state, data)
    held = _check_pieces(state, data)
    king = _check_victory_setup(state, data)
    order = data["order"]
    hands = deck.deal_check(state, order, data.get("hands"))
    content = state["content"]
    start = content["start"]
    state["game"] = {
        "id": data["game"],
        "number": len(state["games"]) + 1,
        "started_at": version,
        "order": list(order),
        "round": 1,
        "turn": new_turn(1, order[0]),
        "regions": _regions_at_start(content, data, held),
        "heroes": {
            p: {"region": data["heroes"][p], "wounds": 0, "quest": None, **start["attributes"]}
            for p in order
        },
        "priests": {p: start["priests"] for p in order},
        "tokens": {p: [] for p in order},
        "monuments": {
            mid: {"region": m["region"], "level": start["monument_level"], "priests": {}}
            for mid, m in content["monuments"].items()
        },
        "artifacts": {aid: {"owner": None, "charged": True} for aid in content["artifacts"]},
        "monsters": dict(data["monsters"]),
        "slain": {p: [] for p in order},
        "contested": [],
        "battle": None,
        "battles": [],
        "hunt": None,
        "king_of_kings": king,
        "king": None,
        "excluded_lands": list(data["excluded_lands"]),
        "events_drawn": [],
        "hands": hands,
        "deck": _deck_left(content, hands),
        "discard": {},
        "reshuffles": 0,
        "grants": [],
        "quests": {
            qid: {"region": q["region"], "hero": None, "step": 0, "done_by": None}
            for qid, q in content.get("quests", {}).items()
        },
        "quests_done": {p: [] for p in order},
        "last_draw": None,
        "last_grant": None,
        "last": {"version": version, "type": "GameStarted", "player": None},
        "over": None,
    }
    for player in order:
        state["standings"][player]["played"] += 1


def _end(state, game, winner, condition, version):
    game["over"] = {"winner": winner, "condition": condition, "version": version}
    if winner:
        standing = state["standings"][winner]
        standing["won"] += 1
        standing["by"][condition] += 1
    state["games"].append(
        {
            "id": game["id"],
            "players": list(game["order"]),
            "winner": winner,
            "condition": condition,
            "rounds": game["round"],
            "ended_at": version,
        }
    )


def _check_victory(state, game, acting, version):
    """End the game the instant a player meets a victory condition (the actor first)."""
    king = game["king"]
    if king and king["tokens"] == 0 and not king["resolved"]:
        king["resolved"] = True
        holder = game["regions"][king["region"]]["controller"]
        if holder:
            _end(state, game, holder, "king_of_kings", version)
            return
    order = game["order"]
    if acting in order:
        at = order.index(acting)
        order = order[at:] + order[:at]
    victory = state["content"]["victory"]
    need = warlord_need(state, len(game["order"]))["lands"]
    for player in order:
        if len(game["slain"][player]) >= victory["slayer_monsters"]:
            _end(state, game, player, "slayer", version)
        elif temples_controlled(game, player) >= victory["favoured_temples"]:
            _end(state, game, player, "favoured", version)
        elif len(lands_controlled(state, player)) >= need:
            _end(state, game, player, "warlord", version)
        else:
            continue
        return


# -- turns ---------------------------------------------------------------------------------


def new_turn(number: int, player: str) -> dict:
    """A turn as it begins: no action taken yet."""
    return {
        "number": number,
        "player": player,
        "normal": [],
        "special": None,
        "phase": None,
        "hero_path": None,
        "priests_gained": None,
        "event_card": None,
        "monster_news": None,
        "event_news": None,
        "blessed": [],
    }


@handlers.in_game("TurnEnded")
def turn_ended(state, game, data):
    player = data["player"]
    _my_turn(state, game, player)
    if not game["turn"]["special"]:
        raise RuleViolation(
            _(
                "a turn ends after exactly one special action (%(player)s took none)",
                player=name(state, player),
            )
        )
    order = game["order"]
    following = order[(order.index(player) + 1) % len(order)]
    game["turn"] = new_turn(game["turn"]["number"] + 1, following)
    game["hunt"] = None


# -- normal actions ------------------------------------------------------------------------


@handlers.in_game("ArtifactsUsed")
def artifacts_used(state, game, data):
    _normal_action(state, game, data, "artifacts")
    player = data["player"]
    if len(set(data["artifacts"])) != len(data["artifacts"]):
        raise RuleViolation(_("an artifact is used once until it is charged again"))
    for aid in data["artifacts"]:
        held = game["artifacts"].get(aid)
        if held is None or held["owner"] != player:
            raise RuleViolation(
                _(
                    "%(player)s does not hold %(artifact)s",
                    player=name(state, player),
                    artifact=artifact_name(state, aid),
                )
            )
        if not held["charged"]:
            raise RuleViolation(
                _(
                    "only a charged artifact is used (%(artifact)s of %(player)s charges again "
                    "when a Monument is built)",
                    artifact=artifact_name(state, aid),
                    player=name(state, player),
                )
            )
    for aid in data["artifacts"]:
        game["artifacts"][aid]["charged"] = False
    game["turn"]["normal"].append("artifacts")


@handlers.in_game("HeroMoved")
def hero_moved(state, game, data):
    _normal_action(state, game, data, "hero")
    player = data["player"]
    hero = game["heroes"][player]
    path = data["path"]
    who = name(state, player)
    if hero["quest"]:
        raise RuleViolation(
            _(
                "a hero on a quest takes its next step instead of moving (%(player)s's hero "
                "is on %(quest)s)",
                player=who,
                quest=quest_title(state, hero["quest"]),
            )
        )
    if len(path) > hero["speed"]:
        raise RuleViolation(
            _(
                "a hero moves at most its Speed in regions (%(player)s's hero has Speed "
                "%(speed)s, the path has %(steps)s)",
                player=who,
                speed=hero["speed"],
                steps=len(path),
            )
        )
    here = hero["region"]
    for step in path:
        region(state, step)
        if step not in state["neighbours"][here]:
            raise RuleViolation(
                _(
                    "a hero moves from a region to an adjacent one (%(player)s's hero from "
                    "%(origin)s to %(destination)s)",
                    player=who,
                    origin=region_name(state, here),
                    destination=region_name(state, step),
                )
            )
        here = step
    game["turn"]["hero_path"] = [hero["region"], *path]
    hero["region"] = here
    game["turn"]["normal"].append("hero")


def _check_moves(state, game, player, moves):
    left: dict[str, int] = {}
    for move in moves:
        origin, destination = move["origin"], move["destination"]
        place = region(state, origin)
        region(state, destination)
        if destination not in state["neighbours"][origin]:
            raise RuleViolation(
                _(
                    "hoplites move to an adjacent region (%(player)s from %(origin)s to "
                    "%(destination)s)",
                    player=name(state, player),
                    origin=region_name(state, origin),
                    destination=region_name(state, destination),
                )
            )
        have = left.setdefault(origin, place["hoplites"].get(player, 0))
        if move["count"] > have:
            raise RuleViolation(
                ngettext(
                    "%(player)s has %(num)d hoplite(s) left to move from %(origin)s, not %(count)s",
                    "%(player)s has %(num)d hoplite(s) left to move from %(origin)s, not %(count)s",
                    have,
                    player=name(state, player),
                    origin=region_name(state, origin),
                    count=move["count"],
                )
            )
        left[origin] = have - move["count"]


def _kill(place, player, count):
    """Remove hoplites, fortified ones last; returns how many died."""
    have = place["hoplites"].get(player, 0)
    dead = min(count, have)
    remaining = have - dead
    if remaining:
        place["hoplites"][player] = remaining
    else:
        place["hoplites"].pop(player, None)
    fortified = min(place["fortified"].get(player, 0), remaining)
    if fortified:
        place["fortified"][player] = fortified
    else:
        place["fortified"].pop(player, None)
    return dead


def _arrive(game, player, rid, count):
    place = game["regions"][rid]
    place["hoplites"][player] = place["hoplites"].get(player, 0) + count
    if any(p != player for p in place["hoplites"]):
        if rid not in game["contested"]:
            game["contested"].append(rid)
    else:
        place["controller"] = player


def _move_hoplites(game, player, moves):
    for move in moves:
        _kill(game["regions"][move["origin"]], player, move["count"])
    for move in moves:
        _arrive(game, player, move["destination"], move["count"])


@handlers.in_game("HoplitesMoved")
def hoplites_moved(state, game, data):
    _normal_action(state, game, data, "hoplites")
    _check_moves(state, game, data["player"], data["moves"])
    _move_hoplites(game, data["player"], data["moves"])
    game["turn"]["normal"].append("hoplites")


@handlers.in_game("PriestsSent")
def priests_sent(state, game, data):
    _normal_action(state, game, data, "priests")
    player = data["player"]
    monument = game["monuments"].get(data["monument"])
    if monument is None:
        raise RuleViolation(
            _("there is no monument %(monument)r on this board", monument=data["monument"])
        )
    pool = game["priests"][player]
    if data["count"] > pool:
        raise RuleViolation(
            ngettext(
                "%(player)s has %(num)d priest(s) in the pool, not %(count)s to send",
                "%(player)s has %(num)d priest(s) in the pool, not %(count)s to send",
                pool,
                player=name(state, player),
                count=data["count"],
            )
        )
    game["priests"][player] = pool - data["count"]
    monument["priests"][player] = monument["priests"].get(player, 0) + data["count"]
    game["turn"]["normal"].append("priests")


# -- special actions -----------------------------------------------------------------------


@handlers.in_game("HoplitesRecruited")
def hoplites_recruited(state, game, data):
    _special_action(state, game, data, "recruit")
    player = data["player"]
    total = 0
    for placed in data["placed"]:
        place = region(state, placed["region"])
        if place["controller"] != player:
            raise RuleViolation(
                _(
                    "new hoplites go to regions their player controls (%(player)s does not "
                    "control %(region)s)",
                    player=name(state, player),
                    region=region_name(state, placed["region"]),
                )
            )
        total += placed["count"]
    limit = state["content"]["limits"]["hoplites"]
    after = hoplites_on_board(game, player) + total
    if after > limit:
        raise RuleViolation(
            _(
                "a player has at most %(limit)s hoplites (%(player)s would have %(count)s)",
                limit=limit,
                player=name(state, player),
                count=after,
            )
        )
    _take_special(state, game, player, "recruit")
    for placed in data["placed"]:
        _arrive(game, player, placed["region"], placed["count"])


@handlers.in_game("HoplitesMarched")
def hoplites_marched(state, game, data):
    _special_action(state, game, data, "march")
    _check_moves(state, game, data["player"], data["moves"])
    _take_special(state, game, data["player"], "march")
    _move_hoplites(game, data["player"], data["moves"])


@handlers.in_game("RegionUsurped")
def region_usurped(state, game, data):
    _special_action(state, game, data, "usurp")
    player, rid = data["player"], data["region"]
    check_usurp(state, game, player, rid)
    _take_special(state, game, player, "usurp")
    game["regions"][rid]["controller"] = player


def check_usurp(state: dict, game: dict, player: str, rid: str) -> None:
    """RuleViolation unless `player`'s hero may usurp region `rid` (its turn aside)."""
    place = region(state, rid)
    who, where = name(state, player), region_name(state, rid)
    hero = game["heroes"][player]
    if hero["region"] != rid:
        raise RuleViolation(
            _(
                "a hero usurps the region it stands in (%(player)s's hero is not in %(region)s)",
                player=who,
                region=where,
            )
        )
    others = [p for p in place["hoplites"] if p != player]
    if others:
        raise RuleViolation(
            _(
                "a region held by another player's hoplites is not usurped (%(player)s holds "
                "%(region)s)",
                player=name(state, others[0]),
                region=where,
            )
        )
    population = state["content"]["regions"][rid]["population"]
    if hero["leadership"] < population:
        raise RuleViolation(
            _(
                "a hero usurps a region whose population strength is no more than its "
                "Leadership (%(player)s has Leadership %(leadership)s, %(region)s "
                "%(population)s)",
                player=who,
                leadership=hero["leadership"],
                region=where,
                population=population,
            )
        )
    if place["controller"] == player:
        raise RuleViolation(_("%(player)s already controls %(region)s", player=who, region=where))


@handlers.in_game("Prayed")
def prayed(state, game, data):
    _special_action(state, game, data, "prayer")
    player = data["player"]
    _take_special(state, game, player, "prayer")
    limit = state["content"]["limits"]["priests"]
    gain = min(state["content"]["prayer_priests"], limit - priests_owned(game, player))
    game["priests"][player] += max(gain, 0)
    game["turn"]["priests_gained"] = max(gain, 0)


@handlers.in_game("HuntBegan")
def hunt_began(state, game, data):
    _special_action(state, game, data, "hunt")
    player, monster = data["player"], data["monster"]
    where = game["monsters"].get(monster)
    if where is None:
        raise RuleViolation(
            _(
                "%(monster)s is not on the board to be hunted",
                monster=monster_name(state, monster),
            )
        )
    hero = game["heroes"][player]
    if hero["region"] != where:
        raise RuleViolation(
            _(
                "a hero hunts a monster in its own region (%(player)s's hero is in "
                "%(region)s, %(monster)s in %(lair)s)",
                player=name(state, player),
                region=region_name(state, hero["region"]),
                monster=monster_name(state, monster),
                lair=region_name(state, where),
            )
        )
    deck.check_draw(state, game, player, data.get("cards") or [], hero["strength"])
    _take_special(state, game, player, "hunt")
    deck.take_draw(state, game, player, data.get("cards") or [])
    game["hunt"] = {
        "player": player,
        "monster": monster,
        "region": where,
        "wounds": [],
        "attacks": [],
        "status": "hero",
        "claimed": None,
    }


@handlers.in_game("MonumentBuilt")
def monument_built(state, game, data):
    _special_action(state, game, data, "build_monument")
    player = data["player"]
    monument = game["monuments"].get(data["monument"])
    if monument is None:
        raise RuleViolation(
            _("there is no monument %(monument)r on this board", monument=data["monument"])
        )
    levels = state["content"]["limits"]["monument_levels"]
    if monument["level"] >= levels:
        raise RuleViolation(
            _(
                "%(monument)s is complete at %(levels)s levels",
                monument=monument_name(state, data["monument"]),
                levels=levels,
            )
        )
    _take_special(state, game, player, "build_monument")
    monument["level"] += 1
    game["turn"]["blessed"] = grants.bless(state, game)
    if monument["level"] == levels:
        grants.activate(state, game, data["monument"], player)
    # Priests on every Monument go home before the builder counts its Temples.
    for built in game["monuments"].values():
        for owner, count in built["priests"].items():
            game["priests"][owner] += count
        built["priests"] = {}
    limit = state["content"]["limits"]["priests"]
    gain = min(temples_controlled(game, player), limit - game["priests"][player])
    game["priests"][player] += max(gain, 0)
    game["turn"]["priests_gained"] = max(gain, 0)
    # The round ends: every Used Action token comes off, every artifact is charged.
    for tokens in game["tokens"].values():
        tokens.clear()
    for held in game["artifacts"].values():
        held["charged"] = True
    game["round"] += 1
    game["turn"]["phase"] = "monster"
    if monument["level"] == levels and game["king_of_kings"] and game["king"] is None:
        game["king"] = {
            "monument": data["monument"],
            "region": monument["region"],
            "builder": player,
            "tokens": state["content"]["victory"]["king_turns"],
            "resolved": False,
        }


# -- hunts ---------------------------------------------------------------------------------


def _hunt(state, game, player, status):
    hunt = game["hunt"]
    if hunt is None or hunt["status"] not in ("hero", "monster"):
        raise RuleViolation(_("%(player)s is not hunting a monster", player=name(state, player)))
    if hunt["player"] != player:
        raise RuleViolation(_("the hunt is %(player)s's", player=name(state, hunt["player"])))
    if hunt["status"] != status:
        if hunt["status"] == "hero":
            raise RuleViolation(_("the hero attacks next in the hunt"))
        raise RuleViolation(
            _(
                "%(monster)s attacks next in the hunt",
                monster=monster_name(state, hunt["monster"]),
            )
        )
    return hunt


@handlers.in_game("HeroAttacked")
def hero_attacked(state, game, data):
    player = data["player"]
    hunt = _hunt(state, game, player, "hero")
    monster = state["content"]["monsters"][hunt["monster"]]
    cards = state["content"]["combat_cards"]
    wounds = {w["id"]: w for w in monster["wounds"]}
    beast = monster_name(state, hunt["monster"])
    done = set(hunt["wounds"])
    for entry in data["wounds"]:
        wound = wounds.get(entry["wound"])
        if wound is None:
            raise RuleViolation(
                _(
                    "%(monster)s has no wound called %(wound)r",
                    monster=beast,
                    wound=entry["wound"],
                )
            )
        if entry["wound"] in done:
            raise RuleViolation(
                _(
                    "%(monster)s's %(wound)s is already wounded",
                    monster=beast,
                    wound=entry["wound"],
                )
            )
        done.add(entry["wound"])
        symbols = []
        for card in entry["cards"]:
            if card not in cards:
                raise RuleViolation(_("there is no combat card %(card)r", card=card))
            symbols.append(cards[card]["symbol"])
        if Counter(symbols) != Counter(wound["symbols"]):
            raise RuleViolation(
                _(
                    "a wound takes combat cards matching its symbols (%(monster)s's %(wound)s "
                    "takes %(needs)s; %(player)s discarded %(symbols)s)",
                    monster=beast,
                    wound=entry["wound"],
                    needs=", ".join(wound["symbols"]),
                    player=name(state, player),
                    symbols=", ".join(symbols),
                )
            )
    spent = [card for entry in data["wounds"] for card in entry["cards"]]
    deck.check_in_hand(state, game, player, spent)
    deck.play_from_hand(game, player, spent)
    deck.discard(game, spent)
    hunt["wounds"].extend(entry["wound"] for entry in data["wounds"])
    if not data["wounds"]:
        hunt["status"] = "failed"  # an attack that wounds nothing ends the hunt at once
    elif len(hunt["wounds"]) == len(wounds):
        hunt["status"] = "slain"
        del game["monsters"][hunt["monster"]]
        game["slain"][player].append(hunt["monster"])
    else:
        hunt["status"] = "monster"


@handlers.in_game("MonsterAttacked")
def monster_attacked(state, game, data):
    player = data["player"]
    hunt = _hunt(state, game, player, "monster")
    attack = state["content"]["monsters"][hunt["monster"]]["attacks"][data["roll"][0] - 1]
    game["heroes"][player]["wounds"] += attack["hero_wounds"]
    hunt["attacks"].append({"roll": data["roll"][0], **attack})
    hunt["status"] = "failed" if attack["ends_hunt"] else "hero"


@handlers.in_game("HuntRewardClaimed")
def hunt_reward_claimed(state, game, data):
    player = data["player"]
    hunt = game["hunt"]
    who = name(state, player)
    if hunt is None or hunt["player"] != player or hunt["status"] != "failed":
        raise RuleViolation(
            _(
                "a reward is claimed after a failed hunt (%(player)s has none this turn)",
                player=who,
            )
        )
    if hunt["claimed"]:
        raise RuleViolation(
            _("after a failed hunt a player claims one reward (%(player)s has one)", player=who)
        )
    beast = monster_name(state, hunt["monster"])
    if data["wound"] not in hunt["wounds"]:
        raise RuleViolation(
            _(
                "the reward is one of a wound inflicted (%(monster)s's %(wound)s was not)",
                monster=beast,
                wound=data["wound"],
            )
        )
    wound = next(
        w
        for w in state["content"]["monsters"][hunt["monster"]]["wounds"]
        if w["id"] == data["wound"]
    )
    reward = wound["reward"]
    if reward is None:
        raise RuleViolation(
            _(
                "only a wound showing an artifact or a priest gives a reward (%(monster)s's "
                "%(wound)s shows neither)",
                monster=beast,
                wound=data["wound"],
            )
        )
    if reward == "priest":
        limit = state["content"]["limits"]["priests"]
        if data["artifact"] is not None:
            raise RuleViolation(
                _(
                    "%(monster)s's %(wound)s gives a priest, not an artifact",
                    monster=beast,
                    wound=data["wound"],
                )
            )
        if priests_owned(game, player) >= limit:
            raise RuleViolation(
                _(
                    "a player has at most %(limit)s priests (%(player)s has %(limit)s)",
                    limit=limit,
                    player=who,
                )
            )
        game["priests"][player] += 1
    else:
        _check_artifact_free(state, game, data["artifact"])
        game["artifacts"][data["artifact"]]["owner"] = player
    hunt["claimed"] = data["wound"]


def _check_artifact_free(state, game, aid):
    if aid is None:
        raise RuleViolation(_("an artifact reward names the artifact taken"))
    held = game["artifacts"].get(aid)
    if held is None:
        raise RuleViolation(
            _("there is no artifact %(artifact)r in this game's content", artifact=aid)
        )
    if held["owner"]:
        raise RuleViolation(
            _(
                "%(artifact)s is held by %(player)s",
                artifact=artifact_name(state, aid),
                player=name(state, held["owner"]),
            )
        )


# -- battles -------------------------------------------------------------------------------


@handlers.in_game("BattleBegan")
def battle_began(state, game, data):
    player, rid = data["player"], data["region"]
    _my_turn(state, game, player)
    if game["battle"]:
        raise RuleViolation(
            _(
                "one battle at a time (the battle for %(region)s goes on)",
                region=region_name(state, game["battle"]["region"]),
            )
        )
    if rid not in game["contested"]:
        raise RuleViolation(
            _("there is no battle to fight in %(region)s", region=region_name(state, rid))
        )
    place = game["regions"][rid]
    if player not in place["hoplites"]:
        raise RuleViolation(
            _(
                "%(player)s has no hoplites in %(region)s",
                player=name(state, player),
                region=region_name(state, rid),
            )
        )
    defender = next(p for p in place["hoplites"] if p != player)
    game["battle"] = {
        "region": rid,
        "attacker": player,
        "defender": defender,
        "cards": {player: [], defender: []},
        "next": player,
        "passes": 0,
        "outcome": None,
    }


def _battle_turn(state, game, player):
    battle = game["battle"]
    if battle is None:
        raise RuleViolation(_("%(player)s is in no battle", player=name(state, player)))
    if battle["outcome"]:
        raise RuleViolation(
            _(
                "the battle for %(region)s is decided: no more cards",
                region=region_name(state, battle["region"]),
            )
        )
    if player not in battle["cards"]:
        raise RuleViolation(
            _(
                "%(player)s does not fight in %(region)s",
                player=name(state, player),
                region=region_name(state, battle["region"]),
            )
        )
    if battle["next"] != player:
        raise RuleViolation(
            _(
                "players take turns in a battle: %(player)s plays a card or passes next",
                player=name(state, battle["next"]),
            )
        )
    return battle


def _other(battle, player):
    return battle["defender"] if player == battle["attacker"] else battle["attacker"]


@handlers.in_game("CombatCardPlayed")
def combat_card_played(state, game, data):
    player = data["player"]
    battle = _battle_turn(state, game, player)
    deck.check_in_hand(state, game, player, [data["card"]])
    deck.play_from_hand(game, player, [data["card"]])
    battle["cards"][player].append(data["card"])
    battle["passes"] = 0
    battle["next"] = _other(battle, player)


@handlers.in_game("BattlePassed")
def battle_passed(state, game, data):
    player = data["player"]
    battle = _battle_turn(state, game, player)
    battle["passes"] += 1
    battle["next"] = _other(battle, player)
    if battle["passes"] >= 2:
        _decide(state, game, battle)


def _decide(state, game, battle):
    """Both passed: compare Army Strength (ties to the defender), then count the dead."""
    place = game["regions"][battle["region"]]
    cards = state["content"]["combat_cards"]
    bonus = state["content"]["battle"]["fortification_bonus"]
    strength, casualties = {}, {}
    for side in (battle["attacker"], battle["defender"]):
        played = [cards[c] for c in battle["cards"][side]]
        strength[side] = (
            place["hoplites"].get(side, 0)
            + sum(c["strength"] for c in played)
            + bonus * place["fortified"].get(side, 0)
        )
        casualties[side] = sum(c["casualties"] for c in played)
    attacker, defender = battle["attacker"], battle["defender"]
    winner = attacker if strength[attacker] > strength[defender] else defender
    loser = _other(battle, winner)
    casualties[loser] += 1
    killed = {side: _kill(place, side, casualties[side]) for side in casualties}
    for played in battle["cards"].values():  # the cards played go to the discard pile
        for cid in played:
            game["discard"][cid] = game["discard"].get(cid, 0) + 1
    battle["next"] = None
    battle["outcome"] = {
        "winner": winner,
        "loser": loser,
        "strength": strength,
        "killed": killed,
        "retreat": None,
    }
    if not place["hoplites"].get(loser):
        _battle_over(game, battle)


@handlers.in_game("ArmyRetreated")
def army_retreated(state, game, data):
    player = data["player"]
    battle = game["battle"]
    if battle is None or battle["outcome"] is None:
        raise RuleViolation(_("an army retreats only after losing a battle"))
    if battle["outcome"]["loser"] != player:
        raise RuleViolation(
            _(
                "the loser retreats: %(loser)s, not %(player)s",
                loser=name(state, battle["outcome"]["loser"]),
                player=name(state, player),
            )
        )
    legal = legal_retreats(state, game, battle)
    to = data["to"]
    where = region_name(state, battle["region"])
    if to is None and legal:
        raise RuleViolation(
            _(
                "the loser retreats when it can (%(player)s may retreat from %(region)s to "
                "%(regions)s)",
                player=name(state, player),
                region=where,
                regions=listed(region_name(state, r) for r in legal),
            )
        )
    if to is not None and to not in legal:
        region(state, to)
        raise RuleViolation(
            _(
                "the loser retreats to an adjacent region free of other players (%(player)s "
                "cannot go from %(region)s to %(destination)s)",
                player=name(state, player),
                region=where,
                destination=region_name(state, to),
            )
        )
    place = game["regions"][battle["region"]]
    count = place["hoplites"].get(player, 0)
    _kill(place, player, count)
    if to is not None:
        _arrive(game, player, to, count)
        battle["outcome"]["retreat"] = to
    else:
        battle["outcome"]["killed"][player] += count
    _battle_over(game, battle)


def _battle_over(game, battle):
    rid = battle["region"]
    winner = battle["outcome"]["winner"]
    place = game["regions"][rid]
    if place["hoplites"].get(winner):
        place["controller"] = winner
    game["contested"].remove(rid)
    game["battles"].append(battle)
    game["battle"] = None
