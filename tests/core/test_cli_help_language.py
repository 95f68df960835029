"""The command line's help (of the group, of each command, of each option) read in the
language of its environment, as every other word it prints."""

import os
import subprocess
import sys

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from tracker import config
from tracker.systems import i18n

GROUP = "Run the tracker: its database, its samples and its web server."
IMPORT = (
    "Import campaigns from a JSON Lines file: every event checked by its rules, all or nothing."
)
DB = (
    "The SQLite database file, or a postgresql:// URL "
    "(default: $TRACKER_DB or instance/tracker.db)."
)

# The command line made with its catalogues read from the folder named by its first argument.
OVER_CATALOGUES = (
    "import sys; from pathlib import Path; from tracker.systems import i18n; "
    "i18n.CATALOGUES = Path(sys.argv.pop(1)); from tracker.cli import main; main()"
)


def help_of(*args, language, catalogues=None):
    """What `tracker ARGS --help` prints, its lines rejoined (click wraps them)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("TRACKER_LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
    }
    env["TRACKER_LANGUAGE"] = language
    if catalogues is None:
        command = [sys.executable, "-m", "tracker"]
    else:
        command = [sys.executable, "-c", OVER_CATALOGUES, str(catalogues)]
    result = subprocess.run(
        [*command, *args, "--help"],
        capture_output=True,
        text=True,
        env=env,
        cwd=config.ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return " ".join(result.stdout.split())


def polish(msgid):
    return " ".join(i18n.catalogue("pl").gettext(msgid).split())


def test_the_help_reads_in_english_where_english_is_asked():
    assert GROUP in help_of(language="en")
    shown = help_of("import", language="en")
    assert IMPORT in shown and DB in shown


def test_the_help_is_read_through_the_catalogue_of_the_environment_s_language(tmp_path):
    folder = tmp_path / "pl" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    made = Catalog(locale="pl")
    made.add(IMPORT, "Importuje kampanie z pliku JSON Lines.")
    made.add(DB, "Plik bazy danych.")
    with open(folder / "messages.mo", "wb") as handle:
        write_mo(handle, made)
    shown = help_of("import", language="pl", catalogues=tmp_path)
    assert "Importuje kampanie z pliku JSON Lines." in shown and IMPORT not in shown
    assert "Plik bazy danych." in shown and DB not in shown
    assert IMPORT in help_of("import", language="en", catalogues=tmp_path)


@pytest.mark.catalogued
def test_tracker_help_read_in_polish_says_what_the_tracker_and_its_import_do_in_polish():
    assert polish(GROUP) != GROUP and polish(IMPORT) != IMPORT and polish(DB) != DB
    shown = help_of(language="pl")
    assert polish(GROUP) in shown and GROUP not in shown
    shown = help_of("import", language="pl")
    assert polish(IMPORT) in shown and IMPORT not in shown
    assert polish(DB) in shown and DB not in shown


def test_click_s_own_words_in_the_help_read_in_english_where_english_is_asked():
    shown = help_of("import", language="en")
    assert "Usage:" in shown and "Options:" in shown and "Show this message and exit." in shown


@pytest.mark.catalogued
def test_click_s_own_words_in_the_help_read_in_polish_where_polish_is_asked():
    assert polish("Usage:") != "Usage:" and polish("Options") != "Options"
    shown = help_of("import", language="pl")
    assert polish("Usage:") in shown and "Usage:" not in shown
    assert f"{polish('Options')}:" in shown and "Options:" not in shown
    assert polish("Show this message and exit.") in shown
