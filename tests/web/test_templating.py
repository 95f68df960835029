"""The pages' template environment reads every attribute as Jinja's own does."""

from collections import OrderedDict, defaultdict

import pytest
from jinja2 import Environment, Undefined

from tracker.web.templating import TrackerEnvironment


class Thing:
    name = "a thing"

    def __getitem__(self, key):
        return f"item {key}"


OBJECTS = [
    {"name": "Iron Jaws", "glory": 3, "items": "a key named like a method", "get": 1},
    {"name": None},
    {},
    OrderedDict(name="ordered"),
    defaultdict(int, name="defaulted"),
    Thing(),
    "text",
    [1, 2],
    None,
]
ATTRIBUTES = ["name", "glory", "items", "get", "keys", "missing", "__class__", "upper"]


def looked_up(environment, obj, attribute):
    found = environment.getattr(obj, attribute)
    if isinstance(found, Undefined):
        return ("undefined", attribute)
    return found


@pytest.mark.parametrize("obj", OBJECTS, ids=repr)
def test_an_attribute_of_any_object_is_what_jinja_finds(app, obj):
    ours = app.jinja_env
    assert isinstance(ours, TrackerEnvironment)
    theirs = Environment()
    for attribute in ATTRIBUTES:
        assert looked_up(ours, obj, attribute) == looked_up(theirs, obj, attribute), attribute


def test_a_template_reads_a_dicts_keys_and_methods_as_jinja_does(app):
    source = (
        "{{ wb.name }} {{ wb.glory + 1 }} {{ wb.items is callable }} {{ wb.missing is defined }} "
        "{% for k, v in wbs.items() %}{{ k }}={{ v.name }};{% endfor %}"
    )
    data = {
        "wb": {"name": "<Crow>", "glory": 2, "items": "x"},
        "wbs": {"items": {"name": "a"}, "b": {"name": "b"}},
    }
    theirs = Environment(autoescape=True).from_string(source).render(data)
    assert app.jinja_env.from_string(source).render(data) == theirs
    assert theirs == "&lt;Crow&gt; 3 True False items=a;b=b;"
