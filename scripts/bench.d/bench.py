#!/usr/bin/python3
"""The measuring half of scripts/bench (which installs the tools, builds boomic and makes the
templates first). Prints figures; never asserts timing; exits 0 whatever a peer does.

Run it through scripts/bench; the options are documented there.
"""
import argparse
import datetime
import hashlib
import json
import os
import platform
import re
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
T_START = time.perf_counter()


def log(msg):
    el = time.perf_counter() - T_START
    print(f"[bench {el:6.0f}s] {msg}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------ formatting

def fmt_time(s):
    if s is None:
        return "n/a"
    if s < 1:
        return f"{s * 1000:.1f} ms" if s < 0.1 else f"{s * 1000:.0f} ms"
    return f"{s:.2f} s"


def fmt_rate(r):
    return "n/a" if r is None else f"{r:,.0f} files/s"


def fmt_mb(kb):
    return "n/a" if kb is None else f"{kb / 1024:.0f} MB"


def speed_ratio(boomic, peer, higher_is_better):
    """'N× faster' / 'N× slower' of boomic against a peer."""
    if not boomic or not peer:
        return "—"
    r = boomic / peer if higher_is_better else peer / boomic
    return f"{r:.1f}× faster" if r >= 1 else f"{1 / r:.1f}× slower"


# ------------------------------------------------------------------ running things

class Failed(Exception):
    pass


def run(cmd, env=None, cwd=None, capture=False, timeout=None, check=True):
    """Run a command; stdout discarded unless capture. Returns (seconds, CompletedProcess)."""
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=timeout)
    dt = time.perf_counter() - t0
    if check and p.returncode != 0:
        err = p.stderr.decode(errors="replace").strip().splitlines()
        raise Failed(f"`{shlex.join(cmd)}` exited {p.returncode}: " + " / ".join(err[-3:])[:400])
    return dt, p


def hyperfine(cmd, env=None, runs=5, warmup=1, name="x", prepare=None):
    """Time a command with hyperfine (no shell); returns dict mean/median/min/stddev/runs."""
    out = os.path.join(ARGS.work, f"hyperfine-{name}.json")
    hf = ["hyperfine", "-N", "--style", "basic", "--warmup", str(warmup), "--runs", str(runs),
          "--export-json", out]
    if prepare:
        hf += ["--prepare", prepare]
        hf.remove("-N")  # --prepare runs through a shell anyway; keep one mode per call
    hf.append(shlex.join(cmd))
    p = subprocess.run(hf, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        raise Failed(f"hyperfine failed on `{shlex.join(cmd)}`: " + p.stdout.decode(errors="replace")[-400:])
    r = json.load(open(out))["results"][0]
    return {"mean": r["mean"], "median": r["median"], "min": r["min"], "stddev": r.get("stddev") or 0.0,
            "runs": len(r["times"]), "method": f"hyperfine, {warmup} warm-up + {len(r['times'])} runs, median"}


def loop_time(cmds, env=None, prepare=None):
    """Time each command once (python perf_counter around the whole process); returns list."""
    times = []
    for c in cmds:
        if prepare:
            prepare()
        dt, _ = run(c, env=env)
        times.append(dt)
    return times


def max_rss_kb(cmd, env=None):
    p = subprocess.run(["/usr/bin/time", "-v"] + cmd, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.decode(errors="replace")
    if p.returncode != 0:
        raise Failed(f"`{shlex.join(cmd)}` exited {p.returncode}: {err.strip()[-300:]}")
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err)
    return int(m.group(1)) if m else None


def warm(root):
    n = 0
    for d, _, files in os.walk(root):
        for f in files:
            with open(os.path.join(d, f), "rb") as fh:
                while fh.read(1 << 20):
                    pass
            n += 1
    return n


# ------------------------------------------------------------------ results table

ROWS = []   # (job, boomic, peer, ratio, budget, verdict)
NOTES = []  # text lines


def row(job, boomic, peer="—", ratio="—", budget="—", verdict=""):
    ROWS.append((job, boomic, peer, ratio, budget, verdict))


def note(text):
    NOTES.append(text)


def print_table():
    head = ("job", "boomic", "peer", "ratio (boomic vs peer)", "budget (DESIGN §7)", "within?")
    rows = [head] + ROWS
    w = [max(len(r[i]) for r in rows) for i in range(len(head))]
    line = "  ".join("-" * x for x in w)
    print()
    print("  ".join(h.ljust(w[i]) for i, h in enumerate(head)))
    print(line)
    prev = None
    for r in ROWS:
        cells = list(r)
        if cells[0] == prev:
            cells[0] = ""
        else:
            prev = cells[0]
        print("  ".join(c.ljust(w[i]) for i, c in enumerate(cells)).rstrip())
    print()


def verdict(ok):
    return "" if ok is None else ("yes" if ok else "NO")


# ------------------------------------------------------------------ peers

def taglib_raw(listfile, n):
    exe = ARGS.taglib
    if not exe or not os.path.exists(exe):
        note("TagLib raw: the reader did not build (g++ / libtag1-dev missing), no reference figure.")
        return None
    res = {}
    for threads in (1, os.cpu_count() or 1):
        best = None
        for _ in range(5):
            _, p = run([exe, listfile, str(threads), "props"], capture=True)
            files, secs, rate, _chk, bad = p.stdout.decode().split()
            if int(bad):
                note(f"TagLib raw: {bad} of {files} files did not open.")
            best = max(best or 0, float(rate))
        res[threads] = best
    log(f"TagLib raw: {res}")
    return res


class MPD:
    def __init__(self, root, work):
        self.root, self.dir = root, os.path.join(work, "mpd")
        self.sock = os.path.join(self.dir, "socket")
        self.proc = None

    def config(self):
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        conf = os.path.join(self.dir, "mpd.conf")
        with open(conf, "w") as f:
            f.write(f'''music_directory "{self.root}"
db_file "{self.dir}/db"
log_file "{self.dir}/log"
log_level "warning"
pid_file "{self.dir}/pid"
state_file "{self.dir}/state"
bind_to_address "{self.sock}"
auto_update "no"
zeroconf_enabled "no"
audio_output {{
  type "null"
  name "null"
}}
''')
        return conf

    def command(self, cmd):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(self.sock)
            f = s.makefile("rwb")
            f.readline()  # OK MPD x.y.z
            f.write(cmd.encode() + b"\n")
            f.flush()
            out = {}
            for line in f:
                line = line.decode().rstrip("\n")
                if line == "OK":
                    return out
                if line.startswith("ACK"):
                    raise Failed(f"MPD: {line}")
                k, _, v = line.partition(": ")
                out[k] = v
            raise Failed("MPD closed the connection")

    def first_import(self, n):
        """Seconds from starting mpd with no database until its initial update has all n songs."""
        conf = self.config()
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(["mpd", "--no-daemon", conf], stdin=subprocess.DEVNULL,
                                     stdout=open(os.path.join(self.dir, "out"), "w"),
                                     stderr=subprocess.STDOUT)
        deadline = t0 + max(120, n / 100)
        while True:
            if time.perf_counter() > deadline or self.proc.poll() is not None:
                raise Failed("MPD did not finish its database update; see " + self.dir)
            try:
                st = self.command("status")
                if "updating_db" not in st and int(self.command("stats").get("songs", 0)) >= n:
                    break
            except (OSError, ValueError):
                pass
            time.sleep(0.005)
        dt = time.perf_counter() - t0
        songs = int(self.command("stats")["songs"])
        return dt, songs

    def hwm_kb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            m = re.search(r"VmHWM:\s+(\d+) kB", f.read())
        return int(m.group(1)) if m else None

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


def bench_mpd(root, n, res):
    if not shutil.which("mpd"):
        note("MPD: peer unavailable (mpd not installed).")
        return
    m = MPD(root, ARGS.work)
    try:
        times = []
        for i in range(ARGS.runs_import):
            dt, songs = m.first_import(n)
            times.append(dt)
            if i < ARGS.runs_import - 1:
                m.stop()
        res["mpd_import"] = statistics.median(times)
        res["mpd_songs"] = songs
        res["mpd_hwm"] = m.hwm_kb()
        log(f"MPD first import: {times} s, {songs} songs, VmHWM {res['mpd_hwm']} kB")
        if shutil.which("mpc"):
            h = hyperfine(["mpc", f"--host={m.sock}", "update", "--wait"], runs=10, warmup=2, name="mpd-rescan")
            res["mpd_rescan"] = h["median"]
            res["mpd_rescan_method"] = "`mpc update --wait` against the running daemon (db already in memory), " + h["method"]
        else:
            ts = []
            for _ in range(10):
                t0 = time.perf_counter()
                m.command("update")
                while "updating_db" in m.command("status"):
                    time.sleep(0.002)
                ts.append(time.perf_counter() - t0)
            res["mpd_rescan"] = statistics.median(ts)
            res["mpd_rescan_method"] = "MPD protocol `update`, polled until done (mpc missing), median of 10"
        log(f"MPD rescan: {res['mpd_rescan']:.3f} s")
    except Failed as e:
        note(f"MPD: peer unavailable ({e}).")
    finally:
        m.stop()


class Beets:
    def __init__(self, root, work):
        self.root = root
        self.dir = os.path.join(work, "beets")
        self.cfg = os.path.join(self.dir, "config.yaml")
        self.env = dict(os.environ, BEETSDIR=self.dir)
        self.beet = ARGS.beet

    def cmd(self, *a):
        return [self.beet, "-c", self.cfg] + list(a)

    def fresh(self):
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        with open(self.cfg, "w") as f:
            f.write(f"""directory: {self.root}
library: {self.dir}/library.db
plugins: []
threaded: yes
import:
  copy: no
  move: no
  write: no
  autotag: no
  quiet: yes
  resume: no
  incremental: no
  log:
""")
        # Create the database (and run beets' schema migrations) outside the timed import.
        run(self.cmd("stats"), env=self.env)


def bench_beets(root, n, q100, q1000, res):
    if not ARGS.beet or not os.path.exists(ARGS.beet):
        note("beets: peer unavailable (not installed; see the install step's output).")
        return
    b = Beets(root, ARGS.work)
    try:
        b.fresh()
        log("beets: first import (slow: ~100 files/s)…")
        dt, _ = run(b.cmd("import", "-A", "-q", "-C", "-W", root), env=b.env)
        _, p = run(b.cmd("stats"), env=b.env, capture=True)
        m = re.search(r"Tracks: (\d+)", p.stdout.decode())
        got = int(m.group(1)) if m else -1
        res["beets_import"] = dt
        log(f"beets import: {dt:.1f} s, {got} tracks")
        if got != n:
            note(f"beets imported {got} of {n} files.")
        h = hyperfine(b.cmd("update", "-M"), env=b.env, runs=3, warmup=1, name="beets-update")
        res["beets_rescan"] = h["median"]
        res["beets_rescan_method"] = "`beet update -M` (stats every file, rereads none), " + h["method"]
        _, p = run(b.cmd("ls", q100), env=b.env, capture=True)
        res["beets_q100_count"] = len(p.stdout.splitlines())
        h = hyperfine(b.cmd("ls", q100), env=b.env, runs=5, warmup=1, name="beets-ls100")
        res["beets_ls100"] = h["median"]
        h = hyperfine(b.cmd("ls"), env=b.env, runs=3, warmup=1, name="beets-lsall")
        res["beets_lsall"] = h["median"]
        ts = loop_time([b.cmd("modify", "-y", "-W", q1000, f"genre=BeetsBench{k}") for k in range(3)], env=b.env)
        res["beets_modify"] = statistics.median(ts)
        log(f"beets modify: {ts}")
        res["beets_rss"] = max_rss_kb(b.cmd("ls"), env=b.env)
        log(f"beets: ls100 {res['beets_ls100']:.2f} s, ls all {res['beets_lsall']:.2f} s, rss {res['beets_rss']} kB")
    except Failed as e:
        note(f"beets: peer failed part-way ({e}).")


# ------------------------------------------------------------------ boomic

class Boomic:
    def __init__(self, exe):
        self.exe = exe
        self.mode = "flag"  # or "env"
        self.env = dict(os.environ, NO_COLOR="1")
        self.env.pop("BOOMIC_LIBRARY", None)

    def cmd(self, lib, *a):
        if self.mode == "flag":
            return [self.exe, "--library", lib] + list(a)
        return [self.exe] + list(a)

    def envfor(self, lib):
        return self.env if self.mode == "flag" else dict(self.env, BOOMIC_LIBRARY=lib)

    def run(self, lib, *a, capture=False, check=True):
        return run(self.cmd(lib, *a), env=self.envfor(lib), capture=capture, check=check)

    def hyperfine(self, lib, *a, runs=10, warmup=2, name="b"):
        return hyperfine(self.cmd(lib, *a), env=self.envfor(lib), runs=runs, warmup=warmup, name=name)

    def init(self, lib):
        shutil.rmtree(lib, ignore_errors=True)
        try:
            self.run(lib, "init")
        except Failed as e:
            if self.mode == "flag":
                shutil.rmtree(lib, ignore_errors=True)
                self.mode = "env"
                try:
                    self.run(lib, "init")
                    note("boomic: `--library DIR` before the command failed; BOOMIC_LIBRARY=DIR was used.")
                    return
                except Failed:
                    self.mode = "flag"
            raise e


def head_seq(bm, lib):
    """The sequence number of HEAD from `history -n 1 --json`, when it says."""
    try:
        _, p = bm.run(lib, "history", "-n", "1", "--json", capture=True)
        data = json.loads(p.stdout.decode())
        if isinstance(data, dict):
            data = data.get("transactions") or [data]
        for t in data[:1]:
            for k in ("seq", "sequence", "number", "index", "n"):
                if isinstance(t.get(k), int):
                    return t[k]
    except Exception:
        pass
    return None


def count_json(bm, lib, *query):
    try:
        _, p = bm.run(lib, "ls", *query, "--json", capture=True)
        return len(json.loads(p.stdout.decode()))
    except Exception:
        return None


def bench_boomic(root, n, q100, q1000, res):
    bm = Boomic(ARGS.boomic)
    lib = os.path.join(ARGS.work, "boomic-lib")

    def attempt(step, fn):
        """Run one measurement; a failure is reported and the next step still runs."""
        try:
            fn()
            return True
        except Failed as e:
            res.setdefault("boomic_failed", f"{step}: {e}")
            note(f"boomic failed at {step}: {e}")
            log(f"boomic failed at {step}: {e}")
            return False

    def first_import():
        times = []
        for _ in range(ARGS.runs_import):
            bm.init(lib)  # fresh library each run, untimed
            dt, _ = bm.run(lib, "import", root)
            times.append(dt)
        res["boomic_import"] = statistics.median(times)
        res["boomic_import_runs"] = times
        log(f"boomic first import: {times}")
        res["boomic_count"] = count_json(bm, lib)
        if res["boomic_count"] is not None and res["boomic_count"] != n:
            note(f"boomic: `ls --json` lists {res['boomic_count']} songs after importing {n} files.")

    if not attempt("first import", first_import):
        return  # nothing else can be measured without a library

    def rescan():
        h = bm.hyperfine(lib, "import", root, runs=5, warmup=1, name="boomic-rescan")
        res["boomic_rescan"] = h["median"]
        res["boomic_rescan_method"] = h["method"]

    def ls_query():
        _, p = bm.run(lib, "ls", q100, capture=True)
        res["boomic_q100_lines"] = len(p.stdout.splitlines())
        res["boomic_q100_count"] = count_json(bm, lib, q100)
        res["boomic_ls100"] = bm.hyperfine(lib, "ls", q100, runs=10, warmup=2, name="boomic-ls100")["median"]

    def ls_all():
        res["boomic_lsall"] = bm.hyperfine(lib, "ls", runs=10, warmup=2, name="boomic-lsall")["median"]

    def memory():
        res["boomic_rss"] = max_rss_kb(bm.cmd(lib, "ls"), env=bm.envfor(lib))

    def modify():
        res["boomic_q1000_count"] = count_json(bm, lib, q1000)
        ts = loop_time([bm.cmd(lib, "modify", q1000, f"genre=BoomicBench{k}", "-y") for k in range(5)],
                       env=bm.envfor(lib))
        res["boomic_modify"] = statistics.median(ts)
        log(f"boomic modify 1000: {ts}")

    def open_short():
        res["boomic_open_short"] = bm.hyperfine(lib, "history", "-n", "1", runs=10, warmup=2,
                                                name="boomic-open-short")["median"]
        res["boomic_open_short_seq"] = head_seq(bm, lib)

    attempt("rescan", rescan)
    attempt("ls query", ls_query)
    attempt("ls all", ls_all)
    attempt("memory", memory)
    attempt("modify", modify)
    attempt("open (short history)", open_short)
    log(f"boomic: ls100 {res.get('boomic_ls100')} s, ls all {res.get('boomic_lsall')} s, rss {res.get('boomic_rss')} kB")

    hist = None

    def history():
        nonlocal hist
        hist = build_history(bm, lib, n, res)

    if not attempt("making history", history):
        return

    def open_long():
        res["boomic_open"] = bm.hyperfine(hist, "history", "-n", "1", runs=10, warmup=2,
                                          name="boomic-open-long")["median"]
        res["boomic_open_ls"] = bm.hyperfine(hist, "ls", "artist:NoSuchArtistZZZ", runs=10, warmup=2,
                                             name="boomic-open-ls")["median"]
        res["boomic_rss_hist"] = max_rss_kb(bm.cmd(hist, "ls"), env=bm.envfor(hist))

    def as_of():
        res["boomic_asof"] = bm.hyperfine(hist, "ls", q100, "--as-of", "1", runs=5, warmup=1,
                                          name="boomic-asof")["median"]

    def rollback():
        # on a copy, so the cached history library stays as it was made
        work = os.path.join(ARGS.work, "boomic-hist")
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(hist, work)
        rb, un = [], []
        for _ in range(3):
            dt, _ = bm.run(work, "rollback", "1", "-y")
            rb.append(dt)
            dt, _ = bm.run(work, "undo")
            un.append(dt)
        res["boomic_rollback"] = statistics.median(rb)
        res["boomic_undo"] = statistics.median(un)
        log(f"boomic rollback {rb} undo {un}")

    attempt("open (long history)", open_long)
    attempt("ls --as-of", as_of)
    attempt("rollback / undo", rollback)


def build_history(bm, lib, n, res):
    """A copy of the library with ARGS.history transactions, made by one-song modifies.
    Cached per boomic binary, N and target under the bench dir."""
    target = ARGS.history
    h = hashlib.sha256(open(bm.exe, "rb").read()).hexdigest()[:12]
    hist = os.path.join(ARGS.bench_dir, f"hist-{n}-{target}-{h}")
    marker = hist + ".done"
    if os.path.exists(marker):
        info = json.load(open(marker))
        res.update(info)
        res["hist_reused"] = True
        log(f"history: reusing {hist} ({info})")
        return hist
    for old in os.listdir(ARGS.bench_dir):  # caches of older binaries
        if old.startswith(f"hist-{n}-") and not old.startswith(os.path.basename(hist)):
            shutil.rmtree(os.path.join(ARGS.bench_dir, old), ignore_errors=True)
            if old.endswith(".done"):
                os.remove(os.path.join(ARGS.bench_dir, old))
    shutil.rmtree(hist, ignore_errors=True)
    shutil.copytree(lib, hist)
    start_seq = head_seq(bm, hist)
    have = start_seq if start_seq is not None else 7  # import + 5 modifies (+ rescans, none if nothing changed)
    need = max(0, target - have)
    log(f"history: making {need} one-song modifies with {ARGS.history_jobs} processes "
        f"(cap {ARGS.history_seconds:.0f} s)…")
    t0 = time.perf_counter()
    deadline = t0 + ARGS.history_seconds
    ok = fail = 0
    first_err = None

    def one(k):
        if time.perf_counter() > deadline:
            return None
        i = (k * 7919) % n
        c = bm.cmd(hist, "modify", f"title:T{i:07d}", f"genre=Hist{k}", "-y")
        p = subprocess.run(c, env=bm.envfor(hist), stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return p.returncode, p.stderr.decode(errors="replace").strip()

    reduced_from = None

    def batch(ks):
        nonlocal ok, fail, first_err
        with ThreadPoolExecutor(ARGS.history_jobs) as ex:
            for r in ex.map(one, ks):
                if r is None:
                    continue
                if r[0] == 0:
                    ok += 1
                else:
                    fail += 1
                    first_err = first_err or " / ".join(r[1].splitlines()[-2:])[-300:]
                if (ok + fail) % 500 == 0:
                    log(f"history: {ok + fail} modifies, {time.perf_counter() - t0:.0f} s")

    probe = min(need, 40)
    batch(range(probe))
    rate = (ok + fail) / max(time.perf_counter() - t0, 1e-9)
    projected = (need - probe) / max(rate, 1e-9)
    if need > probe and projected > ARGS.history_seconds - (time.perf_counter() - t0) and target > 1000:
        # Too slow to reach the target through the CLI in the time allowed: say so and use 1,000.
        reduced_from = target
        log(f"history: {rate:.1f} commits/s would take {projected:.0f} s more for {target:,}; making 1,000 instead")
        target = 1000
        need = max(probe, target - have)
    batch(range(probe, need))
    dt = time.perf_counter() - t0
    seq = head_seq(bm, hist)
    info = {"hist_seq": seq if seq is not None else have + ok, "hist_seq_known": seq is not None,
            "hist_ok": ok, "hist_fail": fail, "hist_seconds": dt, "hist_first_err": first_err,
            "hist_target": target, "hist_capped": ok + fail < need, "hist_reduced_from": reduced_from,
            "hist_rate": rate}
    res.update(info)
    log(f"history: {info}")
    with open(marker, "w") as f:
        json.dump(info, f)
    return hist


# ------------------------------------------------------------------ main

def machine():
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "?"
    try:
        kb = int(re.search(r"MemTotal:\s+(\d+)", open("/proc/meminfo").read()).group(1))
        mem = f"{kb / 1024 / 1024:.0f} GiB"
    except Exception:
        pass
    return cpu, mem


def loadavg():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def main():
    global ARGS
    # A SIGTERM unwinds like an exception, so a running MPD is stopped by its finally block.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    ap = argparse.ArgumentParser()
    ap.add_argument("--songs", type=int, required=True)
    ap.add_argument("--bench-dir", required=True)
    ap.add_argument("--templates", required=True)
    ap.add_argument("--boomic")
    ap.add_argument("--boomic-note", default="")
    ap.add_argument("--beet")
    ap.add_argument("--taglib")
    ap.add_argument("--history", type=int, default=10000)
    ap.add_argument("--history-jobs", type=int, default=2)
    ap.add_argument("--history-seconds", type=float, default=1200)
    ap.add_argument("--runs-import", type=int, default=3)
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--no-beets", action="store_true")
    ARGS = ap.parse_args()
    n = ARGS.songs
    ARGS.work = os.path.join(ARGS.bench_dir, f"run-{n}")
    shutil.rmtree(ARGS.work, ignore_errors=True)
    os.makedirs(ARGS.work)

    cpu, mem = machine()
    ncpu = os.cpu_count() or 1
    print(f"Boomic bench — {datetime.datetime.now().isoformat(timespec='seconds')}")
    print(f"N = {n:,} songs; machine: {ncpu} cores ({cpu}), {mem} RAM, {platform.platform()}")
    print(f"load average at start: {loadavg()} (other work on the machine skews every figure)")
    if ARGS.boomic_note:
        print(f"boomic: {ARGS.boomic_note}")

    # synthetic library
    root = os.path.join(ARGS.bench_dir, f"lib-{n}")
    t0 = time.perf_counter()
    subprocess.run([sys.executable, os.path.join(HERE, "mklib.py"), ARGS.templates, root, str(n)], check=True)
    made = time.perf_counter() - t0
    os.sync()  # no writeback of the new files during the measurements
    nfiles = warm(root)
    listfile = os.path.join(ARGS.work, "files.txt")
    with open(listfile, "w") as f:
        for d, _, files in sorted(os.walk(root)):
            for name in sorted(files):
                f.write(os.path.join(d, name) + "\n")
    print(f"library: {root} ({nfiles:,} files, half FLAC half MP3, 0.2 s each); made or checked in {made:.1f} s")
    if nfiles != n:
        print(f"warning: {nfiles} files on disk, expected {n}")

    n_artists = (n + 99) // 100
    a100 = min(42, max(0, n // 100 - 1))
    q100 = f"artist:A{a100:04d}"
    q1000 = "artist:A000"
    print(f"queries: ~100 songs `{q100}`, ~1,000 songs `{q1000}` ({n_artists} artists × 100 songs, 10 per album)")

    res = {}
    log("warming the page cache and timing raw TagLib…")
    tl = None if ARGS.no_peers else taglib_raw(listfile, n)
    if not ARGS.no_peers:
        log("MPD…")
        bench_mpd(root, n, res)
        if not ARGS.no_beets:
            bench_beets(root, n, q100, q1000, res)
    if ARGS.boomic and os.path.exists(ARGS.boomic):
        log("boomic…")
        bench_boomic(root, n, q100, q1000, res)
    else:
        note("boomic: no binary (build failed or not yet written); boomic column empty.")

    # ---------------------------------------------------------- table
    B = lambda k: res.get(k)
    bfail = "failed (notes)" if "boomic_failed" in res else "n/a"
    bi = B("boomic_import")
    b_rate = n / bi if bi else None
    b_rate_s = fmt_rate(b_rate) if bi else bfail

    if tl:
        allc = tl.get(ncpu) or tl[1] * ncpu
        need = 0.7 * tl[1] * ncpu
        row("first import", b_rate_s, f"TagLib raw, 1 core: {fmt_rate(tl[1])}", speed_ratio(b_rate, tl[1], True),
            f"≥ 70% of TagLib/core × {ncpu} = {need:,.0f} files/s", verdict(b_rate >= need if b_rate else None))
        if ncpu > 1:
            row("first import", b_rate_s, f"TagLib raw, {ncpu} threads: {fmt_rate(allc)}", speed_ratio(b_rate, allc, True))
    else:
        row("first import", b_rate_s, "TagLib raw: n/a", budget="≥ 70% of TagLib/core, all cores")
    if B("mpd_import"):
        r = n / B("mpd_import")
        row("first import", b_rate_s, f"MPD: {fmt_rate(r)}", speed_ratio(b_rate, r, True))
    else:
        row("first import", b_rate_s, "MPD: peer unavailable")
    if B("beets_import"):
        r = n / B("beets_import")
        row("first import", b_rate_s, f"beets import -A: {fmt_rate(r)}", speed_ratio(b_rate, r, True))
    else:
        row("first import", b_rate_s, "beets: peer unavailable")

    br = B("boomic_rescan")
    br_s = fmt_time(br) if br else bfail
    mr = B("mpd_rescan")
    row("rescan, nothing changed", br_s, f"MPD update: {fmt_time(mr)}" if mr else "MPD: peer unavailable",
        speed_ratio(br, mr, False), "≤ MPD's time", verdict(br <= mr if br and mr else None))
    bu = B("beets_rescan")
    row("rescan, nothing changed", br_s, f"beet update: {fmt_time(bu)}" if bu else "beets: peer unavailable",
        speed_ratio(br, bu, False))

    v = B("boomic_ls100")
    row("ls ~100 songs (open incl.)", fmt_time(v) if v else bfail,
        f"beet ls: {fmt_time(B('beets_ls100'))}" if B("beets_ls100") else "beets: peer unavailable",
        speed_ratio(v, B("beets_ls100"), False), "≤ 50 ms", verdict(v <= 0.05 if v else None))
    v = B("boomic_lsall")
    row(f"ls everything ({n:,})", fmt_time(v) if v else bfail,
        f"beet ls: {fmt_time(B('beets_lsall'))}" if B("beets_lsall") else "beets: peer unavailable",
        speed_ratio(v, B("beets_lsall"), False), "≤ 300 ms at 50k songs", verdict(v <= 0.3 if v else None))
    v = B("boomic_modify")
    row("modify ~1,000 songs -y", fmt_time(v) if v else bfail,
        f"beet modify -W: {fmt_time(B('beets_modify'))}" if B("beets_modify") else "beets: peer unavailable",
        speed_ratio(v, B("beets_modify"), False), "≤ 200 ms", verdict(v <= 0.2 if v else None))
    hs = B("hist_seq")
    v = B("boomic_open")
    row(f"open: history -n 1, {hs if hs is not None else '?'} txns", fmt_time(v) if v else bfail, "—", "—",
        "≤ 100 ms at any history", verdict(v <= 0.1 if v else None))
    v = B("boomic_open_ls")
    row("open: ls matching nothing", fmt_time(v) if v else bfail, "—", "—", "≤ 100 ms", verdict(v <= 0.1 if v else None))
    v = B("boomic_open_short")
    row(f"open: history -n 1, {B('boomic_open_short_seq') or '~7'} txns", fmt_time(v) if v else bfail, "—", "—",
        "≤ 100 ms", verdict(v <= 0.1 if v else None))
    v = B("boomic_rollback")
    row("rollback to txn 1 -y", fmt_time(v) if v else bfail, "none has it", "—", "≤ 300 ms", verdict(v <= 0.3 if v else None))
    v = B("boomic_undo")
    row("undo (that rollback)", fmt_time(v) if v else bfail, "none has it", "—", "≤ 300 ms", verdict(v <= 0.3 if v else None))
    v = B("boomic_asof")
    row("ls ~100 --as-of 1", fmt_time(v) if v else bfail, "none has it", "—", "≤ 300 ms", verdict(v <= 0.3 if v else None))
    v = B("boomic_rss")
    pr = B("beets_rss")
    row("peak RSS, ls everything", fmt_mb(v) if v else bfail, f"beet ls: {fmt_mb(pr)}" if pr else "beets: peer unavailable",
        f"{v / pr:.2f}× the peer's" if v and pr else "—", "≤ 150 MB at 50k songs", verdict(v <= 150 * 1024 if v else None))
    mh = B("mpd_hwm")
    row("peak RSS, ls everything", fmt_mb(v) if v else bfail, f"MPD daemon: {fmt_mb(mh)}" if mh else "MPD: peer unavailable",
        f"{v / mh:.2f}× the peer's" if v and mh else "—")

    print_table()

    # ---------------------------------------------------------- notes
    print("How each figure was measured (whole process, wall clock, page cache warm: every file read once first):")
    print(f"- first import: `boomic --library D import ROOT` into a fresh D each run (`init` untimed), median of "
          f"{ARGS.runs_import} runs{' ' + str([round(x, 2) for x in res['boomic_import_runs']]) if res.get('boomic_import_runs') else ''}; "
          f"files/s = N / seconds.")
    print("  TagLib raw: scripts/bench.d/taglib_read.cpp (g++ -O2, TagLib 1.13) opens each file with FileRef "
          "(audio properties, Average), reads the tag, the full PropertyMap and the audio properties; best of 5, "
          "timed inside the program (no process start).")
    print(f"  MPD: seconds from starting `mpd --no-daemon` with no db (null audio output, unix socket, log_level warning) "
          f"until its initial update holds all N songs (protocol polled every 5 ms), median of {ARGS.runs_import}.")
    print("  beets: `beet -c CFG import -A -q -C -W ROOT` once (no autotag, copy or write; plugins: []; db created and "
          "migrated beforehand), python perf_counter around the process.")
    print(f"- rescan: boomic `import ROOT` again on the imported library, {res.get('boomic_rescan_method', 'hyperfine')}; "
          f"MPD {res.get('mpd_rescan_method', 'not measured')}; beets {res.get('beets_rescan_method', 'not measured')}.")
    print(f"- ls: stdout to /dev/null, hyperfine median (boomic 2 warm-ups + 10 runs; beets 1 + 5 for the query, 1 + 3 for all). "
          f"`{q100}` matched: boomic {res.get('boomic_q100_count', '?')} songs by --json "
          f"({res.get('boomic_q100_lines', '?')} lines of plain output), beets {res.get('beets_q100_count', '?')} lines.")
    print(f"- modify: `boomic modify {q1000} genre=BoomicBenchK -y`, a new value each run so every run commits "
          f"(matched {res.get('boomic_q1000_count', '?')} songs), median of 5; beets `beet modify -y -W` the same way, median of 3.")
    if "hist_seq" in res:
        hs_note = (f"{res['hist_ok']:,} one-song `modify title:T… genre=HistK -y` commands "
                   f"({res['hist_fail']} failed) with {ARGS.history_jobs} processes at once took "
                   f"{res['hist_seconds']:.0f} s ({res['hist_ok'] / max(res['hist_seconds'], 1e-9):.1f} commits/s)")
        if res.get("hist_reused"):
            hs_note += " (history library reused from an earlier run with the same boomic binary)"
        print(f"- open: `history -n 1` / `ls artist:NoSuchArtistZZZ` on a copy of the library given "
              f"{res['hist_seq']:,} transactions{'' if res.get('hist_seq_known') else ' (estimated: history --json gave no sequence number)'}: "
              f"{hs_note}.")
        if res.get("hist_reduced_from"):
            print(f"  NOTE: {res['hist_reduced_from']:,} transactions were asked for, but one-song modifies through the CLI ran at "
                  f"{res['hist_rate']:.1f} commits/s, too slow to make them within {ARGS.history_seconds:.0f} s "
                  f"(--history-seconds); the open figure is for {res['hist_seq']:,} transactions instead.")
        if res.get("hist_capped"):
            print(f"  NOTE: the {res['hist_target']:,}-transaction target was not reached within {ARGS.history_seconds:.0f} s; "
                  f"the figure is for {res['hist_seq']:,} transactions.")
        if res.get("hist_first_err"):
            print(f"  first failure: {res['hist_first_err']}")
    print("- rollback / undo: `rollback 1 -y` (back to the first import's state) then `undo`, on the long-history library, "
          "python perf_counter, median of 3. `ls QUERY --as-of 1`: hyperfine 1 + 5.")
    print(f"- memory: `/usr/bin/time -v` Maximum resident set size of `boomic ls` (all {n:,} songs) on the short-history "
          f"library; on the long-history one it was {fmt_mb(res.get('boomic_rss_hist'))}. MPD: VmHWM of the daemon after its "
          f"first import.")
    print("- budgets are DESIGN §7's, stated for 50,000 songs with 10,000 transactions; 'within?' compares this run's "
          "figure with them as they stand, for information only.")
    for t in NOTES:
        print(f"- {t}")
    print(f"\nload average at the end: {loadavg()}; bench took {time.perf_counter() - T_START:.0f} s")


if __name__ == "__main__":
    main()
