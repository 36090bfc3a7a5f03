#!/usr/bin/env python3
"""Make the synthetic library for scripts/bench.

    mklib.py TEMPLATE_DIR OUT_ROOT N

TEMPLATE_DIR holds tiny tagless FLAC and MP3 files (made by scripts/bench with sox, flac and
lame). Each song is one of them with its own tags, written here directly as bytes (a FLAC
VORBIS_COMMENT block, an ID3v2.4 tag) because calling mutagen per file would be ~50x slower;
mutagen then reads a sample back to check that the tags are right (when it is importable).

Layout (fixed, bench.py relies on it): song i (0-based) is by "Artist A{i//100:04d}", on album
"Album B{i//10:05d} ...", track i%10+1 of 10, so every artist has 100 songs and every album 10.
So `artist:A0042` matches 100 songs and `artist:A000` matches 1,000 (artists A0000..A0009).
Albums alternate FLAC / MP3. Every file's audio is made unique too: a FLAC gets its own
STREAMINFO MD5 (so `flac -t` reports an MD5 mismatch: these are not meant to be decoded
bit-exactly), an MP3 gets 4 bytes of its last frame's main data overwritten (a few ms of noise),
so that an audio fingerprint tells copies apart as it would in a real library.

Writes into OUT_ROOT.tmp and renames it to OUT_ROOT when done, then writes OUT_ROOT.bench-lib
(beside it, not in it) with the layout version and N, so a complete library can be reused.
"""
import hashlib
import os
import random
import shutil
import struct
import sys
import time

LAYOUT_VERSION = "2"

WORDS = ("blue night river song light dream fire road heart rain summer city moon ghost "
         "golden silver wild quiet echo shadow ocean morning winter paper glass stone "
         "electric velvet broken hidden").split()
GENRES = ["Rock", "Jazz", "Classical", "Pop", "Electronic", "Hip-Hop", "Folk", "Blues",
          "Metal", "Soul", "Reggae", "Country", "Ambient", "Latin", "Punk"]


def song_fields(i):
    artist = i // 100
    album = i // 10
    rnd = random.Random(i)
    w = lambda: rnd.choice(WORDS).capitalize()
    arnd = random.Random(1_000_000 + album)
    aw = lambda: arnd.choice(WORDS).capitalize()
    return {
        "title": f"Song T{i:07d} {w()} {w()}",
        "artist": f"Artist A{artist:04d}",
        "albumartist": f"Artist A{artist:04d}",
        "album": f"Album B{album:05d} {aw()} {aw()}",
        "track": i % 10 + 1,
        "tracktotal": 10,
        "disc": 1,
        "year": 1950 + (album * 7) % 75,
        "genre": GENRES[(album * 3) % len(GENRES)],
        "composer": f"Composer C{(album * 13) % 997:03d}",
    }


def song_relpath(i, ext):
    f = song_fields(i)
    title_word = f["title"].split(" ", 2)[2]
    return (f"Artist A{i // 100:04d}/Album B{i // 10:05d}/"
            f"{f['track']:02d} T{i:07d} {title_word}.{ext}")


def format_for_album(album):
    return "flac" if album % 2 == 0 else "mp3"


# ---------------------------------------------------------------- FLAC

def parse_flac(data):
    """Return (streaminfo body, audio frames) of a FLAC file; other metadata blocks dropped."""
    assert data[:4] == b"fLaC", "not a FLAC file"
    pos = 4
    streaminfo = None
    while True:
        hdr = data[pos]
        last = hdr & 0x80
        btype = hdr & 0x7F
        length = int.from_bytes(data[pos + 1:pos + 4], "big")
        body = data[pos + 4:pos + 4 + length]
        if btype == 0:
            streaminfo = body
        pos += 4 + length
        if last:
            break
    assert streaminfo is not None and len(streaminfo) == 34
    return streaminfo, data[pos:]


def flac_block(btype, body, last=False):
    return bytes([(0x80 if last else 0) | btype]) + len(body).to_bytes(3, "big") + body


def flac_file(streaminfo, frames, f, uniq):
    md5 = hashlib.md5(b"boomic-bench %d" % uniq).digest()
    si = streaminfo[:18] + md5
    vendor = b"boomic-bench"
    entries = [
        ("TITLE", f["title"]), ("ARTIST", f["artist"]), ("ALBUMARTIST", f["albumartist"]),
        ("ALBUM", f["album"]), ("TRACKNUMBER", str(f["track"])),
        ("TRACKTOTAL", str(f["tracktotal"])), ("DISCNUMBER", str(f["disc"])),
        ("DATE", str(f["year"])), ("GENRE", f["genre"]), ("COMPOSER", f["composer"]),
    ]
    vc = [struct.pack("<I", len(vendor)), vendor, struct.pack("<I", len(entries))]
    for k, v in entries:
        e = f"{k}={v}".encode()
        vc += [struct.pack("<I", len(e)), e]
    return b"".join([
        b"fLaC",
        flac_block(0, si),
        flac_block(4, b"".join(vc)),
        flac_block(1, b"\0" * 512, last=True),
        frames,
    ])


# ---------------------------------------------------------------- MP3

def syncsafe(n):
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])


def id3_frame(fid, text):
    body = b"\x03" + text.encode()
    return fid.encode() + syncsafe(len(body)) + b"\0\0" + body


def mp3_file(audio, f, uniq):
    frames = b"".join([
        id3_frame("TIT2", f["title"]), id3_frame("TPE1", f["artist"]),
        id3_frame("TPE2", f["albumartist"]), id3_frame("TALB", f["album"]),
        id3_frame("TRCK", f"{f['track']}/{f['tracktotal']}"), id3_frame("TPOS", str(f["disc"])),
        id3_frame("TDRC", str(f["year"])), id3_frame("TCON", f["genre"]),
        id3_frame("TCOM", f["composer"]),
    ]) + b"\0" * 256  # padding
    tag = b"ID3\x04\x00\x00" + syncsafe(len(frames)) + frames
    # Unique audio: the last bytes of the file are main data of the last frame.
    n = len(audio)
    audio = audio[:n - 8] + struct.pack(">I", uniq & 0xFFFFFFFF) + audio[n - 4:]
    return tag + audio


def strip_id3(data):
    if data[:3] == b"ID3":
        size = ((data[6] & 0x7F) << 21) | ((data[7] & 0x7F) << 14) | ((data[8] & 0x7F) << 7) | (data[9] & 0x7F)
        footer = 10 if data[5] & 0x10 else 0
        data = data[10 + size + footer:]
    if len(data) > 128 and data[-128:-125] == b"TAG":
        data = data[:-128]
    return data


# ---------------------------------------------------------------- main

def load_templates(tdir):
    flacs, mp3s = [], []
    for name in sorted(os.listdir(tdir)):
        p = os.path.join(tdir, name)
        with open(p, "rb") as fh:
            data = fh.read()
        if name.endswith(".flac"):
            flacs.append(parse_flac(data))
        elif name.endswith(".mp3"):
            mp3s.append(strip_id3(data))
    if not flacs or not mp3s:
        sys.exit(f"mklib: no FLAC or MP3 templates in {tdir}")
    return flacs, mp3s


def verify(root, n, sample=60):
    try:
        import mutagen  # noqa: F401
        from mutagen.flac import FLAC
        from mutagen.id3 import ID3
        from mutagen.mp3 import MP3
    except ImportError:
        print("mklib: mutagen not importable here, tags not verified", file=sys.stderr)
        return
    rnd = random.Random(7)
    picks = sorted(set([0, n - 1] + [rnd.randrange(n) for _ in range(sample)]))
    for i in picks:
        ext = format_for_album(i // 10)
        path = os.path.join(root, song_relpath(i, ext))
        f = song_fields(i)
        if ext == "flac":
            m = FLAC(path)
            got = (m["title"][0], m["artist"][0], m["album"][0], m["tracknumber"][0], m["date"][0], m["genre"][0])
        else:
            m = MP3(path)
            t = ID3(path)
            got = (str(t["TIT2"]), str(t["TPE1"]), str(t["TALB"]), str(t["TRCK"]).split("/")[0], str(t["TDRC"]), str(t["TCON"]))
        want = (f["title"], f["artist"], f["album"], str(f["track"]), str(f["year"]), f["genre"])
        if got != want:
            sys.exit(f"mklib: tags of {path} read back wrong: {got} != {want}")
        if not (0.1 < m.info.length < 0.5):
            sys.exit(f"mklib: {path} has length {m.info.length}")
    print(f"mklib: mutagen read back {len(picks)} sampled files: tags and lengths right", file=sys.stderr)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    tdir, root, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    marker = root + ".bench-lib"
    want_marker = f"layout {LAYOUT_VERSION} songs {n}\n"
    if os.path.exists(marker) and open(marker).read() == want_marker:
        print(f"mklib: reusing {root}", file=sys.stderr)
        return
    t0 = time.perf_counter()
    flacs, mp3s = load_templates(tdir)
    tmp = root + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(root, ignore_errors=True)
    if os.path.exists(marker):
        os.remove(marker)
    made_dirs = set()
    total_bytes = 0
    for i in range(n):
        album = i // 10
        ext = format_for_album(album)
        rel = song_relpath(i, ext)
        d = os.path.join(tmp, os.path.dirname(rel))
        if d not in made_dirs:
            os.makedirs(d, exist_ok=True)
            made_dirs.add(d)
        f = song_fields(i)
        if ext == "flac":
            si, frames = flacs[(album // 2) % len(flacs)]
            data = flac_file(si, frames, f, i)
        else:
            data = mp3_file(mp3s[(album // 2) % len(mp3s)], f, i)
        with open(os.path.join(tmp, rel), "wb") as fh:
            fh.write(data)
        total_bytes += len(data)
    os.rename(tmp, root)
    with open(marker, "w") as fh:
        fh.write(want_marker)
    dt = time.perf_counter() - t0
    print(f"mklib: wrote {n} files ({total_bytes / 1e6:.0f} MB) in {dt:.1f} s "
          f"({n / dt:,.0f} files/s) to {root}", file=sys.stderr)
    verify(root, n)


if __name__ == "__main__":
    main()
