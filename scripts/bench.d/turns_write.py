#!/usr/bin/env python3
"""turns_write.py NEW_BIN NEW_LIB OLD_BIN OLD_LIB: modify 1,000 (5 runs, taking turns), then rollback HEAD~5000 and its undo, on copies."""
import os, shutil, subprocess, sys, time, statistics
NB, NL, OB, OL = sys.argv[1:5]
def run(B, L, args):
    t = time.perf_counter()
    p = subprocess.Popen([B, "--library", L] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, st, ru = os.wait4(p.pid, 0)
    return (time.perf_counter() - t) * 1000, (ru.ru_utime + ru.ru_stime) * 1000
libs = {}
for name, L in (("new", NL), ("old", OL)):
    c = L + "-w"
    shutil.rmtree(c, ignore_errors=True); shutil.copytree(L, c); libs[name] = c
bins = {"new": NB, "old": OB}
res = {"new": [], "old": []}
for k in range(5):
    for name in ("new", "old"):
        res[name].append(run(bins[name], libs[name], ["modify", "artist:A000", f"genre=Bench{k}", "-y"]))
for name in res:
    print(f"modify 1,000 {name}: wall {statistics.median(x[0] for x in res[name]):.0f} ms, CPU {statistics.median(x[1] for x in res[name]):.0f} ms")
for name in ("new", "old"):
    a = run(bins[name], libs[name], ["rollback", "HEAD~5000", "-y"]); b = run(bins[name], libs[name], ["undo", "-y"])
    print(f"{name}: rollback HEAD~5000 wall {a[0]:.0f} ms CPU {a[1]:.0f} ms; undo wall {b[0]:.0f} ms CPU {b[1]:.0f} ms")
