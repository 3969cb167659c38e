#!/usr/bin/env python3
"""A contest audit at a real contest's size, measured: `referee audit pousse --programs` on a
set of submissions of one problem, UVa 844, all reading its multi-case form, with three data
files in that form.

The submissions: examples/judges/pousse_uva.c (the problem's accepted solution), the same with
a 32,767-move buffer (-DPLANT_MOVE_BUFFER, a bug only games longer than the buffer reach), and
first-order mutants of pousse_uva.c (scripts/lib/mutants.py's operators; a seeded choice among
those whose binaries differ), the kinds of bugs real submissions have, many of them hanging or
crashing. Every program's ground truth comes from the brute-force suite of scripts/lib/mutants.py
(`referee gen --like-audit`, the engine's answers): wrong when it fails a case.

Prints: the whole run's time and each stage's, runs per second, the cases each program the
data accepts ran (least, median), the wrong programs found (of the wrong ones by the ground
truth; the buffer among them), the correct ones with no finding, the scores before and after
strengthening, the strengthening cases, the candidates dropped (and those dropped because a
program that must pass one did not run it to its end), and the summary's `budget:` line. Exit 1
when a wrong program is not found, a correct one is, or a program the data accepts ran fewer
than --least cases. With --busy, a busy loop per core runs beside the audit.

Usage: scripts/bench/contest_size_bench.py [--programs 109] [--time 280] [--suite 5000] [--seed 1]
                                [--least 2000] [--out DIR] [--busy]"""
import argparse
import csv
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import mutants  # noqa: E402

ROOT, REFEREE = mutants.ROOT, mutants.REFEREE
JUDGE = os.path.join(ROOT, "examples", "judges", "pousse_uva.c")
SAMPLE = "2\n\n4\nL2\nT2\nL2\nB2\nR2\nQUIT\n\n4\nL2\nT2\nL2\nB2\nR2\nT1\nL2\nQUIT\n"


def programs(work, count, seed):
    """The submissions: (name, binary, expected class or '')."""
    with open(JUDGE) as f:
        source = f.read()
    made = []
    for name, defines in [("accepted", []), ("move-buffer", ["-DPLANT_MOVE_BUFFER"])]:
        binary = os.path.join(work, name)
        subprocess.run(["cc", "-O2", "-w", *defines, "-o", binary, JUDGE], check=True)
        made.append((name, binary, "accepted" if name == "accepted" else ""))
    seen = {mutants.digest(made[0][1]), mutants.digest(made[1][1])}
    candidates = []
    for n, mutant in enumerate(mutants.mutants_of(source), 1):
        mdir = os.path.join(work, f"m{n:03d}")
        os.makedirs(mdir, exist_ok=True)
        path = os.path.join(mdir, "judge.c")
        with open(path, "w") as f:
            f.write(mutants.apply(source, mutant))
        binary = os.path.join(mdir, "judge")
        if mutants.build(path, binary) and mutants.digest(binary) not in seen:
            seen.add(mutants.digest(binary))
            candidates.append((f"m{n:03d}", binary, ""))
    chosen = random.Random(seed).sample(candidates, min(count - 2, len(candidates)))
    return made + sorted(chosen)


def data(work):
    """Three data files in the multi-case form: the statement's sample and two files of small
    random games."""
    out = os.path.join(work, "data")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "001-sample.in"), "w") as f:
        f.write(SAMPLE)
    subprocess.run([REFEREE, "gen", "pousse", "--form", "multi", "--per-file", "10", "--count",
                    "2", "--seed", "11", "--n", "4", "--moves", "12", "--out", out],
                   check=True, capture_output=True)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--programs", type=int, default=109)
    parser.add_argument("--time", type=float, default=280)
    parser.add_argument("--suite", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--least", type=int, default=2000)
    parser.add_argument("--out")
    parser.add_argument("--busy", action="store_true")
    args = parser.parse_args()
    if not os.path.exists(REFEREE):
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    work = args.out or tempfile.mkdtemp(prefix="referee-contest-")
    os.makedirs(work, exist_ok=True)
    # As root, audit runs the programs as nobody, who must reach them.
    os.chmod(work, 0o755)
    subs = programs(work, args.programs, args.seed)
    suite = mutants.make_suite("pousse", "multi", args.suite, 1000, os.path.join(work, "suite"))
    inputs = data(work)
    subprocess.run([REFEREE, "gen", "pousse", "--form", "multi", "--per-file", "10", "--count",
                    "2", "--seed", "11", "--n", "4", "--moves", "12", "--out", inputs,
                    "--answers"], check=True, capture_output=True)
    with open(os.path.join(inputs, "001-sample.ans"), "w") as f:
        f.write("TIE GAME\n\nX WINS\n")
    every = sorted(os.path.join(inputs, f) for f in os.listdir(inputs) if f.endswith(".in"))
    others, largest = suite
    wrong = {name: mutants.ground_truth(binary, (every + others, largest), 10) is not None
             for name, binary, _ in subs}
    table = os.path.join(work, "programs.csv")
    with open(table, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["name", "command", "expected"])
        for name, binary, expected in subs:
            w.writerow([name, binary, expected])
    out = os.path.join(work, "audit")
    loops = [subprocess.Popen(["sh", "-c", "while :; do :; done"])
             for _ in range(os.cpu_count() or 1)] if args.busy else []
    started = time.time()
    try:
        run = subprocess.run([REFEREE, "audit", "pousse", "--programs", table, "--inputs",
                              inputs, "--time", str(args.time), "--out", out],
                             capture_output=True, text=True)
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    seconds = time.time() - started
    with open(os.path.join(out, "audit.json")) as f:
        manifest = json.load(f)
    summary, report = manifest["summary"], manifest["report"]
    lines = {p["name"]: p for p in summary["programs"]}
    # The programs the data accepts and no finding proves wrong: each must run the most cases.
    accepted_by_data = [p for p in lines.values()
                        if (p["existing_data"] or "").startswith("accepted")
                        and not p["proved_wrong"]]
    cases = sorted(p["cases"] for p in accepted_by_data)
    rejected = lambda n: not (lines[n]["existing_data"] or "accepted").startswith("accepted")
    caught = lambda n: lines[n]["proved_wrong"] or rejected(n)
    found = [n for n in wrong if wrong[n] and caught(n)]
    missed = [n for n in wrong if wrong[n] and not caught(n)]
    false = [n for n in wrong if not wrong[n] and caught(n)]
    scores = summary["scores"]
    phases = report["effort"]["phases"]
    rate = lambda r: f"{r['hits']}/{r['of']}"
    print(f"| programs | wrong (ground truth) | found (by the data or a finding) | missed | "
          f"correct ones found wrong | "
          f"move buffer found | wall time (s) | {' | '.join(n for n, _ in phases)} "
          f"| runs/s | cases per program the data accepts with no finding (least, median) | TPR before, after "
          f"| TNR before, after | strengthening cases |")
    print("|" + "---|" * (12 + len(phases)))
    print(f"| {len(subs)} | {sum(wrong.values())} | {len(found)} | {len(missed)} | "
          f"{len(false)} | {lines['move-buffer']['proved_wrong']} | {seconds:.0f} | "
          f"{' | '.join(f'{s:.1f}' for _, s in phases)} | "
          f"{summary['runs'] / seconds:.0f} | {cases[0] if cases else '-'}, "
          f"{statistics.median(cases) if cases else '-'} | "
          f"{rate(scores['tpr_existing'])}, {rate(scores['tpr_strengthened'])} | "
          f"{rate(scores['tnr_existing'])}, {rate(scores['tnr_strengthened'])} | "
          f"{len(report['tests'])} |")
    for n in missed:
        print(f"- missed: {n} ({lines[n]['referee_cases']})")
    for n in false:
        print(f"- a correct program proved wrong: {n} ({lines[n]['referee_cases']})")
    dropped = report["dropped"]
    unscreened = [d for d in dropped if "did not run it to its end" in d]
    print(f"- candidates dropped: {len(dropped)}, for a program that did not run one to its end: "
          f"{len(unscreened)}")
    for line in run.stderr.splitlines():
        if line.startswith("budget: "):
            print(f"- {line}")
    print(f"(reports in {out}; exit {run.returncode})")
    if missed or false or not cases or cases[0] < args.least:
        sys.exit(1)


if __name__ == "__main__":
    main()
