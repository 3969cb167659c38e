#!/usr/bin/env python3
"""Mutation testing of `referee audit`: how many wrong judges does it prove wrong?

For each game, a C (or C++) judge that reads the contest's own input form is mutated, one
change per copy (first-order mutants): relational operators (< <= > >= == !=, to their
boundary or their negation), logical operators (&& ||), arithmetic (+ - * /), increments
(++ --, += -=), a logical not removed, and integer constants (n to n + 1 and n - 1, loop
bounds and buffer sizes among them). Each mutant that builds, and whose binary differs from
the original's, gets a ground truth: it runs on a brute-force suite (`referee gen
--like-audit`: thousands of cases inside the contest's limits, the game's extremes and corners among them,
in the judge's form, with the engine's answers); a mutant that fails a case (an output referee
would not call AC: a wrong answer, a presentation error, a crash, a timeout) is *killable*, and
it *needs the largest board* when it fails only the cases on the contest's largest board (N =
100, a 10 x 10 grid, 10,000 squares), which the suite keeps in files of their own.
Then every mutant is audited bare (`referee audit GAME --cmd MUTANT --cases 20000
--shrink-time 5`: a budget of cases, which a busy machine does not shrink, and short shrinking to
keep hanging mutants quick), and each finding's saved case is run again on the mutant as saved:
a finding the mutant passes is an *artifact*.

Every limit is CPU time, as judge systems count it (the suite's runs are held to it by
RLIMIT_CPU, the audit's by referee), and the audit's budget is a number of cases: killable,
found and artifacts are the same on a busy machine as on an idle one (docs/testing.md has both).

Reports, per game: mutants, built, same binary as the original, killable, found (killable
mutants the audit proves wrong), missed (each with its change and the suite case it fails),
artifacts, found beyond the suite (mutants the suite passes that the audit proves wrong with a
real failing case), and the time to a finding. Markdown on standard output, every detail in
OUT/mutation.json.

Usage:
  scripts/eval/mutation.py [--games pousse,littlesquares,somegame] [--cases 20000] [--suite 5000]
                      [--sample N] [--killable-only] [--judge GAME=FILE[:FORM]] [--out DIR]
                      [--target 0.99] [--shrink-time 5]
  --judge   audit mutants of another judge (a public solution kept outside the repository),
            repeatable: a game given --judge is run on those judges instead of its defaults
            (JUDGES below); FORM is single or multi (the form it reads).
  --sample  audit only N killable mutants per judge, chosen by --seed (what CI runs).
Exit 1 when a judge's found/killable is below --target or an artifact appears.
Needs cc (and c++ for .cpp judges) and a release build of referee (built if missing)."""
import argparse
import concurrent.futures
import csv
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from mutants import (REFEREE, ROOT, apply, build, digest, fails_on, ground_truth,  # noqa: E402
                     make_suite, mutants_of)

# The judges mutated by default: game, source, the form it reads. pousse_contest.c is written as
# a contestant writes one (arrays sized to the limits, the board cleared by loops, one global
# state reused across games).
JUDGES = [
    ("pousse", "examples/judges/pousse_uva.c", "multi"),
    ("pousse", "examples/judges/pousse_contest.c", "multi"),
    ("littlesquares", "examples/judges/littlesquares_tc.c", "single"),
    ("somegame", "examples/judges/somegame.c", "multi"),
]
# The hang guard of one audit, in seconds of wall-clock time: an audit of a mutant takes
# seconds (docs/testing.md); one that runs past this is reported, never waited for.
AUDIT_GUARD = 600


def progress(message):
    """A line on standard error, so that a log shows how far a run got."""
    print(message, file=sys.stderr, flush=True)


def audit(game, binary, out, args):
    started = time.time()
    command = [REFEREE, "audit", game, "--cmd", binary, "--cases", str(args.cases),
               "--shrink-time", str(args.shrink_time), "--out", out]
    try:
        run = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                             timeout=AUDIT_GUARD)
    except subprocess.TimeoutExpired as hung:
        said = (hung.stderr or b"").decode(errors="replace").strip().split("\n")[-3:]
        return {"exit": None, "seconds": round(time.time() - started, 2), "findings": [],
                "proved": False, "said": [f"still running after {AUDIT_GUARD} s: "
                                          f"{' '.join(command)}"] + said}
    elapsed = time.time() - started
    rows = []
    # The one program's findings: programs/NAME/findings.csv, its files beside it.
    programs = os.path.join(out, "programs")
    dirs = [os.path.join(programs, d) for d in os.listdir(programs)] if os.path.isdir(
        programs) else []
    program = dirs[0] if dirs else out
    path = os.path.join(program, "findings.csv")
    if os.path.exists(path):
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    findings = []
    for row in rows:
        real = row["kind"] not in ("flaky", "engine-disputed")
        passes = real and fails_on(binary, os.path.join(program, row["input"]), 20) is None
        findings.append({"kind": row["kind"], "case": row["case"], "input": row["input"],
                         "detail": row["detail"], "artifact": passes})
    proved = run.returncode == 1 and any(
        f["kind"] not in ("flaky", "engine-disputed") and not f["artifact"] for f in findings)
    last = [l for l in run.stderr.strip().split("\n") if l][-3:]
    return {"exit": run.returncode, "seconds": round(elapsed, 2), "findings": findings,
            "proved": proved, "said": last}



def game_run(game, source_path, form, args, work):
    """Mutants, ground truth and audits of one game; the record of each mutant."""
    with open(source_path) as f:
        source = f.read()
    gdir = os.path.join(work, game, os.path.splitext(os.path.basename(source_path))[0])
    os.makedirs(gdir, exist_ok=True)
    ext = os.path.splitext(source_path)[1]
    original = os.path.join(gdir, "original")
    shutil.copy(source_path, os.path.join(gdir, "judge" + ext))
    started = time.time()
    if not build(os.path.join(gdir, "judge" + ext), original):
        sys.exit(f"{source_path} does not build")
    suite = make_suite(game, form, args.suite, args.suite_seed, os.path.join(gdir, "suite"))
    wrong = ground_truth(original, suite, 30)
    if wrong:
        sys.exit(f"{source_path} itself fails the suite: {wrong}")
    progress(f"  {game} {os.path.basename(source_path)}: the suite ({sum(map(len, suite))} "
             f"files) made and passed by the original in {time.time() - started:.1f} s")
    base = digest(original)
    records, seen = [], {}
    for n, mutant in enumerate(mutants_of(source), 1):
        name = f"m{n:03d}"
        mdir = os.path.join(gdir, name)
        os.makedirs(mdir, exist_ok=True)
        path = os.path.join(mdir, "judge" + ext)
        with open(path, "w") as f:
            f.write(apply(source, mutant))
        line, col, group, old, new = mutant
        record = {"name": name, "line": line, "column": col + 1, "operator": group,
                  "change": f"{old or '(nothing)'} -> {new or '(nothing)'}",
                  "text": source.split("\n")[line - 1].strip()}
        binary = os.path.join(mdir, "judge")
        if not build(path, binary):
            record["status"] = "does not build"
        else:
            d = digest(binary)
            if d == base:
                record["status"] = "same binary as the original"
            elif d in seen:
                record["status"] = f"same binary as {seen[d]}"
            else:
                seen[d] = name
                record["status"] = "built"
                record["binary"] = binary
        records.append(record)
    built = [r for r in records if r["status"] == "built"]
    progress(f"  {game} {os.path.basename(source_path)}: {len(records)} mutants, "
             f"{len(built)} distinct binaries, built in {time.time() - started:.1f} s")
    if args.sample:
        # Only as many ground truths as it takes to find the sample's killable mutants.
        chosen = []
        for r in random.Random(args.seed).sample(built, len(built)):
            truth = ground_truth(r["binary"], suite, 10)
            r["killable"], r["suite_failure"] = truth is not None, truth
            if r["killable"]:
                chosen.append(r)
            if len(chosen) == args.sample:
                break
        built[:] = [r for r in built if "killable" in r]
        progress(f"  {game} {os.path.basename(source_path)}: {len(chosen)} killable among "
                 f"{len(built)} ground truths, at {time.time() - started:.1f} s")
    else:
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
            truths = pool.map(lambda r: ground_truth(r["binary"], suite, 10), built)
            for r, truth in zip(built, truths):
                r["killable"] = truth is not None
                r["suite_failure"] = truth
        chosen = [r for r in built if r["killable"]] if args.killable_only else built
    for i, r in enumerate(chosen, 1):
        r["audit"] = audit(game, r["binary"], os.path.join(gdir, "audits", r["name"]), args)
        progress(f"  {game} {i}/{len(chosen)} {r['name']} ({r['change']} line {r['line']}): "
                 f"killable {r['killable']}, proved {r['audit']['proved']} "
                 f"in {r['audit']['seconds']} s")
    return records


def summary(game, records, judge):
    built = [r for r in records if r["status"] == "built"]
    audited = [r for r in built if "audit" in r]
    killable = [r for r in audited if r["killable"]]
    found = [r for r in killable if r["audit"]["proved"]]
    missed = [r for r in killable if not r["audit"]["proved"]]
    largest = [r for r in killable if r["suite_failure"]["largest"]]
    beyond = [r for r in audited if not r["killable"] and r["audit"]["proved"]]
    artifacts = [r for r in audited if any(f["artifact"] for f in r["audit"]["findings"])]
    times = sorted(r["audit"]["seconds"] for r in found)
    return {
        "game": game, "judge": judge, "mutants": len(records),
        "built": len(built) + sum(r["status"].startswith("same binary") for r in records),
        "same binary": sum(r["status"].startswith("same binary") for r in records),
        "distinct": len(built), "killable": sum(r.get("killable", False) for r in built),
        "audited": len(audited), "audited killable": len(killable), "found": len(found),
        "missed": missed, "beyond": len(beyond), "artifacts": artifacts,
        "largest": len(largest), "largest found": sum(r["audit"]["proved"] for r in largest),
        "median seconds": times[len(times) // 2] if times else None,
        "slowest seconds": times[-1] if times else None,
    }


def markdown(summaries):
    out = ["| game | judge | mutants | distinct binaries | killable | audited | found | "
           "missed | artifacts | found beyond the suite | needing the largest board: found | "
           "time to a finding (median, max) |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for s in summaries:
        share = (f"{s['found']}/{s['audited killable']} "
                 f"({100 * s['found'] / max(1, s['audited killable']):.1f}%)")
        out.append(f"| {s['game']} | `{s['judge']}` | {s['mutants']} | {s['distinct']} | "
                   f"{s['killable']} | {s['audited']} | {share} | {len(s['missed'])} | "
                   f"{len(s['artifacts'])} | {s['beyond']} | "
                   f"{s['largest found']}/{s['largest']} | "
                   f"{s['median seconds']} s, {s['slowest seconds']} s |")
    for s in summaries:
        for r in s["missed"]:
            out.append(f"- missed, {s['game']} {r['name']}: line {r['line']} "
                       f"`{r['text']}`, {r['change']} ({r['operator']}); the suite: "
                       f"{r['suite_failure']['file']} ({r['suite_failure']['how']}); the audit: "
                       f"exit {r['audit']['exit']}, {' / '.join(r['audit']['said'])}")
        for r in s["artifacts"]:
            bad = [f for f in r["audit"]["findings"] if f["artifact"]]
            out.append(f"- artifact, {s['game']} {r['name']}: {r['change']} line {r['line']}: "
                       f"{bad}")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="pousse,littlesquares,somegame")
    parser.add_argument("--judge", action="append", default=[])
    parser.add_argument("--cases", type=int, default=20000)
    parser.add_argument("--shrink-time", type=float, default=5)
    parser.add_argument("--suite", type=int, default=5000)
    parser.add_argument("--suite-seed", type=int, default=1000)
    parser.add_argument("--sample", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--killable-only", action="store_true")
    parser.add_argument("--target", type=float, default=0.99)
    parser.add_argument("--out")
    args = parser.parse_args()
    if not os.path.exists(REFEREE):
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    judges = [(g, os.path.join(ROOT, p), f) for g, p, f in JUDGES]
    given = []
    for spec in args.judge:
        game, rest = spec.split("=", 1)
        path, _, form = rest.partition(":")
        default_form = next(f for g, _, f in JUDGES if g == game)
        given.append((game, os.path.abspath(path), form or default_form))
    # A game given --judge is audited on those judges only.
    judges = [j for j in judges if j[0] not in {g for g, _, _ in given}] + given
    work = args.out or tempfile.mkdtemp(prefix="referee-mutation-")
    os.makedirs(work, exist_ok=True)
    # As root, audit runs the programs as nobody, who must reach them.
    os.chmod(work, 0o755)
    summaries, details = [], {}
    for game in args.games.split(","):
        for _, path, form in [j for j in judges if j[0] == game]:
            records = game_run(game, path, form, args, work)
            judge = os.path.relpath(path, ROOT)
            details[f"{game} {judge}"] = records
            summaries.append(summary(game, records, judge))
    with open(os.path.join(work, "mutation.json"), "w") as f:
        json.dump(details, f, indent=1)
    print(markdown(summaries))
    print(f"\n(details in {work}/mutation.json)")
    bad = [f"{s['game']} ({s['judge']})" for s in summaries
           if s["artifacts"] or s["found"] < args.target * s["audited killable"]]
    if bad:
        print(f"below the target, or with artifacts: {', '.join(bad)}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
