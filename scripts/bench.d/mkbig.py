#!/usr/bin/env python3
"""Make a library of N songs without files, as `boomic export` JSON lines, for scripts/bench's
growth and size rows (bench.d/scale.py).

    mkbig.py OUT N [--history T] [--batch B] [--root DIR] [--seed S] [--days D]
                   [--summary FILE] [--state FILE] [--library-arg DIR]

OUT gets what `boomic export` prints for a library whose songs came in by imports of B songs
each (default 20,000: a big library is imported in batches, and one line of a million songs
would be hundreds of MB), followed by mkhistory.py's edits until there are T transactions in all
(default 10,000). `boomic --library NEW import-json OUT` builds the library; no file is read, so
a million songs need no million files (the paths under --root do not exist: a rescan of such a
library is not a figure).

The songs are mklib.py's: song i is by "Artist A{i//100:04d}" on "Album B{i//10:05d} …", track
i%10+1, with mklib's title, year, genre and composer, so `artist:A0042` is 100 songs and
`artist:A000` 1,000 at any N. Each import assertion carries every field a real import of
mklib's files sets, in its order and spelling (`boomic export` of `boomic import` of
/tmp/boomic-bench/lib-2000): the tags, `artists`, `added`, the file facts (format, path, size,
mtime in nanoseconds, duration, bitrate, sample rate, channels, a FLAC's bit depth, the audio
fingerprint: a FLAC's STREAMINFO MD5, 16 hex digits for an MP3) and the bookkeeping (`missing`,
`favorite`, `compilation`, `playcount`, `tags`, `file_values`). Durations and sizes are those of
real songs (2–7 minutes; FLAC at 600–1,100 kb/s, MP3 at 128–192 kb/s), not mklib's 0.2 s.
Fixed seed: the same file for the same arguments, but for the times (the history ends an hour
before the run, as mkhistory.py's).

--summary and --state write what mkhistory.py's do (and the imports' count).
"""
import argparse
import datetime
import hashlib
import json
import os
import random
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkhistory  # noqa: E402
from mklib import format_for_album, song_fields, song_relpath  # noqa: E402

# scripts/bench's templates, by (album // 2) % 10: sample rate, channels (as mklib's files are).
TEMPLATES = [(44100, 2), (48000, 2), (44100, 1), (96000, 2), (44100, 2),
             (48000, 1), (44100, 2), (32000, 2), (44100, 2), (48000, 2)]


def song_add(i, root, added, mtime_base, rnd):
    """The `add` body of song i as a real import writes it (keys sorted, as export prints)."""
    f = song_fields(i)
    album = i // 10
    ext = format_for_album(album)
    rate, channels = TEMPLATES[(album // 2) % len(TEMPLATES)]
    duration = round(rnd.uniform(120, 420), 3)
    s = {
        "added": added, "album": f["album"], "albumartist": f["albumartist"], "artists": [f["artist"]],
        "channels": channels, "compilation": False, "composer": f["composer"], "disc": f["disc"],
        "duration": duration, "favorite": False, "file_values": [], "format": ext, "genre": f["genre"],
        "id": str(uuid.UUID(int=rnd.getrandbits(128), version=4)), "missing": False,
        "mtime": mtime_base + i * 97_001 + rnd.randrange(1000),
        "path": os.path.join(root, song_relpath(i, ext)), "playcount": 0, "tags": [], "title": f["title"],
        "track": f["track"], "tracktotal": f["tracktotal"], "year": f["year"],
    }
    if ext == "flac":
        kbps = rnd.randint(600, 1100) * channels // 2
        s.update(bitdepth=16, bitrate=kbps, samplerate=rate,
                 fingerprint=hashlib.md5(b"boomic-bench %d" % i).hexdigest())
    else:
        kbps = 128 + 32 * (((album // 2) % len(TEMPLATES)) % 3)
        s.update(bitrate=kbps, samplerate=min(rate, 48000),
                 fingerprint=hashlib.sha1(b"boomic-bench mp3 %d" % i).hexdigest()[:16])
    s["size"] = int(kbps * 125 * duration) + 1200
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("songs", type=int)
    ap.add_argument("--history", type=int, default=10000, help="transactions in all, the imports included")
    ap.add_argument("--batch", type=int, default=20000, help="songs an import transaction adds")
    ap.add_argument("--root", default="/tmp/boomic-bench/nofiles", help="the folder the paths name (not made)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--days", type=float, default=365)
    ap.add_argument("--summary")
    ap.add_argument("--state")
    ap.add_argument("--library-arg", default="/tmp/boomic-bench/big", help="the --library shown in provenance")
    a = ap.parse_args()
    t0 = time.perf_counter()
    n, batch = a.songs, max(1, a.batch)
    imports = (n + batch - 1) // batch
    if a.history < imports:
        sys.exit(f"mkbig: {imports} imports of {batch} songs need --history of at least {imports}")

    rnd = random.Random(a.seed)
    now = time.time()
    start = now - a.days * 86400
    mtime_base = int((start - 86400) * 1e9)
    out = open(a.out, "w", encoding="utf-8")
    w = lambda seq, t: out.write(json.dumps({"seq": seq, "transaction": t}, ensure_ascii=False,
                                            separators=(",", ":"), sort_keys=True) + "\n")
    songs, parent, stamps = [], None, []
    for k in range(imports):
        ts = start + k * 60.0  # one import a minute
        lo, hi = k * batch, min(n, (k + 1) * batch)
        adds = [song_add(i, a.root, ts - 0.6, mtime_base, rnd) for i in range(lo, hi)]
        songs.extend(mkhistory.Song(s) for s in adds)
        t = {"assertions": [{"add": s} for s in adds], "id": str(uuid.UUID(int=rnd.getrandbits(128), version=4)),
             "kind": "import", "label": f"import: {hi - lo} new",
             "provenance": {"command": f"boomic --library {a.library_arg} import {a.root}", "version": "0.2.0"},
             "timestamp": ts}
        if parent:
            t["parent"] = parent
        w(k + 1, t)
        parent = t["id"]
        stamps.append(ts)
    # mkhistory's edits after the imports, up to the last hour before now
    seq, edit_stamps, album_edits, assertions_total = mkhistory.write_edits(
        w, songs, parent, imports, a.history, stamps[-1], now - 3600, rnd, a.library_arg)
    stamps += edit_stamps[1:]
    out.write(json.dumps({"end": {"transactions": seq}}, separators=(",", ":")) + "\n")  # export's end line
    out.close()

    qi = len(stamps) // 4
    day = datetime.datetime.fromtimestamp(stamps[qi]).date()
    eod = datetime.datetime.combine(day + datetime.timedelta(days=1), datetime.time()).timestamp()
    busiest = max(album_edits.items(), key=lambda kv: kv[1])[0] if album_edits else None
    summary = {"transactions": seq, "songs": len(songs), "imports": imports, "batch": batch,
               "edit_assertions": assertions_total,
               "date_ref": day.isoformat(), "date_ref_seq": sum(1 for t in stamps if t < eod),
               "blame_album": busiest, "blame_album_edits": album_edits.get(busiest, 0),
               "first_time": stamps[0], "last_time": stamps[-1], "seconds": time.perf_counter() - t0,
               "bytes": os.path.getsize(a.out)}
    if a.summary:
        with open(a.summary, "w") as f:
            json.dump(summary, f)
    if a.state:
        mkhistory.write_state(a.state, songs)
    print(f"mkbig: {len(songs):,} songs in {imports} imports, then {seq - imports:,} edits "
          f"({assertions_total:,} song updates): {summary['bytes'] / 1e6:.0f} MB in {summary['seconds']:.1f} s",
          file=sys.stderr)


if __name__ == "__main__":
    main()
