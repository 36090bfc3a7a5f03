#!/usr/bin/env python3
"""turns_read.py NEW_BIN NEW_LIB OLD_BIN OLD_LIB [runs]: issue 37's read rows, two builds taking
turns run by run, each on its own library loaded from the same `mkhistory.py` log by its own
`import-json`; prints median wall ms and median CPU ms (user+sys) of each, and peak RSS of new."""
import os, subprocess, sys, time, statistics
NB, NL, OB, OL = sys.argv[1:5]
runs = int(sys.argv[5]) if len(sys.argv) > 5 else 5
def paths(B, L):
    return subprocess.run([B, "--library", L, "ls", "--format", "$path", "artist:=Artist A0042"], capture_output=True, text=True).stdout.splitlines()
p = paths(NB, NL)
prefix = os.path.dirname(p[0]) if p else "/"
rows = [
    ("--version", ["--version"]),
    ("open: history -n 1", ["history", "-n", "1"]),
    ("ls artist:A0042 (~100)", ["ls", "artist:A0042"]),
    ("ls -a artist:A0042", ["ls", "-a", "artist:A0042"]),
    ("bare word T00421", ["ls", "T00421"]),
    ("album:B0042", ["ls", "album:B0042"]),
    ("artist:=Artist A0042", ["ls", "artist:=Artist A0042"]),
    ("title::^Song T00421", ["ls", "title::^Song T00421"]),
    ("year:1990..1999 artist:A000", ["ls", "year:1990..1999", "artist:A000"]),
    ("^genre:Rock artist:A0042", ["ls", "^genre:Rock", "artist:A0042"]),
    ("artist:A0042 , artist:A0043", ["ls", "artist:A0042", ",", "artist:A0043"]),
    ("artist:A0042 year- title+", ["ls", "artist:A0042", "year-", "title+"]),
    ("path: prefix", ["ls", "path:" + prefix]),
    ("ls everything", ["ls"]),
    ("diff HEAD~1000", ["diff", "HEAD~1000"]),
    ("ls ~100 --as-of HEAD~1000", ["ls", "artist:A0042", "--as-of", "HEAD~1000"]),
    ("blame album:B0058", ["blame", "album:B0058"]),
]
def run(B, L, args):
    t = time.perf_counter()
    p = subprocess.Popen([B, "--library", L] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    dt = (time.perf_counter() - t) * 1000
    return dt, (ru.ru_utime + ru.ru_stime) * 1000, ru.ru_maxrss
print(f"{'row':34s} {'new wall':>9s} {'old wall':>9s} {'new cpu':>8s} {'old cpu':>8s} {'cpu ratio':>9s} {'new RSS MB':>10s}")
for name, args in rows:
    n, o = [], []
    for _ in range(runs):
        n.append(run(NB, NL, args)); o.append(run(OB, OL, args))
    nw, ow = statistics.median(x[0] for x in n), statistics.median(x[0] for x in o)
    nc, oc = statistics.median(x[1] for x in n), statistics.median(x[1] for x in o)
    print(f"{name:34s} {nw:9.1f} {ow:9.1f} {nc:8.1f} {oc:8.1f} {nc/max(oc,0.1):9.2f} {max(x[2] for x in n)/1024:10.1f}", flush=True)
