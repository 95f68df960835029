"""Serving at the table: the machine's address on the local network, for `serve --lan`, and
what to open on the phones (the address and its QR code, printed in the terminal)."""

from __future__ import annotations

import io
import ipaddress
import socket
from collections.abc import Iterable

import segno

from tracker.systems.i18n import _

# Private addresses to "connect" a UDP socket towards: connecting one sends nothing, but
# makes the system choose the source address it would use on the local network.
_PROBES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")
# Where a phone at the table opens the tracker (listening on every address of the machine).
EVERY_ADDRESS = "0.0.0.0"


def local_addresses() -> list[str]:
    """The machine's IPv4 addresses as the system reports them, the likeliest first: the
    source address of a route to a private network, then those of the host's name."""
    found = []
    for probe in _PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                found.append(sock.getsockname()[0])
        except OSError:
            continue
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except (OSError, UnicodeError):
        infos = []
    found += [info[4][0] for info in infos]
    return found


# The ranges a home or club network numbers its devices from (RFC 1918), preferred to other
# private ranges (a VPN's, documentation's).
_LOCAL = tuple(ipaddress.ip_network(n) for n in ("192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12"))


def choose(addresses: Iterable[str]) -> str | None:
    """The address a phone on the same network reaches this machine by: the first private
    IPv4 address of a local network's ranges, else the first other private one (never
    loopback, link-local or unspecified); None when there is none."""
    usable = []
    for text in addresses:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if (
            address.version == 4
            and address.is_private
            and not (address.is_loopback or address.is_link_local or address.is_unspecified)
        ):
            usable.append(address)
    local = [a for a in usable if any(a in network for network in _LOCAL)]
    return str((local or usable)[0]) if usable else None


def table_url(address: str, port: int) -> str:
    return f"http://{address}:{port}/"


def qr_text(url: str) -> str:
    """`url` as a QR code drawn with block characters, for a terminal (dark on light)."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def announce(address: str | None, port: int, host: str) -> list[str]:
    """What `serve --lan` prints before it serves: where it listens, and the address to open
    on the phones with its QR code, or one line saying none was found."""
    if host in (EVERY_ADDRESS, "::"):
        listening = _(
            "listening on %(host)s: every address of this machine, so anyone on the local "
            "network may open the tracker",
            host=host,
        )
    else:
        listening = _("listening on %(host)s", host=host)
    lines = [listening]
    if address is None:
        lines.append(
            _(
                "no local network address was found (is the machine on a network?): serving "
                "anyway; open this machine's address on port %(port)s on the phones",
                port=port,
            )
        )
        return lines
    url = table_url(address, port)
    lines.append(_("Open %(url)s on the phones at the table (or scan this code):", url=url))
    lines.append(qr_text(url).rstrip("\n"))
    return lines
