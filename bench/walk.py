"""The modules of the tracker one request passes through: a dashboard read and a form post
on a Warcry campaign, traced with sys.setprofile in the Flask test client (warm: each is
asked once before the traced one). Fewer modules, the easier a request is to follow.

Alone: python -m bench.walk  (prints the modules of each walk)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tracker import config
from tracker.accounts import Accounts
from tracker.service import Service
from tracker.store import open_store
from tracker.web import create_app

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = str(ROOT / "tracker")


def traced(work) -> list[str]:
    """The tracker's modules whose code ran during `work()`, by dotted name."""
    seen: set[str] = set()

    def profile(frame, event, arg):
        if event == "call":
            name = frame.f_code.co_filename
            if name.startswith(PACKAGE):
                seen.add(name)

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return sorted(
        "tracker." + str(Path(n).relative_to(PACKAGE).with_suffix("")).replace("/", ".")
        for n in seen
    )


def walks() -> dict[str, list[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "walk.db"
        store = open_store(db)
        store.init()
        accounts = Accounts(store)
        accounts.init()
        user = accounts.sign_up("walker", "a fine long walk password")
        service = Service(store)
        service.import_lines((config.SAMPLES / "warcry-ember-crown.jsonl").read_text().splitlines())
        cid = "ember-crown-sample"
        accounts.add_member(cid, user, "organiser")
        store.close()
        app = create_app({"DATABASE": str(db), "WTF_CSRF_ENABLED": False, "TESTING": True})
        client = app.test_client()
        client.post("/login", data={"name": "walker", "password": "a fine long walk password"})

        def read():
            assert client.get(f"/c/{cid}/").status_code == 200

        def post(n=[0]):  # noqa: B006 - a counter across calls: each post a new warband
            n[0] += 1
            version = versions[-1]
            answer = client.post(
                f"/c/{cid}/",
                data={
                    "type": "WarbandFounded",
                    "expected_version": str(version),
                    "warband": f"walk-{n[0]}",
                    "name": f"Walkers {n[0]}",
                    "player": "Walker",
                    "faction": "Cinderborn Reavers",
                },
            )
            assert answer.status_code in (302, 303), answer.get_data(as_text=True)[:500]
            versions.append(versions[-1] + 1)

        versions = [Service(open_store(db)).store.version(cid)]
        read()
        post()
        return {"dashboard read": traced(read), "form post": traced(post)}


def main() -> None:
    for name, modules in walks().items():
        print(f"{name}: {len(modules)} modules")
        for module in modules:
            print("  ", module)


if __name__ == "__main__":
    main()
