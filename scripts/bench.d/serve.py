#!/usr/bin/env python3
"""boomic serve against MPD on the same library, both on loopback, in the same run.

Rows: the time for `status` (with the client and each server on one CPU, as `one_cpu` says why;
unpinned too, below the goal's rows), `list artist`, `search any WORD`, `find album X` and
`listallinfo` (median of repeated requests on one open connection each, boomic's and MPD's
requests taking turns, so that whatever else the machine does falls on both alike; answers read in bulk, so the
client's own line parsing does not hide the servers' difference); requests per second from 10
concurrent clients (one connection each, `status` in a loop for 3 s): threads of a C client
(bench.d/load.c, 15 rounds taking turns, the median kept, and the rounds boomic won), and Python processes (three rounds),
which are the bottleneck themselves; start-up time with the library already imported /
the database already built; resident memory after the runs (VmRSS) and its peak (VmHWM). MPD is
given room for a 16 MB answer (`max_output_buffer_size`; its default 8 MiB closes the
connection on `listallinfo` at 50,000 songs). The `status` and requests/s rows also time the
floor (bench.d/floor.c: a C server that answers every line with a fixed `status` answer and does
nothing else), so that they show how much of a request is the server's own work and how much the
kernel's and the scheduler's. Never asserts a figure.
"""
import argparse, math, multiprocessing, os, re, shutil, signal, socket, statistics, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))


def log(msg):
    print(f"[serve] {msg}", file=sys.stderr, flush=True)


class Client:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port))
        self.f = self.s.makefile("rwb", buffering=1 << 16)
        self.greeting = self.f.readline().decode().strip()

    def request(self, line):
        """Sends one request and reads its answer whole, in big reads; returns its size."""
        self.f.write(line.encode() + b"\n")
        self.f.flush()
        buf = bytearray()
        while True:
            chunk = self.f.read1(1 << 20)
            if not chunk:
                raise RuntimeError("connection closed")
            buf += chunk
            if buf.endswith(b"\n"):
                last = buf[buf.rfind(b"\n", 0, len(buf) - 1) + 1:]
                if last == b"OK\n":
                    return len(buf)
                if last.startswith(b"ACK"):
                    raise RuntimeError(last.decode().strip())

    def fields(self, line):
        self.f.write(line.encode() + b"\n")
        self.f.flush()
        out = {}
        while True:
            l = self.f.readline().decode()
            if l in ("OK\n", "") or l.startswith("ACK"):
                return out
            k, _, v = l.rstrip("\n").partition(": ")
            out[k] = v

    def close(self):
        self.s.close()


def wait_port(port, proc, timeout):
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        if proc.poll() is not None:
            return None
        try:
            c = Client(port)
            c.request("ping")
            c.close()
            return time.perf_counter() - t0
        except OSError:
            time.sleep(0.005)
    return None


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def rss(pid):
    try:
        text = open(f"/proc/{pid}/status").read()
    except OSError:
        return None, None
    get = lambda k: int(re.search(rf"{k}:\s+(\d+) kB", text).group(1))
    return get("VmRSS"), get("VmHWM")


def build_c(work, name):
    """Builds bench.d/NAME.c into WORK; its path, or None when no C compiler is here."""
    cc = shutil.which("cc") or shutil.which("clang") or shutil.which("gcc")
    if cc is None:
        return None
    binary = os.path.join(work, name)
    subprocess.run([cc, "-O2", "-pthread", "-o", binary, os.path.join(HERE, name + ".c")], check=True)
    return binary


def start_floor(work, answer):
    """Builds and starts the floor server answering `answer` (bytes); returns (process, port,
    start time) or None when no C compiler is here."""
    binary, answer_file = build_c(work, "floor"), os.path.join(work, "floor-answer")
    if binary is None:
        log("no C compiler: the floor is left out")
        return None
    with open(answer_file, "wb") as f:
        f.write(answer)
    port = free_port()
    p = subprocess.Popen([binary, str(port), answer_file], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    return p, port, wait_port(port, p, 10)


def raw_answer(port, line):
    """The bytes a server answers to `line`."""
    c = Client(port)
    c.f.write(line.encode() + b"\n")
    c.f.flush()
    out = b""
    while not out.endswith(b"OK\n"):
        out += c.f.readline()
    c.close()
    return out


def time_requests(ports, line, runs, firsts=None):
    """The median time of `line` on each port's connection, the ports taking turns; the time
    of the first (warm-up) request of each is appended to `firsts` when given."""
    clients = [Client(p) for p in ports]
    for c in clients:
        t0 = time.perf_counter()
        c.request(line)  # warm
        if firsts is not None:
            firsts.append(time.perf_counter() - t0)
    times = [[] for _ in ports]
    for _ in range(runs):
        for c, t in zip(clients, times):
            t0 = time.perf_counter()
            c.request(line)
            t.append(time.perf_counter() - t0)
    for c in clients:
        c.close()
    return [statistics.median(t) for t in times]


def hammer(args):
    port, seconds = args
    c = Client(port)
    n = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        c.request("status")
        n += 1
    c.close()
    return n


def rps(port, clients=10, seconds=3.0, load=None):
    """Requests a second from `clients` connections sending `status` in a loop: threads of the C
    client `load` (bench.d/load.c) when given, else Python processes."""
    if load:
        out = subprocess.run([load, str(port), str(clients), str(seconds)], capture_output=True, text=True, check=True)
        return float(out.stdout)
    with multiprocessing.Pool(clients) as pool:
        t0 = time.perf_counter()
        counts = pool.map(hammer, [(port, seconds)] * clients)
        return sum(counts) / (time.perf_counter() - t0)


def pin(pid, cpus):
    """Pins every thread of `pid` to `cpus`."""
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            os.sched_setaffinity(int(tid), cpus)
        except OSError:
            pass  # a thread that just ended


def cpu_seconds(pid):
    """The CPU time `pid`'s threads have used, in seconds (schedstat: nanoseconds, where
    /proc/PID/stat counts 10 ms ticks)."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            total += int(open(f"/proc/{pid}/task/{tid}/schedstat").read().split()[0])
        except OSError:
            pass
    return total / 1e9


def one_cpu(procs, runs=20000, rounds=15, poll=None):
    """`status` with the client and every server on one CPU, each server in turn: the scheduler
    no longer decides whether a wake-up crosses CPUs (20 µs or 50–90 µs on this kind of VM), so
    the time is the two processes' work and one switch each way. The client is the C one
    (`poll`, bench.d/poll.c) when given, whose own share of a round trip is the smallest. Returns,
    per server, the median time and the server's own CPU time a request over `rounds`, and each
    round's time (for `paired`)."""
    everywhere = os.sched_getaffinity(0)
    one = {min(everywhere)}
    out = {}
    try:
        os.sched_setaffinity(0, one)
        for p, _, _ in procs.values():
            pin(p.pid, one)
        samples = {n: [] for n in procs}
        for i in range(rounds):
            # Who goes first alternates, so that a drift of the machine falls on both alike.
            for n in (list(procs) if i % 2 == 0 else list(procs)[::-1]):
                p, port, _ = procs[n]
                cpu0 = cpu_seconds(p.pid)
                if poll:
                    done = subprocess.run(["taskset", "-c", str(min(one)), poll, str(port), str(runs)],
                                          capture_output=True, text=True, check=True)
                    t = float(done.stdout) / 1e6
                else:
                    c = Client(port)
                    c.request("status")
                    times = []
                    for _ in range(runs):
                        t0 = time.perf_counter()
                        c.request("status")
                        times.append(time.perf_counter() - t0)
                    c.close()
                    t = statistics.median(times)
                samples[n].append((t, (cpu_seconds(p.pid) - cpu0) / runs))
        for n, xs in samples.items():
            out[n] = (statistics.median(x[0] for x in xs), statistics.median(x[1] for x in xs), [x[0] for x in xs])
    finally:
        os.sched_setaffinity(0, everywhere)
        for p, _, _ in procs.values():
            pin(p.pid, everywhere)
    return out


def paired(boomic, mpd, lower):
    """How many rounds boomic won, each against MPD's round next to it, and how likely as many
    wins (or more) would be if neither server were faster (a one-sided sign test: each round a
    coin toss): a median alone cannot tell a lead of a few percent from noise. Returns (wins,
    rounds, p, the median of boomic's lead a round as a ratio, its range)."""
    wins = sum((b < m) if lower else (b > m) for b, m in zip(boomic, mpd))
    n = len(boomic)
    p = sum(math.comb(n, k) for k in range(wins, n + 1)) / 2 ** n
    ratios = sorted((m / b) if lower else (b / m) for b, m in zip(boomic, mpd))
    return wins, n, p, statistics.median(ratios), (ratios[0], ratios[-1])


def paired_note(boomic, mpd, lower):
    wins, n, p, _, _ = paired(boomic, mpd, lower)
    return f"boomic ahead in {wins} of {n} paired rounds, sign test p = {p:.3f}"


def fmt_t(s):
    return f"{s * 1000:.2f} ms" if s < 1 else f"{s:.2f} s"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--boomic", required=True)
    ap.add_argument("--library-root", required=True, help="the music (mklib.py's layout)")
    ap.add_argument("--work", required=True)
    ap.add_argument("--songs", type=int, required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(args.work, "config"))
    lib = os.path.join(args.work, "boomic-lib")
    if not os.path.exists(os.path.join(lib, "library.sqlite")):
        log(f"importing {args.songs} songs into {lib}")
        subprocess.run([args.boomic, "--library", lib, "import", args.library_root], check=True, env=env,
                       stdout=subprocess.DEVNULL)
    else:
        # The checkpoint as this build writes it (what opening reads): one an older build wrote
        # may lay the songs out otherwise. `verify --repair` rebuilds it from the log.
        log("rewriting the checkpoint with this build (verify --repair)")
        subprocess.run([args.boomic, "--library", lib, "verify", "--repair"], env=env, stdout=subprocess.DEVNULL)

    # MPD with its database built once (not timed here: the main bench times MPD's import).
    mdir = os.path.join(args.work, "mpd")
    os.makedirs(mdir, exist_ok=True)
    mport = free_port()
    conf = os.path.join(mdir, "mpd.conf")
    with open(conf, "w") as f:
        f.write(f'''music_directory "{args.library_root}"
db_file "{mdir}/db"
log_file "{mdir}/log"
pid_file "{mdir}/pid"
state_file "{mdir}/state"
bind_to_address "127.0.0.1"
port "{mport}"
auto_update "no"
zeroconf_enabled "no"
max_output_buffer_size "262144"
audio_output {{
  type "null"
  name "null"
}}
''')
    procs = {}
    rows = []
    try:
        if shutil.which("mpd"):
            fresh = not os.path.exists(os.path.join(mdir, "db"))
            p = subprocess.Popen(["mpd", "--no-daemon", conf], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.STDOUT)
            wait_port(mport, p, 30)
            if fresh:
                log("MPD: building its database once")
                c = Client(mport)
                c.request("update")
                time.sleep(0.5)
                while "updating_db" in c.fields("status"):
                    time.sleep(0.2)
                c.close()
            p.send_signal(signal.SIGTERM)
            p.wait(30)
            # Start-up with the database there.
            t0 = time.perf_counter()
            p = subprocess.Popen(["mpd", "--no-daemon", conf], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.STDOUT)
            up = wait_port(mport, p, 60)
            procs["mpd"] = (p, mport, up)
        else:
            log("mpd is not installed: boomic only")
        bport = free_port()
        p = subprocess.Popen([args.boomic, "--library", lib, "serve", "--bind", f"127.0.0.1:{bport}", "--output", "null",
                              "--no-record"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=open(os.path.join(args.work, "serve.log"), "w"), env=env)
        up = wait_port(bport, p, 60)
        procs["boomic"] = (p, bport, up)
        if up is None:
            log("boomic serve did not start; see " + os.path.join(args.work, "serve.log"))
            return

        # The floor answers what MPD (or else boomic) answers to `status`, byte for byte.
        floor = start_floor(args.work, raw_answer((procs.get("mpd") or procs["boomic"])[1], "status"))
        if floor:
            procs["floor"] = floor
        requests = [
            ("status", "status", 2000),
            ("list artist", "list artist", 30),
            ("search any WORD", 'search any "T0012345"', 30),
            ("find album X", 'find album "Album B01234 ' + album_words(1234) + '"', 30),
            ("listallinfo", "listallinfo", 9),
        ]
        names = list(procs)
        ports = [procs[n][1] for n in names]
        results = {n: {"start": procs[n][2]} for n in names}
        for label, line, runs in requests:
            # The floor answers `status` to everything: it takes part in the rows of `status`.
            row_names = names if label == "status" else [n for n in names if n != "floor"]
            try:
                for n, t in zip(row_names, time_requests([procs[n][1] for n in row_names], line, runs)):
                    results[n][label] = t
            except Exception as e:  # noqa: BLE001 — a failing row is reported, not fatal
                log(f"{label}: {e}")
        pinned = one_cpu(procs, poll=build_c(args.work, "poll")) if hasattr(os, "sched_setaffinity") else {}
        log(f"one CPU: { {n: [round(x * 1e6, 2) for x in v[2]] for n, v in pinned.items()} } µs a round")
        # Requests/s from C clients (the row of the goal), then from Python ones, which are the
        # bottleneck themselves (the floor gets no more from them than the servers do).
        load = build_c(args.work, "load")
        rounds = {n: [] for n in names}
        py_rounds = {n: [] for n in names}
        for i in range(15 if load else 0):
            for n in (names if i % 2 == 0 else names[::-1]):
                rounds[n].append(rps(procs[n][1], load=load))
        for _ in range(3):
            for n in names:
                py_rounds[n].append(rps(procs[n][1]))
        for n in names:
            if rounds[n]:
                results[n]["rps"] = statistics.median(rounds[n])
            results[n]["py_rps"] = statistics.median(py_rounds[n])
            results[n]["rss"], results[n]["hwm"] = rss(procs[n][0].pid)
            log(f"{n}: {results[n]} (requests/s rounds, C {[round(x) for x in rounds[n]]},"
                f" Python {[round(x) for x in py_rounds[n]]})")
        if floor:
            floor[0].send_signal(signal.SIGTERM)

        b, m, fl = results.get("boomic", {}), results.get("mpd", {}), results.get("floor", {})
        print(f"\n## boomic serve against MPD {'(MPD missing)' if not m else ''}: {args.songs} songs, loopback, same run\n")
        print("| request | boomic serve | MPD | boomic / MPD |")
        print("|---|---|---|---|")
        pb, pm, pf = pinned.get("boomic"), pinned.get("mpd"), pinned.get("floor")
        us = lambda x: f"{x * 1e6:.1f} µs"
        for label, _, _ in [("start (to the first answer)", 0, 0)] + requests:
            key = "start" if label.startswith("start") else label
            if key == "status" and pb and pm:
                # Unpinned, a round trip is mostly the time the scheduler takes to wake each
                # side on a CPU (the floor, which does nothing, lands anywhere among the
                # servers), so the row of the goal is the pinned one; the unpinned one follows.
                r = pb[0] / pm[0]
                print(f"| status (client and server on one CPU) | {us(pb[0])} | {us(pm[0])} | "
                      f"{'%.2f× faster' % (1 / r) if r <= 1 else '%.2f× slower' % r}"
                      f" ({paired_note(pb[2], pm[2], lower=True)}{f'; the floor {us(pf[0])}' if pf else ''}) |")
                print(f"| — the server's own CPU time a request (user and kernel) | {us(pb[1])} | {us(pm[1])} | "
                      f"boomic {pb[1] / pm[1]:.2f}× MPD's{f' (the floor {us(pf[1])})' if pf else ''} |")
                continue
            bv, mv = b.get(key), m.get(key)
            ratio = f"{mv / bv:.2f}× faster" if bv and mv and bv <= mv else (f"{bv / mv:.2f}× slower" if bv and mv else "—")
            print(f"| {label} | {fmt_t(bv) if bv else '—'} | {fmt_t(mv) if mv else '—'} | {ratio} |")
        for key, label in (("rps", "requests/s, 10 clients (`status`, C clients)"),
                           ("py_rps", "requests/s, 10 Python clients (client-bound: see the floor's)")):
            if b.get(key):
                r = b[key] / m[key] if m.get(key) else None
                note = f" ({paired_note(rounds['boomic'], rounds['mpd'], lower=False)})" if key == "rps" and r else ""
                print(f"| {label} | {b[key]:.0f} | {m.get(key, 0):.0f} | {'%.2f×' % r if r else '—'}{note} |")
        if b.get("status") and m.get("status"):
            bv, mv = b["status"], m["status"]
            print(f"| status, unpinned (the scheduler's: see the floor's) | {fmt_t(bv)} | {fmt_t(mv)} | "
                  f"{f'{mv / bv:.2f}× faster' if bv <= mv else f'{bv / mv:.2f}× slower'} |")
        if fl.get("status"):
            print(f"| the floor: `status` unpinned (C, fixed answer) | {fmt_t(fl['status'])} | — | "
                  f"boomic {b['status'] / fl['status']:.2f}×, MPD {m['status'] / fl['status'] if m.get('status') else 0:.2f}× the floor's time |")
            for key, who in (("rps", "C clients"), ("py_rps", "Python clients")):
                if fl.get(key) and b.get(key):
                    print(f"| the floor: requests/s, {who} | {fl[key]:.0f} | — | "
                          f"boomic {b[key] / fl[key]:.2f}×, MPD {m.get(key, 0) / fl[key]:.2f}× the floor's |")
        for key, label in (("rss", "RSS after the runs"), ("hwm", "peak RSS (VmHWM)")):
            bv, mv = b.get(key), m.get(key)
            print(f"| {label} | {bv / 1024:.0f} MB | {mv / 1024 if mv else 0:.0f} MB | "
                  f"{'%.2f×' % (bv / mv) if bv and mv else '—'} |")
        # Other commands clients send while browsing (ncmpcpp's media library, Cantata,
        # M.A.L.P.): not rows of the goal, measured the same way. The first grouped list
        # builds the snapshot's columns, so its first answer is shown too.
        other = [
            ("list album group albumartist", "list album group albumartist"),
            ("list album group date group albumartist", "list album group date group albumartist"),
            ("count group genre", "count group genre"),
            ('list album albumartist "X"', 'list album albumartist "Artist A0123"'),
            ('find albumartist "X" album "Y"', 'find albumartist "Artist A0123" album "Album B01234 '
             + album_words(1234) + '"'),
            ('search artist "x"', 'search artist "a0123"'),
            ('search title "x"', 'search title "t00123"'),
            ("list title", "list title"),
            ("stats", "stats"),
        ]
        print("\n### Other commands clients send (not rows of the goal)\n")
        print("| request | boomic serve | MPD | boomic / MPD |")
        print("|---|---|---|---|")
        names = [n for n in names if n != "floor"]
        ports = [procs[n][1] for n in names]
        for n, (label, line) in enumerate(other):
            firsts = []
            try:
                times = time_requests(ports, line, 30 if "group" in line or "list title" in line else 50, firsts)
            except Exception as e:  # noqa: BLE001
                log(f"{label}: {e}")
                continue
            row = dict(zip(names, times))
            bv, mv = row.get("boomic"), row.get("mpd")
            ratio = f"{mv / bv:.2f}× faster" if bv and mv and bv <= mv else (f"{bv / mv:.2f}× slower" if bv and mv else "—")
            print(f"| {label} | {fmt_t(bv)} | {fmt_t(mv) if mv else '—'} | {ratio} |")
            if n == 0:
                first = dict(zip(names, firsts))
                fb, fm = first.get("boomic"), first.get("mpd")
                ratio = f"{fm / fb:.2f}× faster" if fb and fm and fb <= fm else (f"{fb / fm:.2f}× slower" if fb and fm else "—")
                print(f"| {label}, first after start | {fmt_t(fb)} | {fmt_t(fm) if fm else '—'} | {ratio} |")

        print("\nTimes: median of repeated requests on one open connection (status 2000, list/search/find 30,"
              " listallinfo 9), after one warm-up, boomic's and MPD's taking turns, answers read in bulk;"
              " requests/s: 10 connections each sending `status` in a loop for 3 s, threads of a C client"
              " (bench.d/load.c; median of 15 rounds taking turns) or Python processes (median of three); on one CPU: a C client (bench.d/poll.c) and the servers pinned to one CPU, 20,000 `status` each,"
              " median of 15 rounds taking turns; a sign test counts the rounds boomic won against MPD's round next to it; the server's CPU time from /proc/PID/task/*/schedstat. Budgets: faster than MPD on every row (issue 11; `status` and requests/s ahead of MPD, issue 35), RSS no more than MPD's (DESIGN §7).")
    finally:
        for proc, _, _ in procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()


def album_words(album):
    sys.path.insert(0, HERE)
    import mklib  # the same words the library was made with
    f = mklib.song_fields(album * 10)
    return f["album"].split(" ", 2)[2]


if __name__ == "__main__":
    main()
