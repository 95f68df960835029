"""The command line's upkeep of a database: verify and witness its logs, rebuild what is
kept beside them, back it up, restore it, copy it to another engine. Each command takes --db
PATH (tracker.cli gathers them)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from tracker import config
from tracker.accounts import NUMBERED, TABLES, Accounts
from tracker.commandline import (
    db_option,
    fail,
    helped,
    on_server,
    opened,
    program,
    read_text,
    say,
    writable,
)
from tracker.errors import joined
from tracker.service import Service
from tracker.store import Store, is_url
from tracker.systems import i18n
from tracker.systems.i18n import _, ngettext


@click.command(
    "verify",
    help=helped(
        _(
            "Recompute the hash chains, hold each campaign's log against the head the "
            "database recorded for it, and the snapshots against the log; with --head and "
            "--at, check that the log still holds a witness; with --witness FILE, every "
            "witness of the file. Exit 1 naming what does not match."
        )
    ),
)
@db_option
@click.argument("campaign", required=False)
@click.option(
    "--head", default=None, metavar="HASH", help=helped(_("A witness: the head hash kept."))
)
@click.option(
    "--at",
    "at",
    type=click.IntRange(min=1),
    default=None,
    metavar="VERSION",
    help=helped(_("The event the witness was taken at.")),
)
@click.option(
    "--witness",
    "witness_file",
    default=None,
    metavar="FILE",
    type=click.Path(dir_okay=False, allow_dash=True),
    help=helped(
        _("A witness file of every campaign (from `witness --all`) to hold the log against.")
    ),
)
def verify_command(db, campaign, head, at, witness_file):
    if (head is None) != (at is None) or (head is not None and not campaign):
        fail(_("a witness is checked with a campaign, --head HASH and --at VERSION together"), 2)
    if witness_file is not None and (campaign or head):
        fail(_("--witness FILE checks the whole database: give no campaign, --head or --at"), 2)
    # Snapshots that differ are dropped where the database may be written; it is only read
    # where it may not.
    path = config.db_path(db)
    with opened(db, write=is_url(path) or writable(path)) as service:
        witnessed = _witnesses(witness_file) if witness_file is not None else None
        gone = _heads_gone(service, campaign)
        if gone:
            fail(_("events are missing from the log: %(gone)s", gone=joined(gone)))
        broken = service.verify(campaign)
        if broken:
            fail(_("broken chain: %(broken)s", broken=broken.words))
        ids = [campaign] if campaign else [c.id for c in service.campaigns()]
        differ = {cid: service.check_snapshots(cid) for cid in ids}
        differ = {cid: versions for cid, versions in differ.items() if versions}
        if differ:
            where = joined(
                [
                    _(
                        "%(campaign)s at event %(versions)s",
                        campaign=cid,
                        versions=", ".join(map(str, v)),
                    )
                    for cid, v in differ.items()
                ]
            )
            if service.store.readonly:
                fail(
                    _(
                        "snapshots that differ from their log folded again (not dropped: "
                        "read-only): %(where)s",
                        where=where,
                    )
                )
            fail(
                _(
                    "snapshots that differ from their log folded again were dropped: %(where)s",
                    where=where,
                )
            )
        if head is not None:
            wrong = service.witness(campaign, at, head)
            if wrong:
                fail(_("the witness does not hold: %(reason)s", reason=wrong))
            say(
                _(
                    "ok: %(campaign)s still holds the head %(head)s at event %(version)s",
                    campaign=campaign,
                    head=head.strip(),
                    version=at,
                )
            )
            return
        if witnessed is not None:
            wrong = _unwitnessed(service, witnessed)
            if wrong:
                fail(
                    _(
                        "the witness file %(file)s does not hold: %(reasons)s",
                        file=witness_file,
                        reasons=joined(wrong),
                    )
                )
            say(
                ngettext(
                    "ok: %(num)d campaign, every chain holds, and every head of %(file)s "
                    "(%(heads)s) is still in the log",
                    "ok: %(num)d campaigns, every chain holds, and every head of %(file)s "
                    "(%(heads)s) is still in the log",
                    len(ids),
                    file=witness_file,
                    heads=len(witnessed),
                )
            )
            return
        count = len(ids)
        say(
            ngettext(
                "ok: %(num)d campaign, every chain holds",
                "ok: %(num)d campaigns, every chain holds",
                count,
            )
        )


def _heads_gone(service: Service, campaign: str | None) -> list[str]:
    """What `Store.heads_differ` says of the database (or of one campaign); nothing for a
    database that keeps no heads yet (made by an older tracker and only read since)."""
    store = service.store
    return store.heads_differ(campaign) if store.keeps_heads() else []


def _witnesses(file: str) -> list[dict]:
    """The witnesses of a witness file: one JSON object a line, {"campaign", "version",
    "head"} (blank lines and lines starting with # are skipped)."""
    found = []
    for number, line in enumerate(read_text(file), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            item = json.loads(line)
            found.append(
                {
                    "campaign": str(item["campaign"]),
                    "version": int(item["version"]),
                    "head": str(item["head"]),
                }
            )
        except (ValueError, KeyError, TypeError):
            fail(
                _(
                    "line %(line)s of %(file)s is not a witness: each line is "
                    '{"campaign": ..., "version": ..., "head": ...}',
                    line=number,
                    file=file,
                )
            )
    return found


def _unwitnessed(service: Service, witnessed: list[dict]) -> list[str]:
    """Each witness the log no longer holds, in words."""
    wrong = []
    for item in witnessed:
        cid, version = item["campaign"], item["version"]
        if not service.store.exists(cid):
            wrong.append(
                _(
                    "campaign %(campaign)s: the log holds none of its events, witnessed at "
                    "event %(version)s (%(head)s)",
                    campaign=cid,
                    version=version,
                    head=item["head"][:12],
                )
            )
            continue
        said = service.witness(cid, version, item["head"])
        if said:
            wrong.append(_("campaign %(campaign)s: %(reason)s", campaign=cid, reason=said))
    return wrong


@click.command(
    "witness",
    help=helped(
        _(
            "Write the head of a campaign (or of every one, --all) as a witness file: one "
            'JSON object a line, {"campaign", "version", "head"}, that `verify --witness '
            "FILE` holds a database against later. Keep it away from the database."
        )
    ),
)
@db_option
@click.argument("campaign", required=False)
@click.option("--all", "every", is_flag=True, help=helped(_("Every campaign of the database.")))
@click.option(
    "--out",
    "out",
    default="-",
    show_default=True,
    metavar="FILE",
    type=click.Path(dir_okay=False, allow_dash=True),
    help=helped(_("Where to write the witnesses (- for stdout).")),
)
def witness_command(db, campaign, every, out):
    if bool(campaign) == every:
        fail(_("name one campaign, or --all for every campaign"), 2)
    if out != "-" and Path(out).exists():
        fail(_("%(file)s exists already: a witness file is written to a new file", file=out))
    with opened(db, write=False) as service:
        if campaign and not service.store.exists(campaign):
            fail(_("there is no campaign %(campaign)r", campaign=campaign))
        rows = [service.store.campaign(campaign)] if campaign else service.campaigns()
        lines = [
            json.dumps({"campaign": r.id, "version": r.version, "head": r.head}) + "\n"
            for r in rows
        ]
    if out == "-":
        click.echo("".join(lines), nl=False)
        return
    Path(out).write_text("".join(lines), encoding="utf-8")
    say(
        ngettext(
            "wrote the head of %(num)d campaign to %(file)s",
            "wrote the heads of %(num)d campaigns to %(file)s",
            len(lines),
            file=out,
        )
    )


@click.command(
    "rebuild",
    help=helped(_("Drop every snapshot and replay every campaign, with a progress bar.")),
)
@db_option
def rebuild_command(db):
    with opened(db) as service:
        total = service.store.count()
        label = i18n.translate(_("replaying"), i18n.reader())
        with click.progressbar(length=total, label=label, file=sys.stderr) as bar:
            count = service.rebuild(bar.update)
        say(
            ngettext(
                # The English says "campaigns" whatever the count, as it always has.
                "rebuilt %(num)d campaigns from %(events)s events",
                "rebuilt %(num)d campaigns from %(events)s events",
                count,
                events=total,
            )
        )


@click.command(
    "backup",
    help=helped(
        _(
            "Copy the whole database (log, snapshots, accounts, members, tokens, visibility, "
            "the secret) to a new file at PATH, consistently while writers go on writing."
        )
    ),
)
@db_option
@click.argument("path", type=click.Path(dir_okay=False))
def backup_command(db, path):
    if is_url(config.db_path(db)):
        fail(_("backup copies an SQLite file: back a PostgreSQL database up with pg_dump"))
    if Path(path).exists():
        fail(_("%(file)s exists already: a backup is written to a new file", file=path))
    with opened(db, write=False) as service:
        copy_database(service.store, path, _("backing up"))
        say(
            ngettext(
                "backed up %(num)d event and every account to %(file)s",
                "backed up %(num)d events and every account to %(file)s",
                service.store.count(),
                file=path,
            )
        )


@click.command(
    "restore",
    help=helped(
        _(
            "Make the database from a backup file, after checking every chain in it; the "
            "database must not exist yet (restore into a new path, then point --db or "
            "TRACKER_DB at it)."
        )
    ),
)
@db_option
@click.argument("backup", type=click.Path(dir_okay=False))
def restore_command(db, backup):
    target = config.db_path(db)
    if is_url(target):
        fail(
            _(
                "restore makes an SQLite file: to fill PostgreSQL, %(program)s copy --to URL",
                program=program(),
            )
        )
    if not Path(backup).is_file():
        fail(_("there is no backup file at %(file)s", file=backup))
    if Path(target).exists():
        fail(_("%(file)s exists already: restore into a new path (--db NEW)", file=target))
    with opened(backup, write=False) as source:
        broken = _heads_gone(source, None) or source.verify()
        if broken:
            fail(
                _(
                    "the backup's log does not hold: %(reason)s",
                    reason=broken[0] if isinstance(broken, list) else broken.words,
                )
            )
        copy_database(source.store, target, _("restoring"))
        count = len(source.campaigns())
    say(
        ngettext(
            "restored %(num)d campaign into %(file)s; every chain holds",
            "restored %(num)d campaigns into %(file)s; every chain holds",
            count,
            file=target,
        )
    )


def copy_database(store: Store, path: str, label: str) -> None:
    """The store's whole database backed up into a new file at `path`, with a progress bar."""
    label = i18n.translate(label, i18n.reader())
    with click.progressbar(length=1, label=label, file=sys.stderr) as bar:

        def progress(done, total):
            bar.length = total
            bar.update(done - bar.pos)

        store.backup(path, progress)


@click.command(
    "copy",
    help=helped(
        _(
            "Copy the whole SQLite database (events with their hashes, accounts, members, "
            "tokens, invitations, visibility) into an empty PostgreSQL database, then check "
            "every chain there."
        )
    ),
)
@db_option
@click.option(
    "--to", "to", required=True, metavar="URL", help=helped(_("The empty PostgreSQL database."))
)
def copy_command(db, to):
    from tracker.store.moving import copy_into, make_ready, size

    if is_url(config.db_path(db)):
        fail(_("copy reads an SQLite file: give its path with --db or TRACKER_DB"))
    if not is_url(to):
        fail(_("--to takes a postgresql:// URL, not %(given)r", given=to))
    with opened(db, write=False) as source, on_server(to, must_exist=False, write=True) as target:
        Accounts(target.store).init()
        make_ready(target.store, TABLES)  # refused before the bar shows, when it is not empty
        length = size(source.store, TABLES)
        label = i18n.translate(_("copying"), i18n.reader())
        with click.progressbar(length=length, label=label, file=sys.stderr) as bar:
            count = copy_into(source.store, target.store, bar.update, TABLES, NUMBERED)
        Accounts(target.store).init()  # the keys of accounts copied from an older database
        say(
            ngettext(
                "copied %(num)d campaign and every account into %(db)s; every chain holds",
                "copied %(num)d campaigns and every account into %(db)s; every chain holds",
                count,
                db=target.store.target,
            )
        )
