"""Serving at the table: `serve --lan` finds the machine's address on the local network and
prints it with its QR code (the interfaces faked: a test sends nothing past loopback), and
`serve` writes nothing outside its database's own files, not even in the home folder."""

import os
import socket
import urllib.request

import pytest
import serving
from click.testing import CliRunner

from tracker import cli, config
from tracker import lan as network
from tracker.web import server

MANAGE = str(config.ROOT / "manage.py")


def test_the_address_chooser_takes_a_local_networks_address_never_loopback_or_public():
    assert network.choose(["127.0.0.1", "169.254.3.4", "192.168.1.20", "10.0.0.5"]) == (
        "192.168.1.20"
    )
    assert network.choose(["127.0.1.1", "8.8.8.8", "172.20.0.3"]) == "172.20.0.3"
    assert network.choose(["not an address", "fe80::1", "10.1.2.3"]) == "10.1.2.3"
    # A local network's range first, before another private one (a VPN's, say).
    assert network.choose(["100.100.1.1", "198.18.0.4", "192.168.0.7"]) == "192.168.0.7"
    assert network.choose(["198.18.0.4"]) == "198.18.0.4"
    assert network.choose(["127.0.0.1", "::1", "0.0.0.0", "203.0.114.9"]) is None
    assert network.choose([]) is None


class FakeSocket:
    """A UDP socket whose connect sends nothing and reaches nothing: the system's choice of
    source address is played by `source`."""

    source: dict = {}
    connected: list = []

    def __init__(self, family, kind):
        assert kind == socket.SOCK_DGRAM

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def connect(self, where):
        self.connected.append(where)
        if where[0] not in self.source:
            raise OSError("Network is unreachable")
        self.where = where

    def getsockname(self):
        return (self.source[self.where[0]], 40000)


def test_the_machines_addresses_come_from_its_routes_then_its_host_name(monkeypatch):
    FakeSocket.source = {"192.168.255.255": "192.168.1.20"}
    FakeSocket.connected = []
    monkeypatch.setattr(network.socket, "socket", FakeSocket)
    monkeypatch.setattr(network.socket, "gethostname", lambda: "laptop")
    monkeypatch.setattr(
        network.socket,
        "getaddrinfo",
        lambda host, port, family: [(family, 0, 0, "", ("127.0.1.1", 0))],
    )
    found = network.local_addresses()
    assert found == ["192.168.1.20", "127.0.1.1"]
    assert network.choose(found) == "192.168.1.20"
    # Without a network: nothing but loopback, so nothing to offer the phones.
    FakeSocket.source = {}
    assert network.choose(network.local_addresses()) is None


@pytest.fixture
def served(monkeypatch, tmp_path):
    """`serve` as the command line runs it, up to the server itself, which is not started:
    what it was asked to listen on is kept."""
    calls = []
    monkeypatch.setattr(server, "run", lambda app, host, port, *rest: calls.append((host, port)))
    db = tmp_path / "table.db"

    def serve(*args, addresses=("127.0.0.1", "192.168.1.20")):
        monkeypatch.setattr(network, "local_addresses", lambda: list(addresses))
        port = serving.free_port()
        result = CliRunner().invoke(
            cli.serve_command, ["--db", str(db), "--port", str(port), *args]
        )
        assert result.exit_code == 0, result.output
        return result.output, port, calls

    return serve


def test_serve_lan_prints_the_address_to_open_on_the_phones_and_its_qr_code(served):
    output, port, calls = served("--lan", "--host", "127.0.0.1")
    assert f"Open http://192.168.1.20:{port}/ on the phones at the table" in output
    qr = output.split("(or scan this code):\n")[1].splitlines()
    assert len(qr) > 10 and all("█" in line or "▀" in line for line in qr)
    assert calls == [("127.0.0.1", port)]


def test_serve_lan_listens_on_every_address_and_says_so(served, monkeypatch):
    # The probe that the port is free binds the address asked for: keep it on loopback.
    monkeypatch.setattr(cli, "_address", lambda host, port: f"{host}:{port}")
    output, port, calls = served("--lan")
    assert calls == [("0.0.0.0", port)]
    assert "listening on 0.0.0.0: every address of this machine" in output


def test_serve_lan_without_a_network_says_so_in_one_line_and_still_serves(served):
    output, port, calls = served("--lan", "--host", "127.0.0.1", addresses=["127.0.0.1"])
    assert "no local network address was found" in output and "Open http" not in output
    assert calls == [("127.0.0.1", port)]


def test_serve_without_lan_stays_on_this_machine_and_prints_no_code(served):
    output, port, calls = served()
    assert calls == [("127.0.0.1", port)] and "Open http" not in output and "█" not in output


def test_serve_leaves_an_empty_home_folder_and_working_folder_empty(tmp_path):
    home, work, data = tmp_path / "home", tmp_path / "work", tmp_path / "data"
    for folder in (home, work, data):
        folder.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env |= {"HOME": str(home), "TMPDIR": str(work)}
    with serving.served(data / "t.db", env=env, cwd=work) as (url, _):
        for path in (
            "/c/ember-crown-sample/",
            "/signup",
            "/c/ember-crown-sample/pdf/roster?warband=ironjaws&paper=A4",
        ):
            urllib.request.urlopen(url + path, timeout=60).read()
    assert sorted(p.name for p in home.rglob("*")) == []
    assert sorted(p.name for p in work.rglob("*")) == []
    assert {p.name for p in data.iterdir()} <= {"t.db", "t.db-wal", "t.db-shm"}
