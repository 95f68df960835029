"""What every command of the command line shares: the language it speaks (its environment's),
the --db option, opening the database it names (an SQLite file or a postgresql:// URL) with
its errors in one line, and failing with one line on stderr and a non-zero exit."""

from __future__ import annotations

import errno
import gettext
import io
import os
import sqlite3
import sys
from contextlib import contextmanager
from pathlib import Path

import click

from tracker import config
from tracker.errors import TrackerError
from tracker.service import Service
from tracker.store import ReadOnly, Store, describe, is_url, open_store
from tracker.systems import i18n
from tracker.systems.i18n import _


def language(environ=None) -> str:
    """The language the command line speaks: $TRACKER_LANGUAGE, else the locale's
    ($LC_ALL, $LC_MESSAGES, $LANG: "pl_PL.UTF-8" speaks Polish), else English."""
    environ = os.environ if environ is None else environ
    for name in ("TRACKER_LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if not value:
            continue
        code = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
        if code in i18n.LANGUAGES:
            return code
        if name == "TRACKER_LANGUAGE" or code not in ("c", "posix"):
            # A language chosen that the tracker does not speak reads English, not the next.
            return i18n.DEFAULT
    return i18n.DEFAULT


def click_speaks(code: str) -> None:
    """Click's own words ("Usage:", "Missing argument", tracker/clickwords.py) read from our
    catalogue in the language `code`: click looks them up with the standard library's
    `gettext`, in its global domain. English is click's own words: left as it is."""
    if code == i18n.DEFAULT:
        return
    gettext.bindtextdomain(i18n.DOMAIN, str(i18n.CATALOGUES))
    gettext.textdomain(i18n.DOMAIN)
    # The standard library's gettext takes its language from $LANGUAGE before the locale's
    # variables, at each lookup: set for this process (and what it runs), it is ours, even
    # where TRACKER_LANGUAGE chose a language other than the locale's.
    os.environ["LANGUAGE"] = code


# Click makes some of its words when a command is declared, at import (a path argument's
# "file"), as our help texts are: so it speaks the environment's language from the start.
click_speaks(language())


def helped(text) -> str:
    """A help text (a message) in the command line's language: click keeps the help of a
    command and of an option as a plain string when it is made, at import, so it is read
    once, in the language of the process's environment."""
    return i18n.translate(text, i18n.catalogue(language()))


db_option = click.option(
    "--db",
    "db",
    metavar="PATH|URL",
    default=None,
    help=helped(
        _(
            "The SQLite database file, or a postgresql:// URL "
            "(default: $TRACKER_DB or instance/tracker.db)."
        )
    ),
)


def speak(environ=None) -> str:
    """Every message the command line prints, click's own words too, read in its
    environment's language."""
    code = language(environ)
    i18n.read_by(lambda: i18n.catalogue(code))
    click_speaks(code)
    return code


def say(words, err: bool = False, nl: bool = True) -> None:
    """Print a message (or plain words) in the command line's language."""
    click.echo(i18n.translate(words, i18n.reader()), err=err, nl=nl)


def fail(message, code: int = 1):
    say(_("error: %(message)s", message=message), err=True)
    sys.exit(code)


def program() -> str:
    """How the user called the command line, to say what to type next."""
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "tracker"
    return "python -m tracker" if name == "__main__.py" else name


@contextmanager
def opened(db: str | None, *, must_exist: bool = True, write: bool = True):
    """A service over the database, with every error turned into one line on stderr.

    `write=False`: the database is opened read-only (SQLite's mode=ro), so that a file that
    may only be read can be read."""
    path = config.db_path(db)
    if is_url(path):
        with on_server(path, must_exist=must_exist, write=write) as service:
            yield service
        return
    if Path(path).is_dir():
        fail(_("%(path)s is a folder, not a database file", path=path))
    if must_exist and not Path(path).exists():
        fail(
            _(
                "there is no database at %(path)s (create it with: %(program)s init --db %(path)s)",
                path=path,
                program=program(),
            )
        )
    if write and Path(path).exists() and not os.access(path, os.W_OK):
        fail(ReadOnly(path).message)
    store = None
    try:
        store = _open(path, write)
        if must_exist and not store.initialised():
            fail(
                _(
                    "%(path)s is not a tracker database (create one with: %(program)s init)",
                    path=path,
                    program=program(),
                )
            )
        yield Service(store)
    except TrackerError as error:
        fail(error.message)
    except sqlite3.Error as error:
        fail(_database_error(path, error))
    except OSError as error:
        mine = str(error.filename or path).startswith(path)  # the database's own files
        if write and mine and error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            fail(
                _(
                    "%(refusal)s (%(reason)s: %(file)s)",
                    refusal=ReadOnly(path).message,
                    reason=error.strerror,
                    file=error.filename or path,
                )
            )
        fail(
            _(
                "%(reason)s: %(file)s",
                reason=error.strerror or str(error),
                file=error.filename or path,
            )
        )
    finally:
        if store is not None:
            store.close()


@contextmanager
def on_server(url: str, *, must_exist: bool, write: bool):
    """A service over a PostgreSQL database, every error one line on stderr."""
    import psycopg

    store = None
    try:
        store = open_store(url, readonly=not write)
        if must_exist and not store.initialised():
            fail(
                _(
                    "%(path)s is not a tracker database yet (create it with: %(program)s init)",
                    path=store.target,
                    program=program(),
                )
            )
        yield Service(store)
    except TrackerError as error:
        fail(error.message)
    except psycopg.Error as error:
        words = str(error).strip().splitlines()
        fail(
            _(
                "the database %(database)s could not be used: %(reason)s",
                database=describe(url),
                reason=words[0] if words else str(error),
            )
        )
    finally:
        if store is not None:
            store.close()


def _open(path: str, write: bool) -> Store:
    try:
        return open_store(path, readonly=not write)
    except sqlite3.OperationalError:
        if write and Path(path).exists() and _readable(path):
            raise ReadOnly(path) from None  # it opens for reading only
        raise


def writable(path: str) -> bool:
    """Whether the database file and its folder may be written (SQLite writes beside it)."""
    folder = Path(path).resolve().parent
    return os.access(path, os.W_OK) and os.access(folder, os.W_OK)


def _readable(path: str) -> bool:
    try:
        open_store(path, readonly=True).close()
    except sqlite3.Error:
        return False
    return True


def _database_error(path: str, error: sqlite3.Error) -> str:
    words = str(error)
    if "readonly" in words:
        return ReadOnly(path).message
    if "not a database" in words:
        return _("%(path)s is not a tracker database (it is not an SQLite file)", path=path)
    return _("the database %(database)s could not be used: %(reason)s", database=path, reason=words)


def read_text(file: str) -> list[str]:
    """The lines of a UTF-8 file (or of stdin for "-"); anything else is one plain error."""
    name = _("the standard input") if file == "-" else file
    data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        fail(
            _(
                "%(file)s is UTF-16 text; the tracker reads UTF-8: save it as UTF-8 and try again",
                file=name,
            )
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        value = f"{data[error.start]:#04x}"
        fail(
            _(
                "%(file)s is not UTF-8 text (byte %(byte)s is %(value)s): "
                "save it as UTF-8 and try again",
                file=name,
                byte=error.start + 1,
                value=value,
            )
        )
    # Lines end at newlines only: a JSON string may hold other line separators.
    return io.StringIO(text, newline=None).readlines()
