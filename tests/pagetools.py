"""Helpers for the tests of pages: forms as a browser sends them, pages as text."""

import html
import re


def version(svc, campaign="c"):
    return svc.store.version(campaign)


def form(type_, expected, **fields):
    data = {"type": type_, "expected_version": str(expected), **fields}
    return data


def text(response) -> str:
    """The page's text without tags, whitespace squeezed."""
    body = response.get_data(as_text=True)
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", body, flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))


def start_form(client, system, name, players, **settings):
    """Post the start form of a campaign of `system`: `players` as (id, name) pairs, each
    setting as the form's ``settings-<key>`` box."""
    data = {"system": system, "name": name}
    for i, (pid, pname) in enumerate(players):
        data[f"settings-players-{i}-id"] = pid
        data[f"settings-players-{i}-name"] = pname
    data.update({f"settings-{key}": value for key, value in settings.items()})
    return client.post("/campaigns", data=data)


def post_form(client, url, svc, type_, campaign="c", **fields):
    """Send a page's form for an event of `type_`, at the campaign's version as it is now."""
    return client.post(url, data=form(type_, version(svc, campaign), **fields))


def member(app, campaign, name, side=None, role="player"):
    """A client logged in as a new account `name`, a member of `campaign` holding `side`."""
    from tracker.accounts import Accounts
    from tracker.store import open_store

    store = open_store(app.config["DATABASE"])
    accounts = Accounts(store)
    accounts.add_member(campaign, accounts.sign_up(name, "a long password!"), role, side)
    store.close()
    client = app.test_client()
    assert (
        client.post("/login", data={"name": name, "password": "a long password!"}).status_code
        == 302
    )
    return client


def unseat(app, campaign, name):
    """The member `name` of `campaign` plays no side any more (its seat is free)."""
    from tracker.accounts import Accounts
    from tracker.store import open_store

    store = open_store(app.config["DATABASE"])
    accounts = Accounts(store)
    accounts.set_side(campaign, accounts.by_name(name), None)
    store.close()


def event_forms(response) -> list[dict]:
    """Every form of the page that posts an event: its fields as a browser would send them
    untouched (hidden and text boxes by value, a select by its selected or first option,
    checkboxes and radios ticked by default), a list for a name given more than once."""
    body = response.get_data(as_text=True) if hasattr(response, "get_data") else response
    forms = []
    for attrs, inner in re.findall(r"<form\b([^>]*)>(.*?)</form>", body, re.S):
        if 'method="post"' not in attrs or 'name="type"' not in inner:
            continue
        fields: dict = {}
        blank = [
            tag
            for tag in re.findall(r"<(?:input|textarea)\b[^>]*>", inner)
            if re.search(r"\srequired\b", tag) and not re.search(r'value="[^"]+"', tag)
        ]

        def add(name, value, fields=fields):
            fields.setdefault(name, []).append(html.unescape(value))

        for tag in re.findall(r"<input\b[^>]*>", inner):
            name = re.search(r'name="([^"]*)"', tag)
            if not name:
                continue
            kind = re.search(r'type="([^"]*)"', tag)
            kind = kind.group(1) if kind else "text"
            value = re.search(r'value="([^"]*)"', tag)
            value = value.group(1) if value else ("on" if kind in ("checkbox", "radio") else "")
            if kind in ("checkbox", "radio") and not re.search(r"\schecked\b", tag):
                continue
            add(name.group(1), value)
        for name, options in re.findall(
            r'<select\b[^>]*name="([^"]*)"[^>]*>(.*?)</select>', inner, re.S
        ):
            found = re.findall(r'<option value="([^"]*)"([^>]*)>', options)
            chosen = [v for v, rest in found if re.search(r"\sselected\b", rest)] or [
                v for v, _ in found[:1]
            ]
            for value in chosen[:1]:
                add(name, value)
        for name, value in re.findall(
            r'<textarea\b[^>]*name="([^"]*)"[^>]*>(.*?)</textarea>', inner, re.S
        ):
            add(name, value)
        buttons = [
            (m.group(1), m.group(2))
            for tag in re.findall(r"<button\b[^>]*>", inner)
            if (m := re.search(r'name="([^"]*)"[^>]*value="([^"]*)"', tag))
            and not re.search(r"\sdisabled\b", tag)
        ]
        if ("dice-mode", "server") in buttons:
            add("dice-mode", "server")  # "Roll for me": the dice left blank
        elif buttons:
            add(*buttons[0])  # the first of a form's named buttons that may be pressed
        pressable = [t for t in re.findall(r"<button\b[^>]*>", inner) if " disabled" not in t]
        blank = blank or not pressable  # a form whose buttons are all off is not sent
        found = {k: v if len(v) > 1 else v[0] for k, v in fields.items()}
        action = re.search(r'action="([^"]*)"', attrs)
        forms.append({**found, "_action": action and action.group(1), "_blank": bool(blank)})
    return forms


def posts(response) -> set[tuple[str, str]]:
    """(event type, player/side named) of every form of the page that posts an event."""
    out = set()
    for fields in event_forms(response):
        side = fields.get("player") or fields.get("piece") or ""
        out.add((fields["type"], side if isinstance(side, str) else side[0]))
    return out


def defaults_refused(client, svc, campaign, url) -> list[str]:
    """Each form of the page `url` that posts an event, sent as it stands (its defaults) at
    the campaign's latest version, the entry voided again after each: the forms the rules
    refused, with why. A form that a browser would not send untouched (a required box left
    blank, such as a reason to give) is not sent."""
    refused = []
    for fields in event_forms(client.get(url)):
        if fields.pop("_action") or fields.pop("_blank"):
            continue
        before = svc.store.version(campaign)
        fields["expected_version"] = str(before)
        page = client.post(url, data=fields)
        if page.status_code != 302:
            words = re.findall(
                r'class="(?:error|field-error)"[^>]*>([^<]*)<', page.get_data(as_text=True)
            )
            refused.append(f"{fields.get('form_id')}: {page.status_code} {' '.join(words)}")
            continue
        for v in range(svc.store.version(campaign), before, -1):
            svc.append(
                campaign,
                [{"type": "EventVoided", "data": {"version": v, "reason": "a test's try"}}],
                svc.store.version(campaign),
            )
    return refused


def strings_in(value) -> set[str]:
    """Every string in a JSON value (an event's data, a content pack): the names a page may
    show untranslated."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for v in value.values() for s in strings_in(v)}
    if isinstance(value, list):
        return {s for v in value for s in strings_in(v)}
    return set()
