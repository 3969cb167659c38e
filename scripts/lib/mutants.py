"""What the mutation scripts share (scripts/eval/mutation.py, scripts/bench/contest_size_bench.py):
first-order mutants of a C or C++ judge, building them, the brute-force suite of cases with the
engine's answers, and each program's ground truth on it (held to CPU time, as judge systems
count it)."""
import hashlib
import os
import re
import resource
import shutil
import signal
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REFEREE = os.path.join(ROOT, "target", "release", "referee")
# Cases per suite file in the multi-case form.
PER_FILE = 100

TOKEN = re.compile(
    r'(?P<str>"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\')'
    r"|(?P<num>\b\d+\b)"
    r"|(?P<op><<=|>>=|<=|>=|==|!=|&&|\|\||\+\+|--|\+=|-=|->|<<|>>|::|[<>+\-*/!])"
    r"|(?P<id>[A-Za-z_]\w*)"
    r"|(?P<other>\S)"
)
REPLACE = {
    "<": ["<=", ">="],
    "<=": ["<", ">"],
    ">": [">=", "<="],
    ">=": [">", "<"],
    "==": ["!="],
    "!=": ["=="],
    "&&": ["||"],
    "||": ["&&"],
    "+": ["-"],
    "-": ["+"],
    "*": ["/"],
    "/": ["*"],
    "++": ["--"],
    "--": ["++"],
    "+=": ["-="],
    "-=": ["+="],
    "!": [""],
}
OPERAND_END = re.compile(r"[\w)\]]$")


def active_lines(lines):
    """The indices of the lines compiled without defines: code outside `#ifdef NAME` blocks
    (their `#else` branches in), preprocessor lines and comments excluded."""
    stack, out, in_comment = [], [], False
    for i, line in enumerate(lines):
        text = line.strip()
        if text.startswith("#"):
            word = text[1:].split()
            if word and word[0] in ("ifdef", "if"):
                stack.append(False)
            elif word and word[0] == "ifndef":
                stack.append(True)
            elif word and word[0] == "else" and stack:
                stack[-1] = not stack[-1]
            elif word and word[0] == "endif" and stack:
                stack.pop()
            continue
        if all(stack):
            out.append(i)
    return out


def code_segments(line, in_comment):
    """The parts of `line` that are code (outside comments), and whether a block comment is
    still open at its end."""
    parts, i = [], 0
    while i < len(line):
        if in_comment:
            end = line.find("*/", i)
            if end < 0:
                return parts, True
            i, in_comment = end + 2, False
            continue
        block, rest = line.find("/*", i), line.find("//", i)
        stops = [p for p in (block, rest) if p >= 0]
        stop = min(stops) if stops else len(line)
        parts.append((i, line[i:stop]))
        if stop == len(line) or stop == rest:
            return parts, False
        i, in_comment = stop + 2, True
    return parts, in_comment


def mutants_of(source):
    """Every first-order mutant of `source`: (line number, column, operator, from, to)."""
    lines = source.split("\n")
    active = set(active_lines(lines))
    found, in_comment = [], False
    for i, line in enumerate(lines):
        segments, in_comment = code_segments(line, in_comment)
        if i not in active:
            continue
        for start, text in segments:
            previous = ""
            for m in TOKEN.finditer(text):
                kind, tok, col = m.lastgroup, m.group(), start + m.start()
                if kind == "num":
                    value = int(tok)
                    for new in (value + 1, value - 1):
                        if new >= 0:
                            found.append((i + 1, col, "constant", tok, str(new)))
                elif kind == "op" and tok in REPLACE:
                    binary = bool(OPERAND_END.search(previous))
                    if tok in ("+", "-", "*") and not binary:
                        pass  # a sign or a pointer, not arithmetic
                    elif tok == "!" and binary:
                        pass
                    else:
                        group = {"!": "not removed", "++": "increment", "--": "increment",
                                 "+=": "increment", "-=": "increment", "&&": "logical",
                                 "||": "logical"}.get(tok)
                        group = group or ("arithmetic" if tok in "+-*/" else "relational")
                        for new in REPLACE[tok]:
                            found.append((i + 1, col, group, tok, new))
                previous = tok
    return found


def apply(source, mutant):
    line, col, _, old, new = mutant
    lines = source.split("\n")
    text = lines[line - 1]
    assert text[col:col + len(old)] == old, (mutant, text)
    lines[line - 1] = text[:col] + new + text[col + len(old):]
    return "\n".join(lines)


def build(source_path, binary):
    compiler = "c++" if source_path.endswith((".cpp", ".cc")) else "cc"
    flags = ["-O2", "-w"] + (["-std=gnu++17"] if compiler == "c++" else ["-std=gnu17"])
    done = subprocess.run([compiler, *flags, "-o", binary, source_path, "-lm"],
                          capture_output=True, stdin=subprocess.DEVNULL, timeout=300)
    return done.returncode == 0


def lines(text):
    """The lines of an output as referee compares them (src/util/answer.rs): blanks at the end of
    each line and one final newline ignored, so that a program passes a case when referee
    would say AC (a presentation error fails it, as on UVa)."""
    if text.endswith(b"\n"):
        text = text[:-1]
    return [line.rstrip(b" \t\r") for line in text.split(b"\n")]


def cpu_limit(seconds):
    """Holds the child to `seconds` of CPU time (SIGXCPU, then SIGKILL a second later)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
    return limit


def fails_on(binary, path, seconds):
    """How the program fails on input file `path` against its `.ans`, or None: held to
    `seconds` of CPU time, and to ten times that of wall-clock time (a program that sleeps)."""
    with open(path, "rb") as f:
        try:
            run = subprocess.run([binary], stdin=f, capture_output=True,
                                 timeout=10 * seconds, preexec_fn=cpu_limit(seconds))
        except subprocess.TimeoutExpired:
            return "timeout"
    if run.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return "timeout"
    if run.returncode != 0:
        return f"exit {run.returncode}"
    with open(path[:-3] + ".ans", "rb") as f:
        expected = f.read()
    if lines(run.stdout) != lines(expected):
        return "wrong answer" if run.stdout.split() != expected.split() else "presentation"
    return None


def ground_truth(binary, suite, timeout):
    """The first suite file the program fails, and how; None when it passes them all. The
    suite is its files without the largest boards, then those with them: `largest` says
    whether the program fails only those."""
    others, largest = suite
    for part, files in (("others", others), ("largest", largest)):
        for path in files:
            why = fails_on(binary, path, timeout)
            if why:
                return {"file": os.path.basename(path), "how": why,
                        "largest": part == "largest"}
    return None


# How each game writes cases in its multi-case form, and verdicts between them.
def join(game, inputs):
    if game == "pousse":
        return f"{len(inputs)}\n".encode() + b"".join(b"\n" + i for i in inputs)
    if game == "littlesquares":
        return b"\n".join(inputs)
    return b"".join(inputs)


BETWEEN = {"pousse": b"\n", "littlesquares": b"", "somegame": b"\n"}


def on_largest_board(game, text):
    """Whether a case (in the single-case form) is on the contest's largest board: N = 100,
    a 10 x 10 grid, 10,000 squares."""
    lines = text.split(b"\n")
    if game == "pousse":
        return lines[0].strip() == b"100"
    if game == "littlesquares":
        rows = [l for l in lines if l.strip()]
        return len(rows) == 10 and len(rows[0].strip()) == 10
    header = lines[0].split()
    return len(header) == 4 and int(header[1]) * int(header[2]) == 10_000


def make_suite(game, form, count, seed, out):
    """The brute-force suite: `count` cases as `referee audit` draws them, with the engine's
    answers, in the judge's form (files of PER_FILE cases in the multi-case form); the cases on
    the largest board in files of their own. The files without them, and those with them."""
    per_file = PER_FILE if form == "multi" else 1
    singles = out + "-single"
    subprocess.run([REFEREE, "gen", game, "--like-audit", "--form", "single", "--count",
                    str(count), "--seed", str(seed), "--answers", "--out", singles],
                   check=True, capture_output=True, stdin=subprocess.DEVNULL, timeout=600)
    parts = {False: [], True: []}
    for name in sorted(f for f in os.listdir(singles) if f.endswith(".in")):
        with open(os.path.join(singles, name), "rb") as f:
            text = f.read()
        with open(os.path.join(singles, name[:-3] + ".ans"), "rb") as f:
            answer = f.read()
        parts[on_largest_board(game, text)].append((text, answer))
    os.makedirs(out, exist_ok=True)
    files = {}
    for largest, cases in parts.items():
        files[largest] = []
        for k in range(0, len(cases), per_file):
            chunk = cases[k:k + per_file]
            path = os.path.join(out, f"{'largest' if largest else 'other'}-{k // per_file:05}")
            inputs = [c[0] for c in chunk]
            with open(path + ".in", "wb") as f:
                f.write(join(game, inputs) if form == "multi" else inputs[0])
            with open(path + ".ans", "wb") as f:
                f.write(BETWEEN[game].join(c[1] for c in chunk))
            files[largest].append(path + ".in")
    shutil.rmtree(singles)
    return files[False], files[True]


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()
