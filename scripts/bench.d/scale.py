#!/usr/bin/python3
"""The growth and size rows of scripts/bench (`--growth`, `--songs N` above 200,000): issue 37's
"a command costs what it returns or changes, never the library", measured on libraries without
files made by `import-json` of a generated log (bench.d/mkbig.py). Prints figures; never asserts
a timing; exits 0 whatever boomic does.

    scale.py --boomic BIN --bench-dir DIR --sizes 20000,200000 [--history T] [--batch B]

Each size gets a library of N songs (mkbig.py: imports of B songs, then mkhistory.py's edits up
to T transactions), cached in DIR/big-N-T-B-HASH per binary and generator. On it, as whole
processes with stdout to /dev/null: `--version`, the open (`history -n 1`), `ls artist:A0042`
(100 songs), `ls -a artist:A0042`, the peak anonymous memory of that `ls`, `modify artist:A000
genre=… -y` (1,000 songs, on a copy), `rollback HEAD~5000 -y` and its `undo -y` (on a copy), and
`verify` (up to --verify-max songs). With two sizes, the sizes take turns run by run (a change of
the shared machine's load hits both alike), and each row's ratio, the larger size's figure over
the smaller's, is printed against issue 37's ≤ 1.5×.
"""
import argparse
import ctypes
import datetime
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import threading
import time

from bench import Failed, fmt_time, loadavg  # the library bench's own: one definition of each

HERE = os.path.dirname(os.path.abspath(__file__))
T_START = time.perf_counter()
LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.ptrace.restype = ctypes.c_long
LIBC.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
PTRACE_TRACEME, PTRACE_CONT, PTRACE_SETOPTIONS = 0, 7, 0x4200
PTRACE_O_TRACEEXIT, PTRACE_EVENT_EXIT = 0x40, 6
PR_SET_CHILD_SUBREAPER = 36

Q100, Q1000 = "artist:A0042", "artist:A000"
GOAL_GROWTH = 1.5
ERR_DIR = "/tmp"
CALLGRIND = None  # the stripped binary callgrind runs, when it can


def log(msg):
    print(f"[scale {time.perf_counter() - T_START:6.0f}s] {msg}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------ processes

def env():
    e = dict(os.environ, NO_COLOR="1")
    e.pop("BOOMIC_LIBRARY", None)
    return e


def run1(cmd, capture=False, timeout=None):
    """One whole process, untimed: (wall s, None, stdout bytes)."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, env=env(), stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failed(f"`{' '.join(cmd[1:])}` did not finish within {timeout:.0f} s (stopped)")
    if p.returncode != 0:
        raise Failed(f"`{' '.join(cmd[1:])}` exited {p.returncode}: {p.stderr.decode(errors='replace').strip()[-300:]}")
    return time.perf_counter() - t0, None, p.stdout if capture else b""


def run_wait4(cmd):
    """One whole process, stdout to /dev/null: (wall s, CPU s), the CPU (user + sys of all its
    threads) from wait4(2); stderr goes to a file, so a talkative command never blocks on a pipe."""
    with open(os.path.join(ERR_DIR, "stderr"), "w+b") as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, env=env(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        dt = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            err.seek(0)
            raise Failed(f"`{' '.join(cmd[1:])}` exited {p.returncode}: {err.read().decode(errors='replace').strip()[-300:]}")
    return dt, ru.ru_utime + ru.ru_stime


def children():
    """Pids whose parent is this process: the detached `boomic merge`s a command left (this
    process is their subreaper), zombies included."""
    me, out = os.getpid(), []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            stat = open(f"/proc/{d}/stat").read()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == me:
            out.append(int(d))
    return out


def wait_merges():
    """Waits for the merges the last command started; returns [(seconds waited, CPU s)]."""
    t0, out = time.perf_counter(), []
    for pid in children():
        try:
            _, _, ru = os.wait4(pid, 0)
        except ChildProcessError:
            continue
        out.append((time.perf_counter() - t0, ru.ru_utime + ru.ru_stime))
    return out


def rss_anon_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def peak_anon(cmd):
    """Peak RssAnon (kB) of a process: /proc/PID/status read in a tight loop while it runs, and
    once more at its exit, stopped there by ptrace (PTRACE_O_TRACEEXIT: the exit stop comes
    before its memory is released), so the end state is never missed between two polls.
    Returns (peak kB, at exit kB, VmHWM-like ru_maxrss kB)."""
    pid = os.fork()
    if pid == 0:  # the child: traced, stdout to /dev/null
        try:
            fd = os.open(os.devnull, os.O_RDWR)
            os.dup2(fd, 0)
            os.dup2(fd, 1)
            LIBC.ptrace(PTRACE_TRACEME, 0, None, None)
            os.execve(cmd[0], cmd, env())
        finally:
            os._exit(127)
    _, st = os.waitpid(pid, 0)  # stopped at exec
    LIBC.ptrace(PTRACE_SETOPTIONS, pid, None, ctypes.c_void_p(PTRACE_O_TRACEEXIT))
    peak, stop = [0], [False]

    def poll():
        while not stop[0]:
            a = rss_anon_kb(pid)
            if a and a > peak[0]:
                peak[0] = a
    t = threading.Thread(target=poll, daemon=True)
    t.start()
    LIBC.ptrace(PTRACE_CONT, pid, None, None)
    at_exit = None
    while True:
        _, st, ru = os.wait4(pid, 0)
        if os.WIFSTOPPED(st):
            if (st >> 16) == PTRACE_EVENT_EXIT:
                at_exit = rss_anon_kb(pid)
                sig = 0
            else:
                sig = os.WSTOPSIG(st)
            LIBC.ptrace(PTRACE_CONT, pid, None, ctypes.c_void_p(sig))
            continue
        break
    stop[0] = True
    t.join()
    if os.waitstatus_to_exitcode(st) != 0:
        raise Failed(f"`{' '.join(cmd[1:])}` exited {os.waitstatus_to_exitcode(st)}")
    return max(peak[0], at_exit or 0), at_exit, ru.ru_maxrss


def instructions(cmd):
    """Instructions the process executes (all its threads), counted by callgrind: a figure no
    load on the machine moves, where CPU time does (this VM has no hardware counters for
    `perf stat`). None when valgrind is missing or fails."""
    if not CALLGRIND:
        return None
    out = os.path.join(ERR_DIR, "callgrind.out")
    p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", CALLGRIND] + cmd[1:],
                       env=env(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_merges()
    if os.path.exists(out):
        os.remove(out)
    for line in p.stderr.decode(errors="replace").splitlines():
        if "Collected :" in line and p.returncode == 0:
            return int(line.rsplit(":", 1)[1].strip())
    return None


def callgrind_binary(boomic, bench_dir):
    """A stripped copy of boomic for callgrind (its reader gives up on the static build's debug
    information); the same code. None when valgrind or strip is missing."""
    if not shutil.which("valgrind") or not shutil.which("strip"):
        return None
    h = hashlib.sha256()
    with open(boomic, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    path = os.path.join(bench_dir, f"scale-stripped-{h.hexdigest()[:12]}")
    if not os.path.exists(path):
        for old in os.listdir(bench_dir):
            if old.startswith("scale-stripped-"):
                os.remove(os.path.join(bench_dir, old))
        if subprocess.run(["strip", "-o", path, boomic]).returncode != 0:
            return None
    return path


# ------------------------------------------------------------------ figures

def timed(cmds, runs, warmup=2, slow=1.0):
    """A read command on each size, {n: argv}: a probe of each (also a warm-up; it shows how long
    it takes) and warmup-1 more, then runs rounds in which the sizes take turns, so that a change
    of the machine's load hits every size alike; runs over `slow` s: 3 rounds. Merges a run starts
    are waited for before the next. Returns {n: {t, min, cpu, runs, how}}."""
    ts = {n: [] for n in cmds}
    cs = {n: [] for n in cmds}
    slowest = 0.0
    for n, cmd in cmds.items():
        for k in range(max(1, warmup)):
            dt, _ = run_wait4(cmd)
            wait_merges()
            slowest = max(slowest, dt)
    rounds = 3 if slowest > slow else runs
    for r in range(rounds):
        order = list(cmds) if r % 2 == 0 else list(reversed(cmds))
        for n in order:
            dt, cpu = run_wait4(cmds[n])
            wait_merges()
            ts[n].append(dt)
            cs[n].append(cpu)
    how = f"{max(1, warmup)} warm-up + {rounds} runs" + (", the sizes taking turns" if len(cmds) > 1 else "")
    return {n: {"t": statistics.median(ts[n]), "min": min(ts[n]), "cpu": statistics.median(cs[n]),
                "runs": rounds, "how": how} for n in cmds}


def copy_lib(src, dst):
    """A copy of a library for the writing rows, synced to disk: a copy's pages are dirty, and
    its first commit's fsync (or the WAL folded back at its close) would otherwise flush the
    whole copy inside the command's time (hundreds of megabytes at 200,000 songs)."""
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    os.sync()


def build_library(boomic, n, a, work):
    """The cached N-song library (mkbig.py + import-json); returns (path, info)."""
    h = hashlib.sha256()
    for p in (boomic, os.path.join(HERE, "mkbig.py"), os.path.join(HERE, "mkhistory.py"), os.path.join(HERE, "mklib.py")):
        with open(p, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    name = f"big-{n}-{a.history}-{a.batch}-{h.hexdigest()[:12]}"
    lib = os.path.join(a.bench_dir, name)
    marker = lib + ".done"
    if os.path.exists(marker):
        info = json.load(open(marker))
        info["reused"] = True
        log(f"{n:,}: reusing {lib}")
        return lib, info
    for old in os.listdir(a.bench_dir):  # caches of older binaries or generators
        if old.startswith(f"big-{n}-") and not old.startswith(name):
            p = os.path.join(a.bench_dir, old)
            shutil.rmtree(p, ignore_errors=True) if os.path.isdir(p) else os.remove(p)
    shutil.rmtree(lib, ignore_errors=True)
    gen = os.path.join(work, "log.jsonl")
    summ = os.path.join(work, "summary.json")
    state = os.path.join(work, "state.json") if n <= a.check_max else None
    log(f"{n:,}: generating {n:,} songs and {a.history:,} transactions (mkbig.py)…")
    t0 = time.perf_counter()
    cmd = [sys.executable, os.path.join(HERE, "mkbig.py"), gen, str(n), "--history", str(a.history),
           "--batch", str(a.batch), "--root", os.path.join(a.bench_dir, f"nofiles-{n}"),
           "--summary", summ, "--library-arg", lib] + (["--state", state] if state else [])
    subprocess.run(cmd, check=True)
    t_gen = time.perf_counter() - t0
    summary = json.load(open(summ))
    log(f"{n:,}: generated in {t_gen:.0f} s ({summary['bytes'] / 1e6:.0f} MB); import-json… (load {loadavg()})")
    load0 = loadavg()
    t0 = time.perf_counter()
    p = subprocess.Popen([boomic, "--library", lib, "import-json", gen], env=env(), stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    t_ij = time.perf_counter() - t0
    out, err = p.stdout.read().decode(errors="replace").strip(), p.stderr.read().decode(errors="replace").strip()
    merges = wait_merges()
    if os.waitstatus_to_exitcode(status) != 0:
        shutil.rmtree(lib, ignore_errors=True)
        raise Failed(f"import-json of {n:,} songs exited {os.waitstatus_to_exitcode(status)} after {t_ij:.0f} s: {err[-400:]}")
    log(f"{n:,}: import-json {t_ij:.1f} s, CPU {ru.ru_utime + ru.ru_stime:.1f} s, max RSS {ru.ru_maxrss / 1024:.0f} MB; {out}")
    _, _, hist = run1([boomic, "--library", lib, "history", "-n", "1", "--json"], capture=True)
    seq = json.loads(hist.decode())[0]["seq"]
    if seq != summary["transactions"]:
        raise Failed(f"import-json left {seq} transactions, expected {summary['transactions']}")
    check = "not checked (over --check-max songs)"
    if state:
        _, _, js = run1([boomic, "--library", lib, "ls", "--json"], capture=True)
        want = json.load(open(state))
        got = {s["id"]: s for s in json.loads(js.decode())}
        bad = [sid for sid, w in want.items() if sid not in got or
               (got[sid].get("title"), got[sid].get("genre"), got[sid].get("rating"),
                sorted(t.lstrip("#") for t in got[sid].get("tags") or [])) !=
               (w["title"], w["genre"], w["rating"], w["tags"])]
        check = ("every song's title, genre, rating and tags as generated" if not bad and len(got) == n
                 else f"{len(bad)} songs differ from the generated state ({len(got)} listed)")
    info = {"songs": n, "seq": seq, "summary": summary, "gen_seconds": t_gen,
            "import_json": t_ij, "import_json_cpu": ru.ru_utime + ru.ru_stime, "import_json_maxrss_kb": ru.ru_maxrss,
            "import_json_load": f"{load0} → {loadavg()}", "import_json_out": out,
            "import_json_merges": merges, "state_check": check,
            "disk_mb": sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(lib) for f in fs) / 1e6}
    with open(marker, "w") as f:
        json.dump(info, f)
    os.remove(gen)
    return lib, info


def measure(boomic, sizes, a):
    """Every row on every size; the sizes take turns run by run. Returns {n: results}."""
    R = {n: {"load_start": loadavg()} for n in sizes}
    libs, works = {}, {}
    for n in sizes:
        works[n] = os.path.join(a.bench_dir, f"scale-run-{n}")
        shutil.rmtree(works[n], ignore_errors=True)
        os.makedirs(works[n])
        try:
            libs[n], R[n]["info"] = build_library(boomic, n, a, works[n])
        except (Failed, subprocess.CalledProcessError) as e:
            R[n]["failed"] = f"making the library: {e}"
            log(R[n]["failed"])
    S = [n for n in sizes if n in libs]
    if not S:
        return R
    B = lambda n, L, *x: [boomic, "--library", L] + list(x)
    write_runs = a.write_runs if a.write_runs is not None else (3 if max(S) <= 200000 else 1)
    a.write_runs_used = write_runs

    def step(key, fn):
        try:
            got = fn()
            for n in S:
                R[n][key] = got[n]
                f = got[n]
                if isinstance(f, dict) and "cpu" in f:
                    log(f"{n:,} {key}: wall {fmt_time(f['t'])}, CPU {fmt_time(f['cpu'])} ({f['how']})")
                else:
                    log(f"{n:,} {key}: {f}")
        except Failed as e:
            for n in S:
                R[n].setdefault("errors", []).append(f"{key}: {e}")
            log(f"{key} FAILED: {e}")

    step("version", lambda: timed({n: [boomic, "--version"] for n in S}, a.runs))
    step("open", lambda: timed({n: B(n, libs[n], "history", "-n", "1") for n in S}, a.runs))
    step("ls100", lambda: timed({n: B(n, libs[n], "ls", Q100) for n in S}, a.runs))
    step("lsa", lambda: timed({n: B(n, libs[n], "ls", "-a", Q100) for n in S}, a.runs))
    if CALLGRIND:
        for key, argv in (("version", ["--version"]), ("open", ["history", "-n", "1"]),
                          ("ls100", ["ls", Q100]), ("lsa", ["ls", "-a", Q100])):
            for n in S:
                if isinstance(R[n].get(key), dict):
                    R[n][key]["ir"] = instructions(B(n, libs[n], *argv) if key != "version" else [boomic] + argv)
            log(f"{key}: instructions {[R[n].get(key, {}).get('ir') for n in S]}")
    for n in S:
        R[n]["ls100_lines"] = run1(B(n, libs[n], "ls", Q100), capture=True)[2].count(b"\n")
        R[n]["lsa_lines"] = run1(B(n, libs[n], "ls", "-a", Q100), capture=True)[2].count(b"\n")

    def anon():
        peaks = {n: [] for n in S}
        for _ in range(3):
            for n in S:
                peaks[n].append(peak_anon(B(n, libs[n], "ls", Q100)))
                wait_merges()
        return {n: {"peak_kb": max(p[0] for p in peaks[n]), "exit_kb": max(p[1] or 0 for p in peaks[n]),
                    "maxrss_kb": max(p[2] for p in peaks[n])} for n in S}
    step("anon", anon)

    def writes(name, commands):
        """commands(n, L, k) -> [argv…] run in order on a copy of each size's library, rounds
        taking turns; returns {n: [[(wall, cpu)…] per command], merges}."""
        copies = {}
        for n in S:
            copies[n] = os.path.join(works[n], name)
            copy_lib(libs[n], copies[n])
        got = {n: {"runs": [], "merges": []} for n in S}
        for k in range(write_runs):
            for n in (S if k % 2 == 0 else list(reversed(S))):
                one = []
                for cmd in commands(n, copies[n], k):
                    one.append(run_wait4(cmd))
                    got[n]["merges"] += wait_merges()
                got[n]["runs"].append(one)
        for n in S:
            got[n]["copy"] = copies[n]
        return got

    def figure(pairs, how):
        ts, cs = [p[0] for p in pairs], [p[1] for p in pairs]
        return {"t": statistics.median(ts), "min": min(ts), "cpu": statistics.median(cs), "runs": len(ts), "how": how}

    turns = ", the sizes taking turns" if len(S) > 1 else ""

    def modify():
        got = writes("modify", lambda n, L, k: [B(n, L, "modify", Q1000, f"genre=ScaleBench{k}", "-y")])
        out = {}
        for n in S:
            f = figure([r[0] for r in got[n]["runs"]], f"median of {write_runs}, a new value each run, on a copy{turns}")
            f["merges"] = got[n]["merges"]
            f["ir"] = instructions(B(n, got[n]["copy"], "modify", Q1000, "genre=ScaleBenchIr", "-y"))
            out[n] = f
            shutil.rmtree(got[n]["copy"], ignore_errors=True)
        return out
    step("modify", modify)

    backs = {n: min(5000, R[n]["info"]["seq"] // 2) for n in S}

    def rollback():
        got = writes("rollback", lambda n, L, k: [B(n, L, "rollback", f"HEAD~{backs[n]}", "-y"), B(n, L, "undo", "-y")])
        out = {}
        for n in S:
            _, _, last = run1(B(n, got[n]["copy"], "history", "-n", "2", "--json"), capture=True)
            how = f"median of {write_runs}, on a copy{turns}"
            out[n] = {"back": backs[n], "merges": got[n]["merges"],
                      "labels": [f"{t['seq']} {t['kind']}: {t['label']}" for t in json.loads(last.decode())],
                      "rollback": figure([r[0] for r in got[n]["runs"]], how),
                      "undo": figure([r[1] for r in got[n]["runs"]], how)}
            shutil.rmtree(got[n]["copy"], ignore_errors=True)
        return out
    step("rollback", rollback)

    def verify():
        out = {}
        for n in S:
            if n > a.verify_max:
                continue
            t0 = time.perf_counter()
            try:
                p = subprocess.run(B(n, libs[n], "verify"), env=env(), capture_output=True, timeout=a.verify_seconds)
            except subprocess.TimeoutExpired:
                out[n] = {"t": None, "ok": None, "line": f"stopped after {a.verify_seconds:.0f} s"}
                continue
            dt = time.perf_counter() - t0
            lines = (p.stdout + p.stderr).decode(errors="replace").strip().splitlines()
            # No song's file exists by design: that problem is expected, every other one is not.
            problems = [x for x in lines if x.startswith("problem:")]
            other = [x for x in problems if "song files are gone" not in x]
            shown = [x for x in lines if not x.startswith("missing file:")]
            out[n] = {"t": dt, "ok": (p.returncode == 0 and "OK" in lines) or (bool(problems) and not other),
                      "files_only": bool(problems) and not other, "line": " / ".join(shown[-4:])[:400]}
        return {n: out.get(n) for n in S}
    step("verify", verify)
    for n in S:
        R[n]["load_end"] = loadavg()
        shutil.rmtree(works[n], ignore_errors=True)
    return R


# ------------------------------------------------------------------ report

def fig(res, key, sub=None):
    f = res.get(key)
    if sub and isinstance(f, dict):
        f = f.get(sub)
    return f if isinstance(f, dict) and f.get("t") is not None else None


ROWS = [  # (label, key, sub, budget at 1M in s or None: issue 37 asks only that it works there)
    ("`--version` (process start)", "version", None, None),
    ("open: `history -n 1`", "open", None, None),
    (f"`ls {Q100}` (100 songs)", "ls100", None, 0.060),
    (f"`ls -a {Q100}` (its 10 albums)", "lsa", None, None),
    (f"`modify {Q1000} genre=… -y` (1,000 songs)", "modify", None, None),
    ("`rollback HEAD~5000 -y`", "rollback", "rollback", None),
    ("`undo -y` of that rollback", "rollback", "undo", None),
]
GROWTH_KEYS = {"open", "ls100", "lsa", "modify", "open_over"}


def table(head, rows):
    w = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
    print("  ".join(str(h).ljust(w[i]) for i, h in enumerate(head)))
    print("  ".join("-" * x for x in w))
    for r in rows:
        print("  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip())
    print()


def cells(res):
    """Per row: (wall, min, cpu seconds, instructions) or None, in ROWS' order, plus the open over
    --version."""
    out = {}
    for label, key, sub, _ in ROWS:
        f = fig(res, key, sub)
        out[(key, sub)] = (f["t"], f["min"], f["cpu"], f.get("ir")) if f else None
    v, o = out.get(("version", None)), out.get(("open", None))
    out[("open_over", None)] = (o[0] - v[0], o[1] - v[1], o[2] - v[2],
                                o[3] - v[3] if o[3] and v[3] else None) if v and o else None
    return out


def fmt_ir(x):
    return "—" if not x else f"{x / 1e6:,.0f} M"


def report(sizes, results, a):
    labels = ROWS[:2] + [("open over `--version`", "open_over", None, 0.010)] + ROWS[2:]
    C = {n: cells(results[n]) for n in sizes}
    ft = lambda c, i: fmt_time(c[i]) if c else "n/a"
    fi = lambda c: fmt_ir(c[3]) if c else "n/a"
    print()
    if len(sizes) == 2:
        s0, s1 = sizes
        k0, k1 = f"{s0 // 1000}k", f"{s1 // 1000}k"
        head = ("row", f"{k0} wall", f"{k0} CPU", f"{k0} instr.", f"{k1} wall", f"{k1} CPU", f"{k1} instr.",
                "ratio CPU", "ratio instr.", "ratio wall", "goal (issue 37)", "within? CPU / instr.")
        rows = []
        for label, key, sub, _ in labels:
            c0, c1 = C[s0][(key, sub)], C[s1][(key, sub)]
            ratio = lambda i: c1[i] / c0[i] if c0 and c1 and c0[i] and c1[i] else None
            rc, ri, rw = ratio(2), ratio(3), ratio(0)
            goal = f"≤ {GOAL_GROWTH}×" if key in GROWTH_KEYS else "—"
            yn = lambda r: "n/a" if r is None else ("yes" if r <= GOAL_GROWTH else "NO")
            ok = f"{yn(rc)} / {yn(ri)}" if key in GROWTH_KEYS else ""
            rows.append((label, ft(c0, 0), ft(c0, 2), fi(c0), ft(c1, 0), ft(c1, 2), fi(c1),
                         f"{rc:.2f}×" if rc else "n/a", f"{ri:.2f}×" if ri else "n/a", f"{rw:.2f}×" if rw else "n/a",
                         goal, ok))
        an = [results[n].get("anon") for n in sizes]
        ra = an[1]["peak_kb"] / an[0]["peak_kb"] if all(an) else None
        mb = lambda x: f"{x['peak_kb'] / 1024:.1f} MB" if x else "n/a"
        rows.append((f"peak RssAnon, `ls {Q100}`", mb(an[0]), "", "", mb(an[1]), "", "",
                     f"{ra:.2f}×" if ra else "n/a", "", "", "proportional to what it touches", ""))
        table(head, rows)
    else:
        for n in sizes:
            head = ("row", f"{n:,} songs: wall", "min", "CPU", "instructions", "budget (issue 37)", "within?")
            rows = []
            for label, key, sub, budget in labels:
                c = C[n][(key, sub)]
                if key == "version":
                    goal, ok = "—", ""
                elif budget is None:
                    goal, ok = "works", "yes" if c else "NO"
                else:
                    goal = f"≤ {fmt_time(budget)}" + (" + O(tail)" if key == "open_over" else "")
                    ok = "" if c is None else ("yes" if c[2] <= budget else "NO") + " (CPU)"
                rows.append((label, ft(c, 0), ft(c, 1), ft(c, 2), fi(c), goal, ok))
            an = results[n].get("anon")
            rows.append((f"peak RssAnon, `ls {Q100}`", f"{an['peak_kb'] / 1024:.1f} MB" if an else "n/a", "", "", "",
                         "≤ 50 MB at 1M", ("yes" if an["peak_kb"] <= 50 * 1024 else "NO") if an else ""))
            table(head, rows)

    print("How each figure was taken:")
    print(f"- libraries without files: scripts/bench.d/mkbig.py writes `boomic export` JSON lines of N songs of "
          f"mklib.py's layout (every field a real import sets, file facts included, with real songs' durations "
          f"and sizes), imported in transactions of {a.batch:,} songs, then mkhistory.py's edits up to "
          f"{a.history:,} transactions in all; `boomic --library L import-json FILE` builds L, cached in "
          f"{a.bench_dir}/big-N-T-B-HASH per binary and generator. No file exists, so no rescan row.")
    print(f"- every row is a whole `boomic --library L …` process, stdout to /dev/null, wall from Python's "
          f"perf_counter and CPU = user + sys of all its threads from wait4(2); reads: 2 warm-ups "
          f"and {a.runs} runs (a command over 1 s: 3 runs), median; writes on a copy of L, "
          f"{a.write_runs} run(s), median; with two sizes, the sizes take turns run by run. The `boomic merge` a command starts after its output is waited for "
          f"before the next run (the bench is the merges' subreaper) and is not in the command's figures.")
    print(f"- open over `--version`: the open's figure minus `boomic --version`'s, column by column.")
    print(f"- instructions: one more run of the command under `valgrind --tool=callgrind` (a stripped copy of "
          f"the binary, whose debug information callgrind cannot read; the same code), all threads: a count no "
          f"load on the machine moves, where CPU time moves with it. `modify`'s is one more modify on its copy. "
          + ("" if CALLGRIND else "Not counted in this run (no valgrind, or --no-callgrind)."))
    print(f"- peak RssAnon: /proc/PID/status read in a tight loop while `ls {Q100}` runs and once more at its "
          f"exit, where ptrace (PTRACE_O_TRACEEXIT) holds it before its memory goes; the larger, of 3 runs. "
          f"The mapped image is page cache (RssFile), not counted.")
    for n in sizes:
        r = results[n]
        i = r.get("info") or {}
        S = i.get("summary") or {}
        if i:
            print(f"- {n:,} songs: {i['seq']:,} transactions ({S.get('imports')} import{'' if S.get('imports') == 1 else 's'}, {S.get('edit_assertions', 0):,} "
                  f"song updates), log {S.get('bytes', 0) / 1e6:.0f} MB generated in {i['gen_seconds']:.0f} s; "
                  f"`import-json` {i['import_json']:.1f} s wall, {i['import_json_cpu']:.1f} s CPU, max RSS "
                  f"{i['import_json_maxrss_kb'] / 1024:.0f} MB, load {i['import_json_load']}"
                  + (" (when the cached library was made)" if i.get("reused") else "")
                  + f"; the library takes {i['disk_mb']:.0f} MB; check: {i['state_check']}.")
        if r.get("lsa_lines") is not None:
            print(f"  `ls {Q100}` printed {r.get('ls100_lines')} lines, `ls -a` {r.get('lsa_lines')}.")
        m = (r.get("modify") or {}).get("merges") or []
        if m:
            print(f"  merges after the modifies: {', '.join(f'{w:.2f} s (CPU {c:.2f} s)' for w, c in m)}.")
        rb = r.get("rollback")
        if rb:
            print(f"  rollback HEAD~{rb['back']}; merges after rollback/undo: "
                  f"{', '.join(f'{w:.2f} s (CPU {c:.2f} s)' for w, c in rb['merges']) or 'none'}; "
                  f"last two transactions: {'; '.join(rb['labels'])}.")
        an = r.get("anon")
        if an:
            print(f"  RssAnon of `ls {Q100}`: peak {an['peak_kb'] / 1024:.1f} MB, at exit {an['exit_kb'] / 1024:.1f} MB; "
                  f"max RSS (mapped pages included) {an['maxrss_kb'] / 1024:.0f} MB.")
        v = r.get("verify")
        if v:
            what = ("OK but for the files, which do not exist by design" if v.get("files_only") else
                    "OK" if v["ok"] else "NOT OK" if v["ok"] is False else "")
            print(f"  verify: {fmt_time(v['t']) if v['t'] else ''} {what} (its last lines: {v['line']}).")
        for e in r.get("errors") or []:
            print(f"  FAILED: {e}")
        if r.get("failed"):
            print(f"  FAILED: {r['failed']}")
    r = results[sizes[0]]
    print(f"- load average: {r.get('load_start')} at the start, {r.get('load_end', '?')} at the end "
          f"(the machine is shared: CPU time is the figure to read).")
    print(f"\nBench took {time.perf_counter() - T_START:.0f} s.")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--boomic", required=True)
    ap.add_argument("--boomic-note", default="")
    ap.add_argument("--bench-dir", required=True)
    ap.add_argument("--sizes", required=True, help="N or N1,N2 (a growth pair)")
    ap.add_argument("--history", type=int, default=10000)
    ap.add_argument("--batch", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--write-runs", type=int, default=None, help="default 3, 1 when a size is above 200,000 songs")
    ap.add_argument("--check-max", type=int, default=200000, help="check the built state by `ls --json` up to this N")
    ap.add_argument("--verify-max", type=int, default=200000)
    ap.add_argument("--verify-seconds", type=float, default=300)
    ap.add_argument("--no-callgrind", action="store_true", help="no instruction counts")
    a = ap.parse_args()
    sizes = [int(x) for x in a.sizes.split(",")]
    LIBC.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    os.makedirs(a.bench_dir, exist_ok=True)
    global ERR_DIR, CALLGRIND
    ERR_DIR = a.bench_dir
    CALLGRIND = None if a.no_callgrind else callgrind_binary(a.boomic, a.bench_dir)
    print(f"Boomic size bench — {datetime.datetime.now().isoformat(timespec='seconds')}")
    print(f"sizes {', '.join(f'{n:,}' for n in sizes)} songs, {a.history:,} transactions each; "
          f"{os.cpu_count()} cores, {platform.platform()}; load average at start {loadavg()}")
    if a.boomic_note:
        print(f"boomic: {a.boomic_note}")
    results = measure(a.boomic, sizes, a)
    a.write_runs = getattr(a, "write_runs_used", a.write_runs)
    report(sizes, results, a)


if __name__ == "__main__":
    main()
