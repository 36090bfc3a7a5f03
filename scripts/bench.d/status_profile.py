#!/usr/bin/python3
"""The `status` row of `scripts/bench --serve`, looked at closely. boomic serve and MPD run on
copies of the library and the MPD configuration the serve bench made ($BENCH_DIR/serve-N), and
each is measured twice:
  1. pinned with its client (bench.d/poll.c) to one CPU, 20,000 polls a round, ROUNDS rounds
     taking turns: the time a round trip and the server's CPU time a poll (every thread);
  2. under callgrind, 22,000 polls after 2,000 unmeasured: instructions a poll. boomic's are its
     event loop's inclusive count, so that work started at start-up on other threads (the walk
     for playlist files) does not count; MPD's are the whole process's.
Run `scripts/bench --serve` once first. Needs a C compiler, and valgrind for step 2.

  scripts/bench.d/status_profile.py [--boomic PATH] [--rounds N] [--rps-rounds N] [--no-callgrind]

Each paired comparison also says in how many rounds boomic was ahead of the MPD round next to
it, and a sign test's p: how likely that many wins would be from two servers equally fast.

BENCH_DIR and BENCH_SONGS as for scripts/bench. Documentation/performance.md has its figures."""
import argparse, os, re, shutil, signal, statistics, subprocess, sys, time

import serve  # the serve bench's helpers: pin, cpu_seconds, wait_port, free_port

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def paired(what, boomic, mpd, lower):
    """The rounds boomic won, each against MPD's round next to it, with a sign test's p
    (`serve.paired`)."""
    wins, n, p, median, (low, high) = serve.paired(boomic, mpd, lower)
    print(f"  {what}: boomic ahead in {wins} of {n} paired rounds (sign test, one-sided p = {p:.4f});"
          f" its lead a round: median {median:.3f}×, range {low:.3f}–{high:.3f}×")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boomic", default=os.path.join(REPO, ".build-bench/release/boomic"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--rps-rounds", type=int, default=0, help="also requests/s from 10 C clients, this many rounds")
    args = ap.parse_args()
    bench_dir = os.environ.get("BENCH_DIR", "/tmp/boomic-bench")
    served = os.path.join(bench_dir, f"serve-{os.environ.get('BENCH_SONGS', '50000')}")
    if not os.path.exists(os.path.join(served, "boomic-lib/library.sqlite")) or not os.path.exists(os.path.join(served, "mpd/mpd.conf")):
        sys.exit(f"status_profile: no {served}; run scripts/bench --serve first")
    if not os.access(args.boomic, os.X_OK):
        sys.exit(f"status_profile: no boomic at {args.boomic}")

    work = os.path.join(bench_dir, "status-profile")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "xdg"))
    shutil.copytree(os.path.join(served, "boomic-lib"), os.path.join(work, "lib"))
    shutil.copytree(os.path.join(served, "mpd"), os.path.join(work, "mpd"))
    xdg = os.path.join(work, "xdg")
    env = dict(os.environ, XDG_CONFIG_HOME=xdg, XDG_STATE_HOME=xdg, XDG_DATA_HOME=xdg, XDG_RUNTIME_DIR=xdg)
    poll = os.path.join(work, "poll")
    subprocess.run([shutil.which("cc") or "gcc", "-O2", "-o", poll, os.path.join(HERE, "poll.c")], check=True)
    conf = os.path.join(work, "mpd/mpd.conf")

    def servers(wrap=lambda name: []):
        """Starts both (under `wrap`, a command prefix), each on a free port, once they answer."""
        bport, mport = serve.free_port(), serve.free_port()
        text = open(conf).read().replace(os.path.join(served, "mpd"), os.path.join(work, "mpd"))
        open(conf, "w").write(re.sub(r'(?m)^port .*$', f'port "{mport}"', text))
        boomic = [args.boomic, "--library", os.path.join(work, "lib"), "serve", "--bind", f"127.0.0.1:{bport}",
                  "--output", "null", "--no-record"]
        quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs = {"boomic": (subprocess.Popen([*wrap("boomic"), *boomic], env=env, **quiet), bport),
                 "mpd": (subprocess.Popen([*wrap("mpd"), "mpd", "--no-daemon", conf], **quiet), mport)}
        for name, (p, port) in procs.items():
            if serve.wait_port(port, p, 120) is None:
                stop(procs)
                sys.exit(f"status_profile: {name} did not start")
        time.sleep(3)  # boomic's start-up work on other threads (the walk for playlist files)
        return procs

    def stop(procs):
        for p, _ in procs.values():
            p.send_signal(signal.SIGTERM)
        for p, _ in procs.values():
            p.wait(30)

    # 1. Pinned to one CPU, taking turns (as serve.one_cpu, with the C client).
    procs = servers()
    one = {min(os.sched_getaffinity(0))}
    for p, _ in procs.values():
        serve.pin(p.pid, one)
    samples = {name: [] for name in procs}
    for _ in range(args.rounds):
        for name, (p, port) in procs.items():
            cpu0 = serve.cpu_seconds(p.pid)
            out = subprocess.run(["taskset", "-c", str(min(one)), poll, str(port), "20000"], capture_output=True, text=True, check=True)
            samples[name].append((float(out.stdout), (serve.cpu_seconds(p.pid) - cpu0) / 20000 * 1e6))
    stop(procs)
    print(f"status on one CPU, {args.rounds} rounds of 20,000 taking turns (median, range):")
    for name, xs in samples.items():
        t = [x[0] for x in xs]
        print(f"  {name:7} {statistics.median(t):6.2f} µs a round trip ({min(t):.2f}–{max(t):.2f}),"
              f" server CPU {statistics.median(x[1] for x in xs):.2f} µs a poll")
    paired("round trip", [x[0] for x in samples["boomic"]], [x[0] for x in samples["mpd"]], lower=True)

    # 1b. Requests/s from 10 C clients (bench.d/load.c), unpinned, taking turns (who goes first
    # alternates), as the serve bench's row, with as many rounds.
    if args.rps_rounds:
        load = serve.build_c(work, "load")
        procs = servers()
        rates = {name: [] for name in procs}
        for i in range(args.rps_rounds):
            for name in (list(procs) if i % 2 == 0 else list(procs)[::-1]):
                rates[name].append(serve.rps(procs[name][1], load=load))
        stop(procs)
        print(f"requests/s, 10 C clients, {args.rps_rounds} rounds of 3 s taking turns (median, range):")
        for name, r in rates.items():
            print(f"  {name:7} {statistics.median(r):8.0f} ({min(r):.0f}–{max(r):.0f})")
        paired("requests/s", rates["boomic"], rates["mpd"], lower=False)

    # 2. Instructions, under callgrind.
    if args.no_callgrind:
        return
    if shutil.which("valgrind") is None:
        sys.exit("status_profile: valgrind is not installed (apt install valgrind); no counts")
    # The release build's debugging information is more than valgrind 3.19 reads: a stripped copy.
    stripped = os.path.join(work, "boomic-stripped")
    shutil.copy(args.boomic, stripped)
    subprocess.run(["strip", "--strip-debug", stripped], check=True)
    args.boomic = stripped
    outs = {name: os.path.join(work, f"{name}.cg") for name in ("boomic", "mpd")}
    procs = servers(lambda name: ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={outs[name]}"])
    for name, (p, port) in procs.items():
        control = lambda *a: subprocess.run(["callgrind_control", *a, str(p.pid)], capture_output=True)
        subprocess.run([poll, str(port), "2000"], capture_output=True, check=True)
        control("-i", "on")
        subprocess.run([poll, str(port), "22000"], capture_output=True, check=True)
        control("-i", "off")
        control("-d")
    stop(procs)

    def instructions(path, pattern):
        out = subprocess.run(["callgrind_annotate", "--inclusive=yes", path + ".1"], capture_output=True, text=True).stdout
        line = next((l for l in out.splitlines() if re.search(pattern, l)), "0")
        return int(line.split()[0].replace(",", "")) // 22000
    # Its MPD front's loop (`SocketLoop.run`), or NIO's (`SelectableEventLoop.run`) in builds
    # before the front owned its sockets.
    loop = instructions(outs["boomic"], r"(SocketLoopC3run(33_[0-9A-F]+LL)?|SelectableEventLoopC3run)yyK?F \[")
    whole = instructions(outs["mpd"], r"PROGRAM TOTALS")
    print("instructions a poll (callgrind, 22,000 polls):")
    print(f"  boomic  {loop:,} on its event loop")
    print(f"  mpd     {whole:,} in the whole process")
    print(f"profiles: {outs['boomic']}.1, {outs['mpd']}.1 (callgrind_annotate --inclusive=yes FILE)")


if __name__ == "__main__":
    main()
