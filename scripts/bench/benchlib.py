"""What the shell benchmarks of scripts/bench/ share (Python standard library only).

The programs beside it (`NAME.py`, run by `NAME.sh`) import it with

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import benchlib

It holds: running `sudolab solve ... --csv` and reading its rows, the CPU of a row
(build_s + solve_s), which statuses answer and which are limits, medians and nearest-rank
quantiles, rates printed as `key=value`, a child's wall time, CPU time and peak RSS (wait4),
the header line of a run (date, cores, CPU model, load, commit) and the path of a timing
program of benches/ that cargo built.

Run as a program, it prints the header line (`benchlib.py header [TEXT]`), the load line at
the end (`benchlib.py load-after [TEXT]`), the median of numbers read one per line from stdin
(`benchlib.py median`), or builds a timing program of benches/ and prints its path
(`benchlib.py build-bench NAME`, in the current directory's crate, with $CARGO_TARGET_DIR;
`benchlib.py flags-slug FLAGS` names the directory of a build with other flags).
"""

import csv
import io
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone

# A row's `puzzle` and `solution` of a 400x400 grid are far longer than csv's default limit.
csv.field_size_limit(1 << 30)

# Statuses that answer the question asked (see docs/usage.md); any other is a limit, an
# error or an unsupported puzzle.
ANSWERED = ("unique", "multiple", "unsat", "solved")
LIMITS = ("node-limit", "time-limit", "memory-limit")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sudolab_bin():
    """The release binary cargo built: $SUDOLAB_BIN, else under $CARGO_TARGET_DIR (relative
    to the repository) or target/."""
    if os.environ.get("SUDOLAB_BIN"):
        return os.environ["SUDOLAB_BIN"]
    target = os.environ.get("CARGO_TARGET_DIR", "target")
    return os.path.join(ROOT, target, "release", "sudolab")


def parse_rows(text):
    """The rows of a CSV text (a list of dicts keyed by column)."""
    return list(csv.DictReader(io.StringIO(text)))


def read_rows(path):
    """The rows of a CSV file."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def solve(path, *args, bin=None, check=True):
    """Runs `sudolab solve PATH --csv ARGS...` and returns its rows. With check (the
    default) a non-zero exit raises CalledProcessError."""
    cmd = [bin or sudolab_bin(), "solve", str(path), "--csv", *map(str, args)]
    p = subprocess.run(cmd, capture_output=True, text=True, check=check)
    return parse_rows(p.stdout)


def options(spec):
    """`--option KEY=VALUE` arguments of a spec `k=v,k=v` (empty: none)."""
    args = []
    for kv in filter(None, spec.split(",")):
        args += ["--option", kv]
    return args


def cpu(row):
    """Thread CPU seconds of a row: build_s + solve_s (an empty cell counts 0)."""
    return float(row.get("build_s") or 0) + float(row.get("solve_s") or 0)


def cpu_or_limit(row, limit):
    """A row's CPU seconds, or the time limit for a row stopped by it."""
    return float(limit) if row["status"] == "time-limit" else cpu(row)


def answered(row):
    return row["status"] in ANSWERED


def is_limit(row):
    return row["status"] in LIMITS


median = statistics.median
mean = statistics.mean


def rank(sorted_xs, q):
    """The nearest-rank q-quantile of sorted values (q = 0.75: the 75th percentile)."""
    return sorted_xs[max(0, math.ceil(q * len(sorted_xs)) - 1)]


def rates(text, key):
    """Every number printed as `KEY=NUMBER` in a program's output, in order."""
    return [float(m) for m in re.findall(rf"(?<![\w]){re.escape(key)}=([0-9.]+)", text)]


def rates_of_file(path, key):
    with open(path) as f:
        return rates(f.read(), key)


class Timed:
    """What `run_timed` measured of a child: exit code, wall seconds, user + system CPU
    seconds and peak RSS in MiB."""

    def __init__(self, returncode, wall, cpu, rss_mb):
        self.returncode, self.wall, self.cpu, self.rss_mb = returncode, wall, cpu, rss_mb


def run_timed(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
    """Runs a command and measures it from outside: wall time from start to exit, and from
    wait4 the child's own CPU time and peak RSS (ru_maxrss, KiB on Linux)."""
    start = time.monotonic()
    p = subprocess.Popen(args, stdout=stdout, stderr=stderr)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    return Timed(p.returncode, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def load():
    """The load average over 1, 5 and 15 minutes, as /proc/loadavg gives it."""
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return " ".join(line.split(":", 1)[1].split())
    except OSError:
        pass
    return "unknown CPU"


def commit():
    """The short commit of the checkout, `+dirty` when src/ has changes."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout.strip()
        clean = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "src"],
                               cwd=ROOT).returncode == 0
        return head + ("" if clean else "+dirty")
    except (OSError, subprocess.CalledProcessError):
        return "unknown commit"


def now():
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def header(text=""):
    """The first line of a benchmark's output: `# DATE N cores (CPU), load L1 L5 L15, COMMIT`
    and the run's own TEXT (its parameters)."""
    line = f"# {now()} {os.cpu_count()} cores ({cpu_model()}), load {load()}, {commit()}"
    return f"{line}; {text}" if text else line


def load_after(text=""):
    """The last line: the date and the load average at the end."""
    line = f"# {now()} load after: {load()}"
    return f"{line}; {text}" if text else line


def flags_slug(flags):
    """Code-generation flags as a directory-name part: `-C target-cpu=native` ->
    `C-target-cpu-native`."""
    return re.sub(r"[^A-Za-z0-9]+", "-", flags).strip("-")


def build_bench(name, cwd=ROOT):
    """Builds the timing program benches/NAME.rs (release profile) in the crate at cwd and
    returns the path of its executable, which cargo names with a hash under
    target/release/deps/ and reports in its JSON messages. With BENCH_RUSTFLAGS set (e.g.
    `-C target-cpu=native`) it is built with those flags as RUSTFLAGS, in bench-FLAGS/ under
    the target directory ($CARGO_TARGET_DIR, else target/)."""
    env = dict(os.environ)
    flags = env.pop("BENCH_RUSTFLAGS", "").strip()
    if flags:
        # Other code-generation flags, other artefacts: a target directory of their own
        # (under the target directory, named by the flags), so that the default build is not
        # redone.
        env["RUSTFLAGS"] = flags
        base = env.get("CARGO_TARGET_DIR") or os.path.join(cwd, "target")
        env["CARGO_TARGET_DIR"] = os.path.join(base, "bench-" + flags_slug(flags))
    p = subprocess.run(["cargo", "build", "--release", "--quiet", "--bench", name,
                        "--message-format=json"], cwd=cwd, env=env, capture_output=True,
                       text=True)
    exe = None
    for line in p.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == name:
            exe = msg.get("executable") or exe
    if p.returncode != 0 or not exe:
        sys.stderr.write(p.stderr)
        sys.exit(f"cargo build --bench {name} failed in {cwd}")
    return exe


def main(argv):
    what, rest = (argv[0], argv[1:]) if argv else ("", [])
    if what == "header":
        print(header(" ".join(rest)))
    elif what == "load-after":
        print(load_after(" ".join(rest)))
    elif what == "median":
        print(f"{median(float(x) for x in sys.stdin.read().split()):g}")
    elif what == "flags-slug":
        print(flags_slug(" ".join(rest)))
    elif what == "build-bench" and len(rest) == 1:
        print(build_bench(rest[0], cwd=os.getcwd()))
    else:
        sys.exit("usage: benchlib.py header [TEXT] | load-after [TEXT] | median | build-bench NAME")


if __name__ == "__main__":
    main(sys.argv[1:])
