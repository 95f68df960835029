"""What the table pages ask of a campaign's entries beyond one form: a member's own latest
entry (which it may undo), an entry typed and refused that a later form carries on until it
is mended or dropped on purpose, the defaults of a form's selects that the rules accept, and
what dice typed at the table would lose for good (asked before they are recorded)."""

from __future__ import annotations

from werkzeug.datastructures import MultiDict

from tracker.permissions import own_entry
from tracker.systems.i18n import _, listed
from tracker.web.context import service
from tracker.web.failures import Failure

# How far back in the log a member's own latest entry is looked for.
UNDO_REACH = 200
# The fields of a form that say how it was sent, not what was typed.
_HOW = {
    "csrf_token",
    "type",
    "form_id",
    "expected_version",
    "idem",
    "next",
    "dice-mode",
    "confirmed",
    "back",
}
# What a form's "Record it" sends once its player has read what the entry will lose for good.
CONFIRMED = "yes"


def latest_own(cid: str, member):
    """The member's own latest entry that it may undo (an audit log `Entry`), or None."""
    if member is None:
        return None
    svc = service()
    view = svc.state(cid)
    for entry in svc.recent(cid, UNDO_REACH, view.version):
        if entry.voided_by is None and own_entry(member, view.system, view.state, entry.event):
            return entry
    return None


# -- an entry typed and refused is not left behind unseen ---------------------------------


def kept_entry(form) -> tuple[Failure, MultiDict] | None:
    """When a form (such as "Continue") carries an entry that was typed and refused on the
    same page (``kept-form`` and its ``kept-<field>`` values), and the player did not choose
    to drop it (``drop-kept``): the refusal to show beside that entry again, and its values
    as typed. Otherwise None: the form goes on."""
    kept_form = form.get("kept-form")
    if not kept_form or form.get("drop-kept"):
        return None
    values = MultiDict(
        (key[5:], value)
        for key, values in form.lists()
        if key.startswith("kept-") and key != "kept-form"
        for value in values
    )
    failure = Failure(
        kept_form,
        message=_(
            "What you typed here was refused and is not recorded: mend it and send it again, "
            "or go on without it (Continue without it)."
        ),
    )
    return failure, values


def kept_fields(failure, submitted) -> list[tuple[str, str]]:
    """What a page carries on in its "Continue" form of an entry typed and refused there:
    (name, value) pairs of hidden fields. Empty when nothing was refused."""
    if not failure or submitted is None or failure["form"] in ("complete", "undo"):
        return []
    pairs = [("kept-form", failure["form"])]
    for key, values in submitted.lists():
        if key not in _HOW and not key.startswith(("kept-", "drop-")):
            pairs += [(f"kept-{key}", value) for value in values]
    return pairs


# -- defaults that are legal choices ------------------------------------------------------


def legal(system, state, event_type: str, data: dict, choices: dict) -> dict:
    """The first choice, for each select of a form (`choices`: field -> its options in the
    order shown), that the rules accept together with `data`, asked of the rules themselves
    (`system.allows`); {} when they accept none (the page then keeps the first options)."""
    names = list(choices)

    def combos(i: int, chosen: dict):
        if i == len(names):
            yield chosen
            return
        for value in choices[names[i]]:
            yield from combos(i + 1, {**chosen, names[i]: value})

    for chosen in combos(0, {}):
        if system.allows(state, event_type, {**data, **chosen}) is None:
            return chosen
    return {}


def offered(system, state, event_type: str, data: dict, field: str, options) -> dict:
    """The options of one field of a form split by the rules (`system.allows`, each tried
    with `data`): ``{"open": [...], "refused": {option: why}}``. A page offers the open ones
    and may say why the others are not on offer; it never restates the rule."""
    found: dict = {"open": [], "refused": {}}
    for option in options:
        why = system.allows(state, event_type, {**data, field: option})
        if why is None:
            found["open"].append(option)
        else:
            found["refused"][option] = why
    return found


def free_ids(system, state, event_type: str, schema, data: dict) -> dict:
    """`data` with each id field that a form left empty and that the system makes itself
    (``next_free`` metadata: a battle's id) filled in with the next free one, as the
    system's views say (`views.next_free(state, event_type, field)`)."""
    next_free = getattr(system.views, "next_free", None)
    if next_free is None or schema is None:
        return data
    for name, field in schema.fields.items():
        if field.metadata.get("next_free") and data.get(name) in (None, ""):
            made = next_free(state, event_type, name)
            if made:
                data = {**data, name: made}
    return data


# -- dice typed at the table that lose something for good are recorded only when confirmed --


def to_confirm(cid: str, system, form, submissions: list[dict]) -> str | None:
    """What the submitted entries would lose for good (a fighter slain, a figure off the
    board), in the audit log's words, when their dice were typed at the table and the player
    has not yet confirmed them; else None (the entries go on to be recorded).

    The rules decide (`GameSystem.final_outcome` applies each entry to a copy of the latest
    state); dice the server rolls are not known beforehand, so they are never asked about:
    the page after the roll says what happened."""
    if form.get("dice-mode") == "server" or form.get("confirmed") == CONFIRMED:
        return None
    typed = [
        s for s in submissions if any(name in s["data"] for name in system.drawn_fields(s["type"]))
    ]
    if not typed:
        return None
    view = service().state(cid)
    words = [
        said
        for i, s in enumerate(typed)
        if (said := system.final_outcome(view.state, s["type"], s["data"], view.latest + 1 + i))
    ]
    return listed(words, "; ") or None


def confirm_fields(form) -> list[tuple[str, str]]:
    """The hidden fields by which a confirmation page sends a form again exactly as it came
    (its one-time key included, so it is recorded once however often it is sent)."""
    return [
        (key, value)
        for key, values in form.lists()
        if key not in ("dice-mode", "confirmed", "back")
        for value in values
    ]
