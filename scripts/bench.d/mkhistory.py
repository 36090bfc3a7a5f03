#!/usr/bin/env python3
"""Make a long history for scripts/bench as `boomic export` JSON lines.

    mkhistory.py EXPORT OUT TOTAL [--seed S] [--days D] [--summary FILE]

EXPORT is `boomic export` of a library whose only transaction is a real import (seq 1). OUT gets
that import, then small edit transactions until there are TOTAL in all, in the exact shape
`boomic export` prints: one `{"seq":N,"transaction":{...}}` per line, ids lowercase, each edit an
update assertion per song `{"update":{"id":…,"fields":{"genre":{"old":…,"new":…}}}}` with the
song's true current value as `old` (the state is tracked here), `parent` the previous
transaction's id, and the `file_values` bookkeeping a real `modify` keeps (the file's value of a
tag field the library changed). `boomic --library NEW import-json OUT` then builds the library in
one process instead of ~10,000 CLI runs.

What the edits are like (fixed seed, so the same file every time): one song (60 %) or 2–5
neighbouring tracks of one album; genre (40 %), rating (25 %), title (12 %), genre and rating
together (8 %), or `boomic tag` +#x / -#x (15 %). Times: the import is moved back D days (its
`added` stamps too, by the same amount) and the edits spread evenly after it, ending an hour ago,
so dates name states (`--as-of 2026-05-01`).

--summary writes JSON facts bench.py needs: the REF date chosen and the seq it names, the album
edited most (for `blame`), counts. --state writes every song's final title, genre, rating and
tags, which bench.py compares with `boomic ls --json` of the built library.
"""
import argparse
import datetime
import json
import random
import shlex
import sys
import time
import uuid

GENRES = ["Rock", "Jazz", "Classical", "Pop", "Electronic", "Hip-Hop", "Folk", "Blues",
          "Metal", "Soul", "Reggae", "Country", "Ambient", "Latin", "Punk", "Indie Rock",
          "Modal Jazz", "Post-Punk", "Trip-Hop", "Bossa Nova"]
TITLE_SUFFIXES = [" (Remastered)", " (Live)", " (Demo)", " - Single Version", " (Radio Edit)"]
TAGS = ["fav", "mood:calm", "mood:energetic", "party", "workout", "todo:check", "instruments:piano"]


def fv_entry(field, value):
    # Song.fileValueMap: field=JSON of the value, sorted keys, '/' unescaped (json.dumps never escapes it)
    return f"{field}={json.dumps(value, ensure_ascii=False, separators=(',', ':'))}"


class Song:
    __slots__ = ("id", "title", "genre", "rating", "tags", "file_values", "album", "track")

    def __init__(self, d):
        self.id = d["id"]
        self.title = d.get("title")
        self.genre = d.get("genre")
        self.rating = d.get("rating")
        self.tags = list(d.get("tags") or [])
        self.file_values = list(d.get("fileValues") or [])
        self.album = d.get("album")
        self.track = d.get("track")


def set_field(song, field, new, is_tag_field):
    """Returns the update's fields dict {field: {old, new}, file_values…} or None if no change."""
    old = getattr(song, field)
    if old == new:
        return None
    out = {field: {"old": old, "new": new}}
    setattr(song, field, new)
    if is_tag_field:
        # Song.edit: the first departure from the file remembers the file's value; going back forgets it.
        fv = dict(e.split("=", 1) for e in song.file_values)
        if field in fv:
            if fv[field] == json.dumps(new, ensure_ascii=False, separators=(',', ':')):
                del fv[field]
        else:
            fv[field] = json.dumps(old, ensure_ascii=False, separators=(',', ':'))
        new_fv = sorted(f"{k}={v}" for k, v in fv.items())
        if new_fv != song.file_values:
            out["file_values"] = {"old": song.file_values, "new": new_fv}
            song.file_values = new_fv
    return out


def write_state(path, songs):
    """--state: every song's final title, genre, rating and tags, which the bench compares with
    `boomic ls --json` of the library built."""
    with open(path, "w") as f:
        json.dump({s.id: {"title": s.title, "genre": s.genre, "rating": s.rating, "tags": sorted(s.tags)}
                   for s in songs}, f)


def write_edits(w, songs, parent, seq, total, start, end, rnd, library_arg):
    """Appends edit transactions after seq (whose transaction is `parent`) until there are total,
    their times spread evenly from start to end, through w(seq, transaction). songs are Song
    values holding the library's current state; they are updated as the edits go. Returns
    (last seq, every transaction's time from start on, song edits per album, update count)."""
    # neighbours: songs of one album in track order, for multi-song edits
    by_album = {}
    for s in songs:
        by_album.setdefault(s.album, []).append(s)
    for v in by_album.values():
        v.sort(key=lambda s: (s.track or 0, s.id))
    album_of = {s.id: by_album[s.album] for s in songs}
    n_edits = max(0, total - seq)
    step = (end - start) / (n_edits + 1)
    lib = shlex.quote(library_arg)
    album_edits = {}
    assertions_total = 0
    stamps = [start]
    first = seq
    while seq < total:
        seq += 1
        ts = start + (seq - first) * step + rnd.uniform(0, step * 0.5)
        s0 = rnd.choice(songs)
        if rnd.random() < 0.6:
            group = [s0]
            query = f"title:{s0.title.split()[1]}" if s0.title and len(s0.title.split()) > 1 else f"id:{s0.id[:8]}"
        else:
            alb = album_of[s0.id]
            k = min(len(alb), rnd.randint(2, 5))
            i = rnd.randrange(0, len(alb) - k + 1)
            group = alb[i:i + k]
            query = f"album:{(s0.album or '').split(' ')[1] if s0.album and ' ' in s0.album else s0.album}"
        r = rnd.random()
        kind = "edit"
        if r < 0.40:
            g = rnd.choice(GENRES)
            changes = [("genre", lambda s, g=g: g, True)]
            what = f"genre={g}"
        elif r < 0.65:
            v = rnd.randint(1, 5)
            changes = [("rating", lambda s, v=v: v, False)]
            what = f"rating={v}"
        elif r < 0.77:
            suf = rnd.choice(TITLE_SUFFIXES)
            base = lambda s: (s.title or "").split(" (")[0].split(" - ")[0]
            changes = [("title", lambda s, suf=suf: base(s) + suf, True)]
            what = f"title='…{suf}'"
        elif r < 0.85:
            g, v = rnd.choice(GENRES), rnd.randint(1, 5)
            changes = [("genre", lambda s, g=g: g, True), ("rating", lambda s, v=v: v, False)]
            what = f"genre={g} rating={v}"
        else:
            kind = "tag"
            tag = rnd.choice(TAGS)
            add = rnd.random() < 0.7
            changes = [("tags", (lambda s, t=tag: sorted(set(s.tags) | {t})) if add
                        else (lambda s, t=tag: [x for x in s.tags if x != t]), False)]
            what = f"{'+' if add else '-'}#{tag}"
        assertions = []
        for s in group:
            fields = {}
            for field, newf, is_tag in changes:
                d = set_field(s, field, newf(s), is_tag)
                if d:
                    fields.update(d)
            if fields:
                assertions.append({"update": {"id": s.id, "fields": fields}})
        if not assertions:
            # nothing changed (value already set): a real modify commits nothing; retry this seq
            seq -= 1
            continue
        for s in group:
            album_edits[s.album] = album_edits.get(s.album, 0) + 1
        assertions_total += len(assertions)
        cnt = f"({len(assertions)} song{'' if len(assertions) == 1 else 's'})"
        if kind == "tag":
            label = f"tag {what} {cnt}"
            command = f"boomic --library {lib} tag {shlex.quote(query)} {shlex.quote(what)} -y"
        else:
            label = f"modify {what} {cnt}"
            command = f"boomic --library {lib} modify {shlex.quote(query)} {what} -y"
        tid = str(uuid.UUID(int=rnd.getrandbits(128), version=4))
        w(seq, {"assertions": assertions, "id": tid, "kind": kind, "label": label, "parent": parent,
                "provenance": {"command": command, "version": "0.1.0"}, "timestamp": ts})
        parent = tid
        stamps.append(ts)
    return seq, stamps, album_edits, assertions_total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("export")
    ap.add_argument("out")
    ap.add_argument("total", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--days", type=float, default=365)
    ap.add_argument("--summary")
    ap.add_argument("--state", help="write the final title/genre/rating/tags of every song here (JSON)")
    ap.add_argument("--library-arg", default="/tmp/boomic-bench/hist", help="the --library shown in provenance")
    a = ap.parse_args()
    t0 = time.perf_counter()

    with open(a.export, encoding="utf-8") as f:
        first = f.readline()
        rest = f.readline()
        if rest.strip() and "transaction" not in json.loads(rest):  # boomic export's end line
            rest = f.readline()
    if rest.strip():
        sys.exit("mkhistory: the export must hold only the import (seq 1); export a freshly imported library")
    line = json.loads(first)
    if line.get("seq") != 1 or line["transaction"].get("kind") != "import":
        sys.exit("mkhistory: the first line is not the import (seq 1)")
    imp = line["transaction"]
    now = time.time()
    start = now - a.days * 86400
    shift = start - imp["timestamp"]
    imp["timestamp"] = start
    songs = []
    for asr in imp["assertions"]:
        s = asr.get("add")
        if s is None:
            continue
        if isinstance(s.get("added"), (int, float)):
            s["added"] += shift
        songs.append(Song(s))
    if not songs:
        sys.exit("mkhistory: the import adds no songs")

    rnd = random.Random(a.seed)
    out = open(a.out, "w", encoding="utf-8")
    w = lambda seq, t: out.write(json.dumps({"seq": seq, "transaction": t}, ensure_ascii=False,
                                            separators=(",", ":")) + "\n")
    w(1, imp)
    seq, stamps, album_edits, assertions_total = write_edits(
        w, songs, imp["id"], 1, a.total, start, now - 3600, rnd, a.library_arg)
    out.write(json.dumps({"end": {"transactions": seq}}, separators=(",", ":")) + "\n")  # boomic export's end line
    out.close()

    # A date REF about a quarter of the way in: the state at the end of that local day.
    qi = len(stamps) // 4
    day = datetime.datetime.fromtimestamp(stamps[qi]).date()
    eod = datetime.datetime.combine(day + datetime.timedelta(days=1), datetime.time()).timestamp()
    date_seq = sum(1 for t in stamps if t < eod)
    busiest = max(album_edits.items(), key=lambda kv: kv[1])[0] if album_edits else None
    summary = {"transactions": seq, "songs": len(songs), "edit_assertions": assertions_total,
               "date_ref": day.isoformat(), "date_ref_seq": date_seq,
               "blame_album": busiest, "blame_album_edits": album_edits.get(busiest, 0),
               "first_time": stamps[0], "last_time": stamps[-1], "seconds": time.perf_counter() - t0}
    if a.summary:
        with open(a.summary, "w") as f:
            json.dump(summary, f)
    if a.state:
        write_state(a.state, songs)
    print(f"mkhistory: {seq:,} transactions ({assertions_total:,} edit assertions) for {len(songs):,} songs "
          f"in {summary['seconds']:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
