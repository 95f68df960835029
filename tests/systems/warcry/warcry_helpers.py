"""Helpers of the Warcry rules tests that more than one file uses (conftest.py puts this
folder on sys.path)."""


def glory(c, wid):
    return c.wb(wid)["glory"]


def fielded(c, wid):
    return list(c.wb(wid)["active"])


def fight(c, bid, winner, a="iron", b="crow", **extra):
    return c.do(
        "BattleFought",
        battle=bid,
        winner=winner,
        sides=[
            {"warband": a, "fighters": fielded(c, a)},
            {"warband": b, "fighters": fielded(c, b)},
        ],
        **extra,
    )
