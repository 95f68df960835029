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
