"""Run the whole bench: every figure as a ratio of two things measured side by side.

Run from the repository root: python -m bench  (or: python -m bench --only fold,roster)
Prints each figure with its two raw figures and a pass or fail, and writes the latest run into
bench/RESULTS.md (below its table of speed devices, which it keeps).
"""

from __future__ import annotations

import argparse
import datetime
import shutil
import tempfile
import time
from pathlib import Path

from bench import browsing, data, figures, front, http, live, load, pages, streams

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
STEPS = (
    "append",
    "import",
    "fold",
    "roster",
    "travel",
    "front",
    "pages",
    "http",
    "live",
    "load",
    "streams",
    "memory",
    "browsing",
)

# The steps that make their own data (the samples): the synthetic campaigns are not made for them.
OWN_DATA = {"pages", "browsing"}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument(
        "--only",
        default=",".join(STEPS),
        help=f"comma-separated steps, of: {', '.join(STEPS)}; and, not by default, servers (the "
        "load on today's server and the old one) and pg (PostgreSQL)",
    )
    parser.add_argument("--no-write", action="store_true", help="do not write RESULTS.md")
    args = parser.parse_args(argv)
    steps = [s.strip() for s in args.only.split(",") if s.strip()]
    began = time.perf_counter()
    print(f"machine: {figures.machine()}", flush=True)
    print("data (cached under bench/.cache/):", flush=True)
    big = "memory" in steps or "front" in steps
    if set(steps) - OWN_DATA:
        for size in ("1k", "10k", "100k") + (("1M",) if big else ()):
            data.database(size)
    work = Path(tempfile.mkdtemp(prefix="tracker-bench-", dir=data.CACHE))
    results, shared = [], None
    try:
        for step in steps:
            print(f"-- {step}", flush=True)
            if step == "append":
                new = figures.appends(work)
            elif step == "import":
                new = [figures.importing(work)]
            elif step == "fold":
                new = figures.folding(work)
            elif step == "roster":
                new = [figures.roster(), figures.state_at_size()]
            elif step == "travel":
                new = [figures.time_travel()]
            elif step == "front":
                new = front.run()
            elif step == "pages":
                new = pages.run()
            elif step == "http":
                figure, shared = http.run(work)
                new = [figure]
            elif step == "live":
                figure, details = live.run(work)
                new = [figure]
                for name, values in details.items():
                    print(f"   {name}: {live.shown(values)}", flush=True)
            elif step == "load":
                new, details = load.run(work)
                for name, text in details.items():
                    print(f"   {name}: {text}", flush=True)
            elif step == "streams":
                new, details = streams.crowd(work)
                for name, text in details.items():
                    print(f"   {name}: {text}", flush=True)
            elif step == "servers":  # not among the default steps: the old server is history
                new = []
                for name, text in streams.servers(work).items():
                    print(f"   {name}: {text}", flush=True)
            elif step == "memory":
                new = [figures.memory()]
            elif step == "browsing":
                new = [browsing.run(work)[0]]
            elif step == "pg":  # not among the default steps: it starts a PostgreSQL
                from bench import postgres

                new, scaling, mixed = postgres.run(work)
                print("   app servers against one PostgreSQL: " + postgres.describe(scaling))
                print("   target 1's load on PostgreSQL: " + postgres.describe_load(mixed))
            else:
                parser.error(f"unknown step {step!r}")
            for figure in new:
                print("   " + line(figure), flush=True)
            results += new
            if step == "http":
                print(
                    "   one campaign, 8 clients, expected versions and retries: "
                    + ", ".join(
                        f"{k} {v if not isinstance(v, float) else round(v, 2)}"
                        for k, v in shared.items()
                    ),
                    flush=True,
                )
    finally:
        shutil.rmtree(work, ignore_errors=True)
    seconds = time.perf_counter() - began
    passed = sum(f.passed for f in results)
    print(f"{passed} of {len(results)} figures pass ({seconds:.0f} s)")
    if not args.no_write:
        write(results, shared, seconds)
    return 0 if passed == len(results) else 1


def line(f: figures.Figure) -> str:
    return (
        f"{'PASS' if f.passed else 'FAIL'}  {f.name}: {f.ratio:.2f} (target {f.target_text})"
        f" = {f.ours} {f.ours_value:,.1f} / {f.theirs} {f.theirs_value:,.1f} {f.unit}"
    )


# The latest run's part of RESULTS.md: a run rewrites it and keeps what comes before it (the
# table of the speed devices, edited by hand); the diary is bench/HISTORY.md, never written.
LATEST_RUN = "## The latest run"


def write(results, shared, seconds) -> None:
    out = [
        LATEST_RUN,
        "",
        f"Run {datetime.datetime.now().isoformat(timespec='seconds')} with `python -m bench` "
        f"in {seconds:.0f} s on: {figures.machine()}.",
        "",
        "| figure | ratio | target | result | ours | against | note |",
        "|---|---|---|---|---|---|---|",
    ]
    for f in results:
        out.append(
            f"| {f.name} | {f.ratio:.2f} | {f.target_text} | {'pass' if f.passed else 'FAIL'} "
            f"| {f.ours}: {f.ours_value:,.1f} {f.unit} | {f.theirs}: {f.theirs_value:,.1f} "
            f"{f.unit} | {f.note} |"
        )
    if shared:
        out += [
            "",
            "One campaign, 8 clients at once over HTTP, expected versions, retry on "
            "409 (no ratio):",
            "",
        ]
        out += [
            f"- {k}: {v if not isinstance(v, float) else round(v, 2)}" for k, v in shared.items()
        ]
    RESULTS.write_text(kept_above(RESULTS) + "\n".join(out) + "\n", encoding="utf-8")


def kept_above(results: Path) -> str:
    """What RESULTS.md holds before its latest run (the devices' table), kept as it is."""
    text = results.read_text(encoding="utf-8") if results.exists() else ""
    if LATEST_RUN in text:
        return text[: text.index(LATEST_RUN)]
    return "# Bench results\n\n"
