"""What a player may see of a game (`visible_state`) and what the pages offer it now.

Pure functions over the folded state. The choices only narrow the options of a form (the
regions a hero can reach, the monsters it can hunt...), asking the rules where a rule
decides; the fold still checks every event it is sent. Hellas' templates call these as
``system.views.choices(...)``.
"""

from __future__ import annotations

import copy
import json

from tracker.errors import NotFound, RuleViolation
from tracker.systems.base import free_id, next_step
from tracker.systems.i18n import N_, _, localised, ngettext

from . import rules
from .effects import grant_thing, grant_words
from .quests import may_undertake
from .rules import (
    attribute,
    check_usurp,
    condition,
    free_tokens,
    hoplites_on_board,
    lands_controlled,
    legal_retreats,
    listed,
    priests_owned,
    special,
    temples_controlled,
)
from .words import attack_words, step_words

#: what the templates show of the rules' words: a pack's text in the reader's language
#: (`localised(entry, "name")`), a victory condition, a special action, an attribute
__all__ = ["localised", "condition", "special", "attribute", "grant_words", "next_free"]

#: the events that hold drawn combat cards, and the field that holds them
HIDDEN_CARDS = {"GameStarted": "hands", "HuntBegan": "cards", "CombatCardsDrawn": "cards"}
#: event fields that name regions, for the regions an event touched
_REGION_FIELDS = ("region", "to")
_MOVE_FIELDS = ("moves", "placed", "appeared", "moved")


def public_view(state: dict) -> dict:
    """The state as anyone may see it: every piece on the board, and of the combat cards
    only the discard pile and how many cards each hand and the deck hold."""
    public = {k: v for k, v in state.items() if k != "neighbours"}
    game = state["game"]
    if game:
        shown = {k: v for k, v in game.items() if k not in ("hands", "deck")}
        shown["hand_counts"] = {p: len(cards) for p, cards in game["hands"].items()}
        shown["deck_count"] = sum(game["deck"].values())
        public["game"] = shown
        public["progress"] = {p: rules.progress(state, p) for p in game["order"]}
        public["waiting"] = rules.waiting_for(state)
    return public


def visible_state(state: dict, side: str | None) -> dict:
    """What one player sees: the public state, its own hand and its own choices."""
    public = copy.deepcopy(public_view(state))
    game = state["game"]
    if side is not None and game:
        public["open_actions"] = rules.open_actions(state, side)
        if side in game["hands"]:
            public["hand"] = list(game["hands"][side])
    return public


def visible_event_data(state, event_type, data, version, viewer):
    """Cards drawn in a game under way show only to the player who drew them."""
    field = HIDDEN_CARDS.get(event_type)
    game = state.get("game") if state else None
    if not field or not isinstance(data.get(field), dict | list) or not game:
        return data
    if game["over"] or version < game["started_at"]:
        return data
    drawn = data[field]
    if event_type == "GameStarted":
        hands = {p: (cards if p == viewer else _hidden(len(cards))) for p, cards in drawn.items()}
        return {**data, field: hands}
    if data.get("player") == viewer:
        return data
    return {**data, field: _hidden(len(drawn))}


def _hidden(n: int):
    # Only how many: the cards themselves stay with the player who drew them.
    return ngettext("%(num)d cards, hidden", "%(num)d cards, hidden", n)


def _by_name(state: dict, regions) -> list[str]:
    content = state["content"]["regions"]
    return sorted(set(regions), key=lambda rid: content[rid]["name"])


def hero_steps(state: dict, player: str) -> list[list[str]]:
    """For each step of a hero's move (up to its Speed), the regions it could stand in."""
    game = state["game"]
    hero = game["heroes"][player]
    here = {hero["region"]}
    steps = []
    for _step in range(hero["speed"]):
        here = {n for rid in here for n in state["neighbours"][rid]}
        steps.append(_by_name(state, here))
    return steps


def usurp_target(state: dict, player: str) -> str | None:
    """The region the hero may usurp now (the one it stands in, if the rules allow), or None."""
    game = state["game"]
    rid = game["heroes"][player]["region"]
    try:
        check_usurp(state, game, player, rid)
    except RuleViolation:
        return None
    return rid


def player_board(state: dict, player: str) -> dict:
    """A player's board in the game: the counts a page shows, each against its limit."""
    game = state["game"]
    limits = state["content"]["limits"]
    pool = game["priests"][player]
    quest = game["heroes"][player]["quest"]
    return {
        "hoplites": hoplites_on_board(game, player),
        "hoplites_limit": limits["hoplites"],
        "fortified": sum(r["fortified"].get(player, 0) for r in game["regions"].values()),
        "priests_pool": pool,
        "priests_on_monuments": priests_owned(game, player) - pool,
        "priests_limit": limits["priests"],
        "tokens_used": list(game["tokens"][player]),
        "tokens_free": free_tokens(state, game, player),
        "tokens_limit": limits["used_action_tokens"],
        "regions": _by_name(
            state, (rid for rid, r in game["regions"].items() if r["controller"] == player)
        ),
        "temples": temples_controlled(game, player),
        "lands": lands_controlled(state, player),
        "artifacts": [
            {"id": aid, "charged": held["charged"]}
            for aid, held in sorted(game["artifacts"].items())
            if held["owner"] == player
        ],
        "slain": list(game["slain"][player]),
        "cards": len(game["hands"][player]),
        "cards_limit": limits["hand"],
        "quest": {"id": quest, "step": game["quests"][quest]["step"]} if quest else None,
        "quests_done": list(game["quests_done"][player]),
        "grants": [g for g in game["grants"] if g["player"] == player],
    }


def choices(state: dict, player: str) -> dict:
    """Every option the forms of the game page may offer `player` now."""
    game = state["game"]
    content = state["content"]
    regions = game["regions"]
    origins = {
        rid: r["hoplites"][player] for rid, r in regions.items() if r["hoplites"].get(player)
    }
    hero_region = game["heroes"][player]["region"]
    hunt = game["hunt"]
    battle = game["battle"]
    levels = content["limits"]["monument_levels"]
    found = {
        "hero_steps": hero_steps(state, player),
        "origins": _by_name(state, origins),
        "origin_counts": origins,
        "destinations": _by_name(state, (n for rid in origins for n in state["neighbours"][rid])),
        "controlled": _by_name(
            state, (rid for rid, r in regions.items() if r["controller"] == player)
        ),
        "hoplites_left": content["limits"]["hoplites"]
        - sum(r["hoplites"].get(player, 0) for r in regions.values()),
        "priests_pool": game["priests"][player],
        "priests_room": content["limits"]["priests"] - priests_owned(game, player),
        "usurp": usurp_target(state, player),
        "hunt": sorted(m for m, rid in game["monsters"].items() if rid == hero_region),
        "monuments": sorted(game["monuments"]),
        "monuments_to_build": sorted(
            m for m, v in game["monuments"].items() if v["level"] < levels
        ),
        "charged": sorted(
            a
            for a, held in game["artifacts"].items()
            if held["owner"] == player and held["charged"]
        ),
        "free_artifacts": sorted(a for a, held in game["artifacts"].items() if not held["owner"]),
        "battles": [rid for rid in game["contested"] if player in regions[rid]["hoplites"]],
        "wounds": [],
        "rewards": [],
        "retreats": [],
        "may_stay": False,
        "event_cards": sorted(c for c in content["event_cards"] if c not in game["events_drawn"]),
    }
    found.update(_quest_choices(state, player))
    if hunt and hunt["player"] == player:
        wounds = content["monsters"][hunt["monster"]]["wounds"]
        found["wounds"] = [w for w in wounds if w["id"] not in hunt["wounds"]]
        if hunt["status"] == "failed" and not hunt["claimed"]:
            found["rewards"] = [w for w in wounds if w["id"] in hunt["wounds"] and w["reward"]]
    if battle and battle["outcome"] and battle["outcome"]["loser"] == player:
        found["retreats"] = _by_name(state, legal_retreats(state, game, battle))
    return found


def _reward_words(state: dict, item: dict):
    if "priests" in item:
        n = item["priests"]
        return ngettext("%(num)d priest(s)", "%(num)d priest(s)", n)
    return grant_thing(state, {**item, "kind": item["grant"]})


def _quest_choices(state: dict, player: str) -> dict:
    """The quests a player's hero may undertake now, and the quest it is on."""
    game = state["game"]
    quests = state["content"].get("quests", {})
    hero_quest = game["heroes"][player]["quest"]
    return {
        "quests_open": [q for q in sorted(quests) if may_undertake(state, game, player, q) is None],
        "quest": {"id": hero_quest, "step": game["quests"][hero_quest]["step"]}
        if hero_quest
        else None,
        "quest_rewards": {
            q: listed(_reward_words(state, item) for item in quest["rewards"])
            for q, quest in quests.items()
        },
    }


def touched(state: dict, event_type: str, data: dict) -> list[str]:
    """The regions an event of the game acted on, to highlight the last action on the map."""
    game = state.get("game") or {}
    found: list[str] = []
    if event_type == "HeroMoved":
        path = (game.get("turn") or {}).get("hero_path")
        found += path or data.get("path", [])
    for key in _REGION_FIELDS:
        if isinstance(data.get(key), str):
            found.append(data[key])
    for key in _MOVE_FIELDS:
        for entry in data.get(key) or ():
            found += [entry[k] for k in ("origin", "destination", "region") if entry.get(k)]
    if event_type in ("HuntBegan", "HeroAttacked", "MonsterAttacked", "HuntRewardClaimed"):
        hunt = game.get("hunt")
        if hunt:
            found.append(hunt["region"])
    if event_type in ("CombatCardPlayed", "BattlePassed", "ArmyRetreated") and (
        game.get("battle") or game.get("battles")
    ):
        battle = game.get("battle") or game["battles"][-1]
        found.append(battle["region"])
    if event_type in ("MonumentBuilt", "PriestsSent") and data.get("monument") in game.get(
        "monuments", {}
    ):
        found.append(game["monuments"][data["monument"]]["region"])
    turn = game.get("turn") or {}
    if event_type in ("MonsterPhaseResolved", "EventResolved") and turn.get("monster_news"):
        found.append(turn["monster_news"]["region"])
    if event_type in ("QuestUndertaken", "QuestAdvanced") and data.get("player") in game.get(
        "heroes", {}
    ):
        found.append(game["heroes"][data["player"]]["region"])
    if event_type == "GameStarted":
        found += list(data.get("heroes", {}).values())
    regions = state["content"]["regions"]
    return [rid for rid in dict.fromkeys(found) if rid in regions]


def player_shown(state: dict, player: str) -> str:
    """The name of the player a page is asked for (`?player=`); NotFound when there is none."""
    name = state["names"].get(player)
    if not name:
        raise NotFound(_("this campaign has no player %(player)s", player=json.dumps(player)))
    return name


def replay(entries: list, game: str, asked: str) -> dict:
    """The replay of `game` from the campaign's log entries, in order: the games begun
    (their `GameStarted` entries), the steps of this one (every event from its start to the
    next game's, the voided ones and the voidings left out) and the step `asked` for
    (`?step=`, from 1). NotFound when there is no such game or step."""
    starts = [e for e in entries if e.event.type == "GameStarted" and not e.voided_by]
    begin = next((e for e in starts if e.event.data.get("game") == game), None)
    if begin is None:
        raise NotFound(_("this campaign has no game %(game)s", game=json.dumps(game)))
    steps, within = [], False
    for entry in entries:
        if entry.voided_by:
            continue
        if entry.event.type == "GameStarted":
            within = entry.event.version == begin.event.version
        if within and entry.event.type not in ("EventVoided", "CampaignStarted"):
            steps.append(entry)
    n = int(asked) if asked.isdecimal() else 0
    if not 1 <= n <= len(steps):
        raise NotFound(
            _(
                "game %(game)s has steps 1 to %(last)s, not %(asked)s",
                game=game,
                last=len(steps),
                asked=json.dumps(asked),
            )
        )
    return {"starts": starts, "steps": steps, "n": n, "entry": steps[n - 1]}


#: the actions of a turn as the status line names them, in lower case
_ACTION_KEYS = {
    "artifacts": N_("artifacts"),
    "hero": N_("hero"),
    "hoplites": N_("hoplites"),
    "priests": N_("priests"),
    "recruit": N_("recruit"),
    "march": N_("march"),
    "usurp": N_("usurp"),
    "prayer": N_("prayer"),
    "hunt": N_("hunt"),
    "build_monument": N_("build monument"),
}
#: what a player did this turn, said after "Taken this turn:"
_NORMAL_DONE = {
    "artifacts": N_("used artifacts"),
    "hero": N_("moved the hero"),
    "hoplites": N_("moved hoplites"),
    "priests": N_("sent priests"),
}


def action_key(kind: str):
    """An action of a turn named in lower case ("build monument"), as a message."""
    return _(_ACTION_KEYS[kind]) if kind in _ACTION_KEYS else kind


def actions(kinds) -> str:
    """Actions of a turn named in lower case and listed."""
    return listed(action_key(k) for k in kinds)


def done(kinds) -> str:
    """The normal actions taken this turn, as a player says them."""
    return listed(_(_NORMAL_DONE[k]) if k in _NORMAL_DONE else k for k in kinds)


#: what a wound gives after a failed hunt, as the hunt's form names it
_REWARD_WORDS = {"artifact": N_("artifact"), "priest": N_("priest")}


def reward(kind: str):
    """A wound's reward (artifact, priest) named as a message."""
    return _(_REWARD_WORDS[kind]) if kind in _REWARD_WORDS else kind


def quest_step(state: dict, quest: str, index: int):
    """A quest's step (from 0) in the reader's language, where the pack has it."""
    return step_words(state["content"]["quests"][quest], index)


def attack_name(state: dict, monster: str, attack: dict):
    """A monster's attack rolled in a hunt, named in the reader's language."""
    return attack_words(state["content"]["monsters"].get(monster), attack)


def english(words) -> str:
    """The English of a message: what a form sends back to be kept in the log, whatever the
    language of the page that sent it."""
    return str(words)


def next_steps(state: dict, seat: str | None, role: str | None) -> list[dict]:
    """What the campaign waits for now (`base.next_step`): a game to begin, what was
    granted and is still to be taken, then the player who acts (in a battle, its next or
    retreating player) and what the rules wait for (`rules.waiting_for`)."""
    game = state["game"]
    if game is None or game["over"]:
        waits = _("The campaign waits for its next game.")
        return [next_step(None, _("Begin the next game"), waits, "play")]
    steps = [
        next_step(
            grant["player"],
            _("Take what is granted: %(grant)s", grant=grant_words(state, grant)),
            _(
                "Waiting for %(player)s to take %(grant)s.",
                player=rules.name(state, grant["player"]),
                grant=grant_words(state, grant),
            ),
            "play",
        )
        for grant in game["grants"]
    ]
    battle = game["battle"]
    actor = game["turn"]["player"]
    if battle:
        actor = battle["outcome"]["loser"] if battle["outcome"] else battle["next"]
    waiting = rules.waiting_for(state)
    if waiting:
        do, waits = _("Next: %(what)s", what=waiting), _("Waiting for %(what)s.", what=waiting)
    else:
        do = _("Your turn: take your actions")
        waits = _("Waiting for %(player)s to play.", player=rules.name(state, actor))
    return steps + [next_step(actor, do, waits, "play")]


def next_free(state: dict, event_type: str, field: str) -> str | None:
    """The id a form left empty is given (a game's: game-1, game-2, ... the first that no game
    of the campaign has had), or None when the system makes none for that field."""
    if (event_type, field) != ("GameStarted", "game"):
        return None
    under_way = [state["game"]["id"]] if state.get("game") else []
    return free_id("game-", [g["id"] for g in state["games"]] + under_way)
