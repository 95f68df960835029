"""The catalogues are whole: every text the code and templates mark is in each language's
catalogue, translated (every plural form), not fuzzy, with the same placeholders, and the
compiled catalogue shipped beside it says the same."""

import gettext
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po

from tracker import config
from tracker.systems import i18n

LANGUAGES = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]


@pytest.fixture(scope="module")
def marked(tmp_path_factory):
    """The msgids the sources mark now, as `pybabel extract` finds them (README)."""
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "-F",
            "babel.cfg",
            "-k",
            "N_",
            "-o",
            str(pot),
            ".",
        ],
        cwd=config.ROOT,
        check=True,
        capture_output=True,
    )
    with pot.open("rb") as f:
        return {m.id for m in read_po(f) if m.id}


def catalogue(code):
    with (i18n.CATALOGUES / code / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=code)


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_marked_text_is_in_the_catalogue_and_translated(marked, code):
    cat = catalogue(code)
    held = {m.id: m for m in cat if m.id}
    missing = sorted(str(k) for k in marked if k not in held)
    assert not missing, f"not in the {code} catalogue (pybabel update): {missing[:20]}"
    untranslated = sorted(
        str(m.id)
        for m in held.values()
        if not m.string or (isinstance(m.string, tuple) and not all(m.string))
    )
    assert not untranslated, f"untranslated in {code}: {untranslated[:20]}"
    fuzzy = sorted(str(m.id) for m in held.values() if m.fuzzy)
    assert not fuzzy, f"fuzzy in {code}: {fuzzy[:20]}"
    problems = [(str(m.id), [str(e) for e in errors]) for m, errors in cat.check()]
    assert not problems, problems[:10]


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_compiled_catalogue_says_what_the_catalogue_says(code):
    compiled = gettext.GNUTranslations(
        (i18n.CATALOGUES / code / "LC_MESSAGES" / "messages.mo").open("rb")
    )
    for message in catalogue(code):
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            for n in (1, 2, 5, 22):
                got = compiled.ngettext(message.id[0], message.id[1], n)
                assert got in message.string, (code, message.id, n)
        else:
            assert compiled.gettext(message.id) == message.string, (code, message.id)
