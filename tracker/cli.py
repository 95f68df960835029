"""The command line: the commands of `tracker` (also `python -m tracker` and `manage.py`),
each taking --db PATH. Every error is one line on stderr and a non-zero exit. It starts the web
app (`serve`); the web never imports it."""

from __future__ import annotations

import errno
import json
import os
import socket
import sys
from pathlib import Path

import click

from tracker import config, webhooks
from tracker import lan as network
from tracker.accounts import Accounts
from tracker.cli_upkeep import (
    backup_command,
    copy_command,
    rebuild_command,
    restore_command,
    verify_command,
    witness_command,
)
from tracker.commandline import (
    db_option,
    fail,
    helped,
    opened,
    program,
    read_text,
    say,
    speak,
)
from tracker.errors import TrackerError
from tracker.permissions import seat
from tracker.service import Service
from tracker.store import describe, is_url
from tracker.systems.i18n import _, ngettext


def load_samples(service: Service, folder: Path = config.SAMPLES) -> int:
    """Import every sample campaign of events/ whose campaigns are not in the database yet."""
    loaded = 0
    files = sorted(folder.glob("*.jsonl"))
    if not files:
        say(_("warning: there are no sample campaigns in %(folder)s", folder=str(folder)), err=True)
    for path in files:
        with open(path, encoding="utf-8") as handle:
            lines = handle.readlines()
        campaigns = {json.loads(line)["campaign"] for line in lines if line.strip()}
        if any(service.store.exists(c) for c in campaigns):
            continue
        try:
            service.import_lines(lines, actor="sample")
        except TrackerError as error:
            raise TrackerError(
                _("%(file)s: %(error)s", file=path.name, error=error.message)
            ) from None
        # Samples have no organiser: anybody may read them, nobody records in them.
        access = Accounts(service.store)
        access.init()
        for campaign in campaigns:
            access.set_public(campaign, True)
        loaded += len(campaigns)
    return loaded


@click.command(
    "init",
    help=helped(_("Create the database (tables, indexes, append-only triggers).")),
)
@db_option
def init_command(db):
    with opened(db, must_exist=False) as service:
        service.store.init()
        Accounts(service.store).init()
        webhooks.init(service.store)
        # The tables may all be there already: make sure the database takes writes at all.
        with service.store.transaction():
            pass
        where = service.store.target
    say(_("database ready at %(where)s", where=where))


@click.command(
    "serve",
    help=helped(
        _("Serve the web app with gunicorn; an empty database first gets the sample campaigns.")
    ),
)
@db_option
@click.option(
    "--host",
    default=None,
    help=helped(
        _("Address to listen on (default: 127.0.0.1, this machine only; with --lan, 0.0.0.0).")
    ),
)
@click.option(
    "--lan",
    is_flag=True,
    help=helped(
        _(
            "Serve the phones at the table: listen on the local network and print the "
            "address to open on them, with its QR code."
        )
    ),
)
@click.option(
    "--port",
    default=5000,
    show_default=True,
    type=click.IntRange(1, 65535),
    help=helped(_("Port to listen on.")),
)
@click.option(
    "--workers",
    default=2,
    show_default=True,
    type=click.IntRange(1, 64),
    help=helped(_("Worker processes.")),
)
@click.option(
    "--threads",
    default=None,
    type=click.IntRange(1, 256),
    help=helped(_("Request threads a worker (default 8; an open live page holds none).")),
)
@click.option(
    "--access-log",
    is_flag=True,
    help=helped(
        _("Write a line for each request to standard output (off: it costs every request).")
    ),
)
def serve_command(db, host, port, workers, threads, access_log, lan):
    if host is None:
        host = network.EVERY_ADDRESS if lan else "127.0.0.1"
    path = config.db_path(db)
    shown = describe(path) if is_url(path) else path  # never a password on the screen
    address = _address(host, port)
    with opened(db, must_exist=False) as service:
        service.store.init()
        if service.store.count() == 0:
            count = load_samples(service)
            say(
                ngettext(
                    "loaded %(num)d sample campaign into %(db)s",
                    "loaded %(num)d sample campaigns into %(db)s",
                    count,
                    db=shown,
                )
            )
    from tracker.web import create_app
    from tracker.web.server import THREADS, run

    try:
        app = create_app({"DATABASE": path})
    except ValueError as error:
        fail(_("cannot serve: %(reason)s", reason=str(error)))
    url = f"http://{address}/"
    say(_("serving the tracker on %(url)s (database %(db)s)", url=url, db=shown))
    if lan:
        _announce(network.choose(network.local_addresses()), port, host)
    try:
        run(app, host, port, workers, access_log, threads or THREADS)
    except OSError as error:
        fail(
            _(
                "cannot serve on %(address)s: %(reason)s",
                address=address,
                reason=error.strerror or str(error),
            )
        )


def _announce(address: str | None, port: int, host: str) -> None:
    """The address to open on the phones at the table, and its QR code where the terminal
    can draw it."""
    for line in network.announce(address, port, host):
        try:
            say(line)
        except UnicodeEncodeError:
            say(_("(this terminal cannot draw the QR code: type the address instead)"))


def _address(host: str, port: int) -> str:
    """host:port, once it is sure that the server can listen there (else one line, exit 1)."""
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        family, kind, proto, __, where = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError):
        fail(
            _(
                "cannot serve on %(address)s: there is no such host as %(host)r",
                address=address,
                host=host,
            )
        )
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn does
        try:
            probe.bind(where)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                reason = _("the port is in use")
            else:
                reason = error.strerror
            fail(_("cannot serve on %(address)s: %(reason)s", address=address, reason=reason))
    return address


@click.command(
    "import",
    help=helped(
        _(
            "Import campaigns from a JSON Lines file: every event checked by its rules, all "
            "or nothing."
        )
    ),
)
@db_option
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
def import_command(db, file):
    with opened(db) as service:
        lines = read_text(file)
        results = service.import_lines(lines)
        for result in results:
            say(
                ngettext(
                    "imported %(campaign)s: %(num)d event, head %(head)s",
                    "imported %(campaign)s: %(num)d events, head %(head)s",
                    result.last_version,
                    campaign=result.campaign,
                    head=result.head,
                )
            )


@click.group(
    "content",
    help=helped(
        _("A campaign's own content: import the community's fighter data into a campaign.")
    ),
)
def content_group():
    """The `content` commands, added to it below."""


@content_group.command(
    "import",
    help=helped(
        _(
            "Import a content file (Warcry: a warcry_data JSON array of fighters) into a "
            "campaign's log as one event of its organiser's: all of the file, or nothing."
        )
    ),
)
@db_option
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--campaign", required=True, help=helped(_("The campaign whose log takes the content."))
)
def content_import_command(db, file, campaign):
    with opened(db) as service:
        try:
            document = json.loads("".join(read_text(file)))
        except json.JSONDecodeError as error:
            fail(
                _(
                    "%(file)s is not JSON (%(reason)s, line %(line)s)",
                    file=file,
                    reason=error.msg,
                    line=error.lineno,
                )
            )
        system, __ = service.system_of(campaign)
        events = system.content_events(document, Path(file).name)
        result = service.append(campaign, events, None, actor="command line", source="import")
        say(
            _(
                "imported %(file)s into %(campaign)s: event %(version)s",
                file=file,
                campaign=campaign,
                version=result.last_version,
            )
        )


@click.command(
    "export",
    help=helped(
        _("Write a campaign as JSON Lines to stdout, one event a line; its witness on stderr.")
    ),
)
@db_option
@click.argument("campaign")
def export_command(db, campaign):
    with opened(db, write=False) as service:
        for line in service.export(campaign):
            click.echo(line)
        version, head = service.store.head(campaign)
        say(
            _(
                "witness: %(campaign)s at event %(version)s, head %(head)s",
                campaign=campaign,
                version=version,
                head=head,
            ),
            err=True,
        )


@click.command(
    "state",
    help=helped(_("Print a campaign's folded state as JSON.")),
)
@db_option
@click.argument("campaign")
@click.option(
    "--at",
    "at",
    type=int,
    default=None,
    metavar="VERSION",
    help=helped(_("The state as it stood after this event.")),
)
def state_command(db, campaign, at):
    with opened(db, write=False) as service:
        view = service.state(campaign, at)
        click.echo(json.dumps(view.to_json(), indent=2, ensure_ascii=False))


@click.command(
    "campaigns",
    help=helped(_("One line per campaign: id, system, name, version, head hash.")),
)
@db_option
def campaigns_command(db):
    with opened(db, write=False) as service:
        for row in service.campaigns():
            click.echo(f"{row.id}\t{row.system}\t{row.name}\t{row.version}\t{row.head}")


@click.command(
    "members",
    help=helped(_("List a campaign's members, or (as the operator) add or remove one.")),
)
@db_option
@click.argument("campaign")
@click.option("--add", "add", metavar="USER", default=None, help=helped(_("Make USER a member.")))
@click.option(
    "--role", type=click.Choice(["player", "organiser"]), default="player", show_default=True
)
@click.option("--side", default=None, help=helped(_("The side USER plays (with --add).")))
@click.option("--remove", "remove", metavar="USER", default=None, help=helped(_("Remove USER.")))
def members_command(db, campaign, add, role, side, remove):
    with opened(db) as service:
        if not service.store.exists(campaign):
            fail(_("there is no campaign %(campaign)r", campaign=campaign))
        access = Accounts(service.store)
        access.init()
        for name, change in ((add, "add"), (remove, "remove")):
            if name is None:
                continue
            user = access.by_name(name)
            if user is None:
                fail(_("there is no account %(name)r", name=name))
            if change == "remove":
                access.remove_member(campaign, user)
                continue
            view = service.state(campaign)
            names = view.system.sides(view.state)
            if side is not None and side not in names:
                fail(_("there is no side %(side)r in %(campaign)r", side=side, campaign=campaign))
            if role == "organiser" and side is not None:
                # An organiser's seat is an event of the log too (who saw every hand when).
                access.add_member(campaign, user, role)
                seat(service, access, access.membership(campaign, user), side, names)
                continue
            access.add_member(campaign, user, role, side, names)
        for member in access.members(campaign):
            click.echo(f"{member.user.name}\t{member.role}\t{member.side or '-'}")


@click.command(
    "visibility",
    help=helped(_("Say whether a campaign is public (anyone may read it) or private; or set it.")),
)
@db_option
@click.argument("campaign")
@click.argument("setting", required=False, type=click.Choice(["public", "private"]))
def visibility_command(db, campaign, setting):
    with opened(db) as service:
        if not service.store.exists(campaign):
            fail(_("there is no campaign %(campaign)r", campaign=campaign))
        access = Accounts(service.store)
        access.init()
        if setting is not None:
            access.set_public(campaign, setting == "public")
        if access.is_public(campaign):
            say(_("%(campaign)s: public", campaign=campaign))
        else:
            say(_("%(campaign)s: private", campaign=campaign))


COMMANDS = [
    init_command,
    serve_command,
    import_command,
    content_group,
    export_command,
    verify_command,
    witness_command,
    state_command,
    campaigns_command,
    rebuild_command,
    backup_command,
    restore_command,
    copy_command,
    members_command,
    visibility_command,
]


class Manage(click.Group):
    """The tracker's commands, with every error on one line. None of them needs the web app:
    it is made only by the command that serves it."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        for command in COMMANDS:
            self.add_command(command)

    def main(self, args=None, **extra):
        try:
            return super().main(args=args, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:
            click.echo(error.ctx.get_help())
            sys.exit(0)
        except click.UsageError as error:
            fail(error.format_message(), 2)
        except click.exceptions.Abort:
            fail(_("aborted"))
        except click.exceptions.Exit as error:
            sys.exit(error.exit_code)
        except BrokenPipeError:
            # The reader went away (`export ... | head`): nothing more to say to it.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(1)
        except Exception as error:  # a user never sees a traceback
            fail(
                _(
                    "the tracker hit an unexpected error (%(kind)s: %(error)s)",
                    kind=type(error).__name__,
                    error=str(error),
                )
            )


def main():
    speak()
    Manage(
        help=helped(_("Run the tracker: its database, its samples and its web server.")),
        no_args_is_help=True,
    ).main(prog_name=program())
