"""Parts of pages (tracker/web/parts.py): drawn from their inputs alone, kept by them, the same
HTML kept or not."""

import re

import pytest
from jinja2 import DictLoader

from tracker.web import create_app
from tracker.web.parts import PartError, Parts


@pytest.fixture
def parts(app):
    env = app.jinja_env.overlay(
        loader=DictLoader(
            {
                "greeting.html": "<p>{{ who }} has {{ glory }} glory</p>",
                "row.html": "<li>{{ row.who }} {{ row.glory }}</li>",
                "nosy.html": "<p>{{ who }} at {{ request.path }}</p>",
                "helper.html": "<a href=\"{{ url_for('campaign.front_page') }}\">{{ who }}</a>",
            }
        )
    )
    return Parts(env)


def test_a_part_is_drawn_from_its_inputs_escaped(parts):
    assert parts("greeting.html", who="<Crow>", glory=3) == ("<p>&lt;Crow&gt; has 3 glory</p>")


def test_a_part_is_kept_by_its_inputs_and_drawn_again_for_others(parts):
    first = parts("greeting.html", who="Crow", glory=3)
    assert parts("greeting.html", who="Crow", glory=3) is first  # kept, not drawn again
    assert parts("greeting.html", who="Crow", glory=4) == "<p>Crow has 4 glory</p>"
    assert parts("greeting.html", who="Jaw", glory=3) == "<p>Jaw has 3 glory</p>"


@pytest.mark.parametrize("name, missing", [("nosy.html", "request"), ("helper.html", "url_for")])
def test_a_part_that_reads_what_it_is_not_given_is_refused(parts, name, missing):
    with pytest.raises(PartError, match=missing):
        parts(name, who="Crow")


def test_each_draws_the_part_for_every_item_of_its_sequence(parts):
    rows = [{"who": "Crow", "glory": 3}, {"who": "<Jaw>", "glory": 0}]
    drawn = parts.each("row.html", row=rows)
    assert drawn == "<li>Crow 3</li>\n<li>&lt;Jaw&gt; 0</li>"
    assert parts.each("row.html", row=[]) == ""


def test_a_part_missing_an_input_is_refused(parts):
    with pytest.raises(PartError, match="glory"):
        parts("greeting.html", who="Crow")


def _pages(client, cid):
    """The pages that draw parts, without what each page or session's forms carry of its own
    (their one-off key, the session's CSRF token)."""
    pages = []
    for path in (f"/c/{cid}/", f"/c/{cid}/audit", f"/c/{cid}/audit?upto=3"):
        page = client.get(path).get_data(as_text=True)
        pages.append(re.sub(r'name="(idem|csrf_token)" value="[^"]*"', "", page))
    return pages


def test_the_pages_are_the_same_with_no_part_kept(client, svc, two):
    """The map and the audit log's rows, kept or drawn every time, are the same HTML."""
    void = {"type": "EventVoided", "data": {"version": 3, "reason": "typo"}}
    svc.append(two, [void], svc.state(two).version)
    kept = _pages(client, two)
    assert _pages(client, two) == kept
    app = client.application
    fresh = create_app({**app.config, "TEMPLATE_PARTS_KEPT": 0})
    other = fresh.test_client()
    other.post("/login", data={"name": "org", "password": "organiser-password"})
    drawn = _pages(other, two)
    assert drawn == kept
    assert "voided by" in kept[1] and "voids <a" in kept[1] and "map of" in kept[0]
