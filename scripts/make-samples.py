#!/usr/bin/python3
"""Generate Boomic's Samples/ tree: small tagged audio files plus a manifest.

Run through scripts/make-samples, which installs the tools first. This helper
needs sox, soxi, flac, metaflac and lame on PATH and python3-mutagen, which is
why it must run under /usr/bin/python3 (the pyenv python3 has no mutagen).

    /usr/bin/python3 scripts/make-samples.py [OUTPUT_DIR]      (default: <repo>/Samples)

The output is deterministic: the same tool versions give byte-identical files.
Audio comes from `sox -R -D` (seeded, no dither) sine tones, the cover images
are built here byte by byte (PNG with zlib, baseline JPEG by a tiny encoder),
and every "random" value comes from uuid5 or a seeded generator.

After writing, everything is read back independently (mutagen, soxi,
`flac -t`, a RIFF INFO parser) and compared with manifest.json. Any mismatch
makes the run fail.
"""

import base64
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import unicodedata
import uuid
import zlib

import mutagen
from mutagen.flac import FLAC, Picture
from mutagen.id3 import (
    APIC, ID3, TALB, TCMP, TCOM, TCON, TDRC, TIT2, TPE1, TPE2, TPOS, TRCK,
    TXXX, UFID, PictureType,
)
from mutagen.mp3 import MP3
from mutagen.oggvorbis import OggVorbis
from mutagen.wave import WAVE

NS = uuid.UUID("6f0a6f3e-7b1c-4c55-9a3b-0b00b1c5a3e1")  # fixed namespace for uuid5
VARIOUS_ARTISTS_MBID = "89ad4ac3-39f7-470e-963a-56509c546377"  # MusicBrainz' real "Various Artists" id


def mbid(kind, name):
    """Deterministic UUID-shaped MusicBrainz id."""
    return str(uuid.uuid5(NS, "boomic-samples/%s/%s" % (kind, name)))


def nfc(s):
    return unicodedata.normalize("NFC", s)


# ---------------------------------------------------------------------------
# Images
# ---------------------------------------------------------------------------

def make_png(size, c1, c2):
    """size x size RGB PNG: a diagonal gradient from colour c1 to c2."""
    rows = []
    for y in range(size):
        row = bytearray([0])  # filter type 0
        for x in range(size):
            t = (x + y) / (2 * (size - 1))
            row += bytes(round(a + (b - a) * t) for a, b in zip(c1, c2))
        rows.append(bytes(row))
    raw = b"".join(rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


class _BitWriter:
    def __init__(self):
        self.out = bytearray()
        self.acc = 0
        self.n = 0

    def write(self, value, nbits):
        for i in range(nbits - 1, -1, -1):
            self.acc = (self.acc << 1) | ((value >> i) & 1)
            self.n += 1
            if self.n == 8:
                self.out.append(self.acc)
                if self.acc == 0xFF:
                    self.out.append(0x00)  # byte stuffing
                self.acc = 0
                self.n = 0

    def flush(self):
        while self.n:
            self.write(1, 1)  # pad with 1-bits
        return bytes(self.out)


def make_jpeg(blocks_w, blocks_h, colour_of_block):
    """Baseline JPEG (JFIF, 4:4:4 YCbCr) made of flat 8x8 blocks.

    Each block has one colour, so only DC coefficients are non-zero; AC is
    always EOB. Quantisation is all-ones and the Huffman tables are small
    canonical ones defined here (DC: 12 symbols of 4 bits; AC: EOB and 0x01,
    2 bits each). The result is a valid baseline JPEG any decoder reads.
    """
    w, h = blocks_w * 8, blocks_h * 8

    def seg(marker, payload):
        return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload

    out = b"\xff\xd8"
    out += seg(0xE0, b"JFIF\x00" + bytes([1, 1, 0]) + struct.pack(">HH", 1, 1) + b"\x00\x00")
    out += seg(0xDB, b"\x00" + bytes([1] * 64))
    out += seg(0xC0, struct.pack(">BHHB", 8, h, w, 3) + bytes([1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]))
    dc_bits = [0] * 16
    dc_bits[3] = 12  # twelve 4-bit codes
    out += seg(0xC4, b"\x00" + bytes(dc_bits) + bytes(range(12)))
    ac_bits = [0] * 16
    ac_bits[1] = 2  # two 2-bit codes: 00 = EOB, 01 = 0x01 (unused)
    out += seg(0xC4, b"\x10" + bytes(ac_bits) + bytes([0x00, 0x01]))
    out += seg(0xDA, bytes([3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]))

    bw = _BitWriter()
    prev = [0, 0, 0]
    for by in range(blocks_h):
        for bx in range(blocks_w):
            r, g, b = colour_of_block(bx, by)
            ycc = (0.299 * r + 0.587 * g + 0.114 * b,
                   128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
                   128 + 0.5 * r - 0.418688 * g - 0.081312 * b)
            for c in range(3):
                v = max(0, min(255, round(ycc[c])))
                dc = 8 * (v - 128)  # DCT DC term of a flat block, quantiser 1
                diff = dc - prev[c]
                prev[c] = dc
                s = abs(diff).bit_length()
                bw.write(s, 4)  # canonical code of symbol s is s itself (4 bits)
                if s:
                    bw.write(diff if diff >= 0 else diff + (1 << s) - 1, s)
                bw.write(0b00, 2)  # EOB
    out += bw.flush() + b"\xff\xd9"
    return out


def jpeg_cover(c1, c2):
    def colour(bx, by):
        t = (bx + by) / 6.0
        return tuple(round(a + (b - a) * t) for a, b in zip(c1, c2))
    return make_jpeg(4, 4, colour)


COVERS = {
    "blue_png": ("png", make_png(32, (20, 40, 120), (120, 180, 255))),
    "night_png": ("png", make_png(24, (10, 10, 30), (255, 60, 160))),
    "vorbis_png": ("png", make_png(16, (0, 120, 60), (230, 230, 90))),
    "tokyo_png": ("png", make_png(20, (200, 30, 30), (250, 240, 230))),
    "ice_jpeg": ("jpeg", jpeg_cover((10, 60, 90), (220, 240, 250))),
    "metal_jpeg": ("jpeg", jpeg_cover((30, 30, 30), (230, 200, 40))),
    "winter_jpeg": ("jpeg", jpeg_cover((240, 240, 250), (90, 20, 30))),
}
MIME = {"png": "image/png", "jpeg": "image/jpeg"}


def png_size(data):
    return struct.unpack(">II", data[16:24])


def jpeg_size(data):
    i = 2
    while i < len(data):
        marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker == 0xC0:
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return w, h
        i += 2 + length
    raise ValueError("no SOF0")


def picture_block(cover_key):
    kind, data = COVERS[cover_key]
    pic = Picture()
    pic.type = 3  # front cover
    pic.mime = MIME[kind]
    pic.desc = "front"
    pic.width, pic.height = png_size(data) if kind == "png" else jpeg_size(data)
    pic.depth = 24
    pic.data = data
    return pic


# ---------------------------------------------------------------------------
# The catalogue
# ---------------------------------------------------------------------------
#
# Each track: path, format, tagging ("vorbis", "id3v2.4", "id3v2.3",
# "id3v1", "riff-info", "none"), audio parameters, manifest tags, cover key.

TRACKS = []
LONG_TITLE = ("An Extremely Long Title That Keeps Going " * 8)[:299] + "!"
assert len(LONG_TITLE) == 300


def rg(seed_text, track_no):
    """Deterministic plausible ReplayGain values."""
    r = random.Random(seed_text)
    album_gain = round(-r.uniform(3.0, 9.0), 2)
    album_peak = round(r.uniform(0.90, 0.999999), 6)
    tr = random.Random("%s/%d" % (seed_text, track_no))
    track_gain = round(album_gain + tr.uniform(-1.5, 1.5), 2)
    track_peak = round(min(album_peak, tr.uniform(0.6, 0.99)), 6)
    return {
        "replaygain_track_gain": track_gain, "replaygain_track_peak": track_peak,
        "replaygain_album_gain": album_gain, "replaygain_album_peak": album_peak,
    }


def album(folder_artist, album_name, common, tracks, fmt, tagging, audio,
          cover=None, with_rg=True, with_mb=True, file_name=None):
    """Add an album's tracks. tracks: list of dicts with per-track tags."""
    for t in tracks:
        tags = dict(common)
        tags.update({k: v for k, v in t.items() if not k.startswith("_")})
        tags["album"] = album_name
        tags.setdefault("artists", [tags.get("albumartist", folder_artist)])
        if "date" in tags:
            tags["year"] = int(tags["date"][:4])
        key = "%s/%s/%s/%s" % (folder_artist, album_name, tags.get("disc", 1), tags["track"])
        if with_rg:
            tags.update(rg("%s/%s" % (folder_artist, album_name), tags["track"] + 100 * tags.get("disc", 1)))
        if with_mb:
            tags["mb_trackid"] = mbid("recording", key)
            tags["mb_albumid"] = mbid("release", folder_artist + "/" + album_name)
            tags["mb_releasegroupid"] = mbid("release-group", folder_artist + "/" + album_name)
            tags["mb_artistid"] = mbid("artist", tags["artists"][0])
            aa = tags.get("albumartist", folder_artist)
            tags["mb_albumartistid"] = VARIOUS_ARTISTS_MBID if aa == "Various Artists" else mbid("artist", aa)
        name = t.get("_file") or "%02d %s" % (tags["track"], tags["title"])
        if "disc" in tags and tags.get("disctotal", 1) > 1 and not t.get("_file"):
            name = "%d-%s" % (tags["disc"], name)
        a = dict(audio)
        a.update(t.get("_audio", {}))
        TRACKS.append({
            "path": nfc("%s/%s/%s.%s" % (folder_artist, album_name, name, t.get("_fmt", fmt))),
            "format": t.get("_fmt", fmt),
            "tagging": t.get("_tagging", tagging),
            "audio": a,
            "tags": {k: (nfc(v) if isinstance(v, str) else [nfc(x) for x in v] if isinstance(v, list) else v)
                     for k, v in tags.items()},
            "cover": t.get("_cover", cover),
        })


def build_catalogue():
    # 1. FLAC 44.1 kHz / 16-bit stereo, embedded PNG, full date.
    album("Miles Quartet", "Blue Sketches",
          {"albumartist": "Miles Quartet", "tracktotal": 3, "disc": 1, "disctotal": 1,
           "date": "1969-09-26", "genre": "Jazz", "composer": "M. Davies"},
          [{"track": 1, "title": "So Modal", "_audio": {"freqs": [220, 330]}},
           {"track": 2, "title": "Blue in Grey", "_audio": {"freqs": [247, 370], "dur": 1.5}},
           {"track": 3, "title": "Flamenco Dusk", "composer": "G. Evans", "_audio": {"freqs": [196, 294]}}],
          "flac", "vorbis", {"rate": 44100, "ch": 2, "bits": 16, "dur": 2.0}, cover="blue_png")

    # 2. Icelandic names, a FLAC with two ARTIST values, embedded JPEG.
    album("Sigrún Jónsdóttir", "Hljóð og þögn",
          {"albumartist": "Sigrún Jónsdóttir", "tracktotal": 3, "disc": 1, "disctotal": 1,
           "date": "2011-05-02", "genre": "Ambient", "composer": "Sigrún Jónsdóttir"},
          [{"track": 1, "title": "Norðurljós", "_audio": {"freqs": [440]}},
           {"track": 2, "title": "Þúsund ár", "artists": ["Sigrún Jónsdóttir", "Ólafur Þórsson"],
            "_audio": {"freqs": [392]}},
           {"track": 3, "title": "Æðarfugl", "_audio": {"freqs": [349]}}],
          "flac", "vorbis", {"rate": 44100, "ch": 1, "bits": 16, "dur": 1.5}, cover="ice_jpeg")

    # 3. Cyrillic, 24-bit / 48 kHz FLAC, year-only date, no embedded art but cover.jpg beside.
    album("Дмитрий Соколов", "Зимняя дорога",
          {"albumartist": "Дмитрий Соколов", "tracktotal": 2, "disc": 1, "disctotal": 1,
           "date": "1971", "genre": "Classical", "composer": "Дмитрий Соколов"},
          [{"track": 1, "title": "Метель", "_audio": {"freqs": [523]}},
           {"track": 2, "title": "Тройка", "_audio": {"freqs": [587], "dur": 1.0}}],
          "flac", "vorbis", {"rate": 48000, "ch": 1, "bits": 24, "dur": 1.5}, cover=None)

    # 4. Multi-disc FLAC album: disc 1/2 and 2/2, two tracks each.
    album("The Long Road Band", "Double Live",
          {"albumartist": "The Long Road Band", "tracktotal": 2, "disctotal": 2,
           "date": "1977-06-10", "genre": "Rock", "composer": "J. Roadie"},
          [{"disc": 1, "track": 1, "title": "Opening", "_audio": {"freqs": [330, 440]}},
           {"disc": 1, "track": 2, "title": "Highway Song", "_audio": {"freqs": [294, 392]}},
           {"disc": 2, "track": 1, "title": "Encore", "_audio": {"freqs": [262, 392]}},
           {"disc": 2, "track": 2, "title": "Goodnight", "_audio": {"freqs": [220, 277]}}],
          "flac", "vorbis", {"rate": 22050, "ch": 2, "bits": 16, "dur": 1.0})

    # 5. Odd titles: a real slash, a division slash plus emoji, 300 characters. Year only, no RG/MB.
    album("Edge Case Orchestra", "Strange Titles",
          {"albumartist": "Edge Case Orchestra", "tracktotal": 3, "date": "2003", "genre": "Experimental"},
          [{"track": 1, "title": "Live/Dead", "_file": "01 Live_Dead", "_audio": {"freqs": [600]}},
           {"track": 2, "title": "Rise ∕ Fall 🌅", "_audio": {"freqs": [700]}},
           {"track": 3, "title": LONG_TITLE, "_file": "03 " + LONG_TITLE[:100].rstrip(),
            "_audio": {"freqs": [800]}}],
          "flac", "vorbis", {"rate": 22050, "ch": 1, "bits": 16, "dur": 1.0},
          with_rg=False, with_mb=False)

    # 6. MP3 ID3v2.4, TRCK "n/12", TPOS "1/1", two TPE1 values on one track, APIC JPEG.
    album("Motörhead-ish", "Ace of Spätz",
          {"albumartist": "Motörhead-ish", "tracktotal": 12, "disc": 1, "disctotal": 1,
           "date": "1980-11-08", "genre": "Heavy Metal", "composer": "Ian Kilmister"},
          [{"track": 1, "title": "Øverkill", "_audio": {"freqs": [110, 165]}},
           {"track": 3, "title": "Bömber", "artists": ["Motörhead-ish", "Lemmý Kilmíster"],
            "_audio": {"freqs": [123, 185]}},
           {"track": 12, "title": "Ace of Spätz", "_audio": {"freqs": [131, 196]}}],
          "mp3", "id3v2.4", {"rate": 44100, "ch": 2, "dur": 2.0, "kbps": 64}, cover="metal_jpeg")

    # 7. MP3 ID3v2.3, Japanese, two discs with TPOS "1/2" / "2/2", APIC PNG, year only (TYER).
    album("坂本 龍一郎", "東京の夜",
          {"albumartist": "坂本 龍一郎", "disctotal": 2, "date": "1983", "genre": "Electronic",
           "composer": "坂本 龍一郎"},
          [{"disc": 1, "track": 1, "tracktotal": 2, "title": "夜明けの街", "_audio": {"freqs": [466]}},
           {"disc": 1, "track": 2, "tracktotal": 2, "title": "雨の駅", "_audio": {"freqs": [415]}},
           {"disc": 2, "track": 1, "tracktotal": 1, "title": "静かな海", "_audio": {"freqs": [370]}}],
          "mp3", "id3v2.3", {"rate": 22050, "ch": 1, "dur": 2.0, "kbps": 32}, cover="tokyo_png")

    # 8. Compilation: albumartist "Various Artists", FLAC with COMPILATION=1 and MP3 v2.4 with TCMP=1.
    album("Various Artists", "Night Drive",
          {"albumartist": "Various Artists", "tracktotal": 4, "disc": 1, "disctotal": 1,
           "date": "2001-07-01", "genre": "Electronic", "compilation": True},
          [{"track": 1, "title": "Midnight Run", "artists": ["Neon Vector"], "composer": "Neon Vector",
            "_audio": {"freqs": [330, 495]}},
           {"track": 2, "title": "Ночной город", "artists": ["Сергей Волков"], "composer": "Сергей Волков",
            "_audio": {"freqs": [349, 523]}},
           {"track": 3, "title": "波の音", "artists": ["Aki & The Waves"], "composer": "Aki",
            "_fmt": "mp3", "_tagging": "id3v2.4", "_audio": {"freqs": [392, 587], "kbps": 64, "bits": None}},
           {"track": 4, "title": "Fiesta Eléctrica", "artists": ["DJ Ñandú"], "composer": "Ñandú",
            "_fmt": "mp3", "_tagging": "id3v2.4", "_audio": {"freqs": [440, 660], "kbps": 64, "bits": None}}],
          "flac", "vorbis", {"rate": 44100, "ch": 2, "bits": 16, "dur": 1.0}, cover="night_png")

    # 9. WAV: one with an ID3 chunk (full tags), one with RIFF INFO only (basic fields, ASCII).
    album("Field Recordist", "Backyard Sessions",
          {"albumartist": "Field Recordist", "tracktotal": 2, "disc": 1, "disctotal": 1,
           "date": "2015-04-18", "genre": "Field Recording", "composer": "Field Recordist"},
          [{"track": 1, "title": "Morning Birds", "_audio": {"freqs": [880]}}],
          "wav", "id3-chunk", {"rate": 22050, "ch": 1, "bits": 16, "dur": 1.0})
    album("Field Recordist", "Backyard Sessions",
          {"date": "2015", "genre": "Field Recording"},
          [{"track": 2, "title": "Evening Rain", "artists": ["Field Recordist"], "_audio": {"freqs": [660, 990]}}],
          "wav", "riff-info", {"rate": 44100, "ch": 2, "bits": 16, "dur": 1.0},
          with_rg=False, with_mb=False)

    # 10. ID3v1.1 only (no ID3v2 at all): Latin-1, 30-char fields, genre by index.
    album("Old Timer", "Retro Hits",
          {"date": "1985", "genre": "Rock"},
          [{"track": 1, "title": "Eight Bit Song", "artists": ["Old Timer"], "_audio": {"freqs": [262]}}],
          "mp3", "id3v1", {"rate": 22050, "ch": 1, "dur": 1.5, "kbps": 32},
          with_rg=False, with_mb=False)

    # 11. Ogg Vorbis with Vorbis comments; the first has a METADATA_BLOCK_PICTURE PNG.
    album("Free Software Choir", "Open Voices",
          {"albumartist": "Free Software Choir", "tracktotal": 2, "disc": 1, "disctotal": 1,
           "date": "2009-10-15", "genre": "Choral", "composer": "R. Stallmann"},
          [{"track": 1, "title": "Vorbis Dawn", "_audio": {"freqs": [294, 440]}, "_cover": "vorbis_png"},
           {"track": 2, "title": "Libre Dusk", "_audio": {"freqs": [262, 392]}}],
          "ogg", "vorbis", {"rate": 44100, "ch": 2, "dur": 1.0})

    # 12. No tags at all: the file name is the only information.
    for fmt, a in (("flac", {"rate": 44100, "ch": 2, "bits": 16, "dur": 1.0, "freqs": [500, 750]}),
                   ("mp3", {"rate": 44100, "ch": 1, "dur": 1.0, "kbps": 48, "freqs": [520]}),
                   ("wav", {"rate": 8000, "ch": 1, "bits": 16, "dur": 1.0, "freqs": [540]})):
        TRACKS.append({"path": "Loose Files/no tags at all.%s" % fmt, "format": fmt, "tagging": "none",
                       "audio": a, "tags": {}, "cover": None})

    # 13. Untidy layouts (Documentation/import.md), under Untidy/ so that tests which do not ask
    #     for them keep the tidy library. A two-disc album in CD1/ and "CD2 - Bonus"/ folders
    #     whose files carry no disc tag, its cover.jpg in the album folder above them…
    for disc, folder, titles in ((1, "CD1", ["Upstream", "Ferry Crossing"]),
                                 (2, "CD2 - Bonus", ["Downstream", "Delta"])):
        for n, title in enumerate(titles, 1):
            TRACKS.append({
                "path": "%s/%s/%02d %s.flac" % (TWO_DISCS, folder, n, title), "format": "flac", "tagging": "vorbis",
                "audio": {"rate": 22050, "ch": 1, "bits": 16, "dur": 1.0, "freqs": [615 + 40 * disc + 10 * n]},
                "tags": {"title": title, "artists": ["Twin Rivers"], "album": "Two Banks", "albumartist": "Twin Rivers",
                         "track": n, "tracktotal": 2, "date": "2005", "year": 2005, "genre": "Folk"},
                "cover": None})
    # …and an untagged rip, "NN - Title.flac" in Artist/Album (1999)/, with no tags at all.
    for n, title in enumerate(["Opening Theme", "Second Song", "Third Song"], 1):
        TRACKS.append({"path": "%s/%02d - %s.flac" % (UNTAGGED_RIP, n, title), "format": "flac", "tagging": "none",
                       "audio": {"rate": 22050, "ch": 1, "bits": 16, "dur": 1.0, "freqs": [830 + 20 * n]},
                       "tags": {}, "cover": None})


TWO_DISCS = "Untidy/Twin Rivers/Two Banks (2005)"
UNTAGGED_RIP = "Untidy/Nameless Rippers/First Rip (1999)"


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------

def run(*cmd):
    """Run a tool quietly; show its output only when it fails.

    (flac warns about the 'fact' chunk sox writes in 24-bit WAVE_FORMAT_EXTENSIBLE files.)"""
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        raise subprocess.CalledProcessError(r.returncode, cmd)


def make_audio(track, dest, tmp):
    a = track["audio"]
    fmt = track["format"]
    bits = a.get("bits") or 16
    wav = os.path.join(tmp, "src.wav")
    freqs = a["freqs"]
    assert len(freqs) == a["ch"], track["path"]
    synth = []
    for f in freqs:
        synth += ["sine", str(f)]
    dur = "%g" % a["dur"]
    run("sox", "-R", "-D", "-n", "-r", str(a["rate"]), "-c", str(a["ch"]), "-b", str(bits), wav,
        "synth", dur, *synth, "fade", "q", "0.02", dur, "0.3", "vol", "0.6")
    if fmt == "flac":
        run("flac", "-s", "-8", "--no-padding", "-o", dest, wav)
    elif fmt == "wav":
        shutil.copyfile(wav, dest)
    elif fmt == "mp3":
        run("lame", "--quiet", "--noreplaygain", "-b", str(a["kbps"]),
            "--resample", "%g" % (a["rate"] / 1000), "-m", "j" if a["ch"] == 2 else "m", wav, dest)
    elif fmt == "ogg":
        run("sox", "-R", wav, "-C", "0", dest)
    else:
        raise ValueError(fmt)


def vorbis_fields(tags):
    """Manifest tags -> Vorbis comment fields (Picard / MusicBrainz names)."""
    out = []
    simple = [("title", "TITLE"), ("album", "ALBUM"), ("albumartist", "ALBUMARTIST"),
              ("date", "DATE"), ("genre", "GENRE"), ("composer", "COMPOSER"),
              ("mb_trackid", "MUSICBRAINZ_TRACKID"), ("mb_albumid", "MUSICBRAINZ_ALBUMID"),
              ("mb_artistid", "MUSICBRAINZ_ARTISTID"), ("mb_albumartistid", "MUSICBRAINZ_ALBUMARTISTID"),
              ("mb_releasegroupid", "MUSICBRAINZ_RELEASEGROUPID")]
    for key, field in simple:
        if key in tags:
            out.append((field, tags[key]))
    for a in tags.get("artists", []):
        out.append(("ARTIST", a))
    for key, field in (("track", "TRACKNUMBER"), ("tracktotal", "TRACKTOTAL"),
                       ("disc", "DISCNUMBER"), ("disctotal", "DISCTOTAL")):
        if key in tags:
            out.append((field, str(tags[key])))
    if tags.get("compilation"):
        out.append(("COMPILATION", "1"))
    for kind in ("track", "album"):
        if "replaygain_%s_gain" % kind in tags:
            out.append(("REPLAYGAIN_%s_GAIN" % kind.upper(), "%.2f dB" % tags["replaygain_%s_gain" % kind]))
            out.append(("REPLAYGAIN_%s_PEAK" % kind.upper(), "%.6f" % tags["replaygain_%s_peak" % kind]))
    return out


def tag_vorbis(track, dest):
    tags = track["tags"]
    f = FLAC(dest) if track["format"] == "flac" else OggVorbis(dest)
    if f.tags is None:
        f.add_tags()
    f.tags.clear()  # drops e.g. sox's "Comment=Processed by SoX" in Ogg
    for field, value in vorbis_fields(tags):
        f.tags.append((field, value))
    if track["cover"]:
        pic = picture_block(track["cover"])
        if track["format"] == "flac":
            f.add_picture(pic)
        else:
            f.tags.append(("METADATA_BLOCK_PICTURE", base64.b64encode(pic.write()).decode("ascii")))
    f.save()


def id3_frames(track):
    tags = track["tags"]
    fr = [TIT2(encoding=3, text=[tags["title"]]),
          TPE1(encoding=3, text=list(tags["artists"])),
          TALB(encoding=3, text=[tags["album"]])]
    if "albumartist" in tags:
        fr.append(TPE2(encoding=3, text=[tags["albumartist"]]))
    trck = str(tags["track"]) + ("/%d" % tags["tracktotal"] if "tracktotal" in tags else "")
    fr.append(TRCK(encoding=3, text=[trck]))
    if "disc" in tags:
        fr.append(TPOS(encoding=3, text=[str(tags["disc"]) + ("/%d" % tags["disctotal"] if "disctotal" in tags else "")]))
    fr.append(TDRC(encoding=3, text=[tags["date"]]))
    fr.append(TCON(encoding=3, text=[tags["genre"]]))
    if "composer" in tags:
        fr.append(TCOM(encoding=3, text=[tags["composer"]]))
    if tags.get("compilation"):
        fr.append(TCMP(encoding=3, text=["1"]))
    for kind in ("track", "album"):
        if "replaygain_%s_gain" % kind in tags:
            fr.append(TXXX(encoding=3, desc="REPLAYGAIN_%s_GAIN" % kind.upper(),
                           text=["%.2f dB" % tags["replaygain_%s_gain" % kind]]))
            fr.append(TXXX(encoding=3, desc="REPLAYGAIN_%s_PEAK" % kind.upper(),
                           text=["%.6f" % tags["replaygain_%s_peak" % kind]]))
    if "mb_trackid" in tags:
        fr.append(UFID(owner="http://musicbrainz.org", data=tags["mb_trackid"].encode("ascii")))
        for key, desc in (("mb_albumid", "MusicBrainz Album Id"), ("mb_artistid", "MusicBrainz Artist Id"),
                          ("mb_albumartistid", "MusicBrainz Album Artist Id"),
                          ("mb_releasegroupid", "MusicBrainz Release Group Id")):
            fr.append(TXXX(encoding=3, desc=desc, text=[tags[key]]))
    if track["cover"]:
        kind, data = COVERS[track["cover"]]
        fr.append(APIC(encoding=3, mime=MIME[kind], type=PictureType.COVER_FRONT, desc="front", data=data))
    return fr


def tag_id3(track, dest):
    if track["format"] == "wav":
        f = WAVE(dest)
        f.add_tags()
        for frame in id3_frames(track):
            f.tags.add(frame)
        f.save(v2_version=4)
    else:
        tags = ID3()
        for frame in id3_frames(track):
            tags.add(frame)
        if track["tagging"] == "id3v2.3":
            tags.update_to_v23()  # TDRC -> TYER (+TDAT); save() alone would keep v2.4 frames
            tags.save(dest, v2_version=3, v23_sep="/")
        else:
            tags.save(dest, v2_version=4)


ID3V1_GENRES = {"Rock": 17, "Jazz": 8, "Pop": 13}


def tag_id3v1(track, dest):
    t = track["tags"]

    def field(s, n):
        b = s.encode("latin-1")
        assert len(b) <= n, s
        return b.ljust(n, b"\x00")

    tag = (b"TAG" + field(t["title"], 30) + field(t["artists"][0], 30) + field(t["album"], 30)
           + field(t["date"][:4], 4) + field("", 28) + b"\x00" + bytes([t["track"]])
           + bytes([ID3V1_GENRES[t["genre"]]]))
    assert len(tag) == 128
    with open(dest, "ab") as fh:
        fh.write(tag)


RIFF_INFO = [("INAM", "title"), ("IART", "artist"), ("IPRD", "album"), ("ICRD", "date"),
             ("IGNR", "genre"), ("IPRT", "track")]


def tag_riff_info(track, dest):
    t = track["tags"]
    values = {"title": t["title"], "artist": t["artists"][0], "album": t["album"], "date": t["date"],
              "genre": t["genre"], "track": str(t["track"])}
    body = b"INFO"
    for cid, key in RIFF_INFO:
        data = values[key].encode("ascii") + b"\x00"
        body += cid.encode() + struct.pack("<I", len(data)) + data + (b"\x00" if len(data) % 2 else b"")
    with open(dest, "rb") as fh:
        wav = fh.read()
    assert wav[:4] == b"RIFF" and wav[8:12] == b"WAVE" and len(wav) % 2 == 0
    wav += b"LIST" + struct.pack("<I", len(body)) + body
    wav = wav[:4] + struct.pack("<I", len(wav) - 8) + wav[8:]
    with open(dest, "wb") as fh:
        fh.write(wav)


def write_track(track, root, tmp):
    dest = os.path.join(root, track["path"])
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    make_audio(track, dest, tmp)
    tagging = track["tagging"]
    if tagging == "vorbis":
        tag_vorbis(track, dest)
    elif tagging in ("id3v2.3", "id3v2.4", "id3-chunk"):
        tag_id3(track, dest)
    elif tagging == "id3v1":
        tag_id3v1(track, dest)
    elif tagging == "riff-info":
        tag_riff_info(track, dest)
    elif tagging == "none":
        if track["format"] == "flac":  # not even an empty VORBIS_COMMENT block
            run("metaflac", "--remove", "--block-type=VORBIS_COMMENT", "--dont-use-padding", dest)
    else:
        raise ValueError(tagging)


KEY_ORDER = ["path", "format", "tag_format", "title", "artists", "album", "albumartist",
             "track", "tracktotal", "disc", "disctotal", "date", "year", "genre", "composer",
             "compilation", "replaygain_track_gain", "replaygain_track_peak", "replaygain_album_gain",
             "replaygain_album_peak", "mb_trackid", "mb_albumid", "mb_artistid", "mb_albumartistid",
             "mb_releasegroupid", "cover", "cover_path", "samplerate", "channels", "bitdepth",
             "duration_ms", "broken", "reason"]


def ordered(entry):
    assert set(entry) <= set(KEY_ORDER), set(entry) - set(KEY_ORDER)
    return {k: entry[k] for k in KEY_ORDER if k in entry}


def manifest_entry(track):
    e = {"path": track["path"], "format": track["format"], "tag_format": track["tagging"]}
    e.update(track["tags"])
    if track["cover"]:
        e["cover"] = COVERS[track["cover"]][0]
    elif track.get("cover_file"):
        e["cover"] = "file"
        e["cover_path"] = track["cover_file"]
    a = track["audio"]
    e["samplerate"] = a["rate"]
    e["channels"] = a["ch"]
    if track["format"] in ("flac", "wav"):
        e["bitdepth"] = a["bits"]
    e["duration_ms"] = round(a["dur"] * 1000)
    return e


CUE_FOLDER = "CUE Image/Chansons d'été"
CUE_IMAGE = "Les Rivières - Chansons d'été.flac"
CUE_SHEET_NAME = "Les Rivières - Chansons d'été.cue"
# EAC's layout: CP1252 text with CRLF line ends, a FILE line naming the .wav it ripped to (the
# image was encoded to FLAC since), a hidden pregap before track 1's INDEX 01 and a pregap
# (INDEX 00) before track 2. Boomic reads it as three songs (Documentation/import.md).
CUE_SHEET = """REM GENRE "Chanson"
REM DATE 1998
REM DISCID 2A0B5C03
REM COMMENT "ExactAudioCopy v1.6"
CATALOG 0724384960650
PERFORMER "Les Rivières"
TITLE "Chansons d'été"
FILE "Les Rivières - Chansons d'été.wav" WAVE
  TRACK 01 AUDIO
    TITLE "Café"
    PERFORMER "Les Rivières"
    ISRC FRZ039800212
    INDEX 00 00:00:00
    INDEX 01 00:00:32
  TRACK 02 AUDIO
    TITLE "Naïve"
    PERFORMER "Zoë"
    INDEX 00 00:01:60
    INDEX 01 00:02:10
  TRACK 03 AUDIO
    TITLE "Été"
    INDEX 01 00:04:05
"""


def write_cue_image(root, tmp):
    """A FLAC image of three short tracks (6 s of tones) with its EAC-style CUE sheet.

    Not in manifest.json: its songs are tracks of one file, which the per-file manifest does not
    describe; the CUE tests make their own image (Tests/BoomicTestSupport/CueImage.swift).
    """
    folder = os.path.join(root, CUE_FOLDER)
    os.makedirs(folder, exist_ok=True)
    wav = os.path.join(tmp, "cue-image.wav")
    run("sox", "-R", "-D", "-n", "-r", "44100", "-b", "16", "-c", "2", wav,
        "synth", "6", "sine", "300-1200", "sine", "441", "gain", "-6")
    run("flac", "-s", "-8", "--no-padding", "-o", os.path.join(folder, CUE_IMAGE), wav)
    with open(os.path.join(folder, CUE_SHEET_NAME), "wb") as fh:
        fh.write(CUE_SHEET.replace("\n", "\r\n").encode("cp1252"))


def write_broken(root):
    broken = os.path.join(root, "Broken")
    os.makedirs(broken)
    entries = []
    open(os.path.join(broken, "empty.flac"), "wb").close()
    entries.append({"path": "Broken/empty.flac", "format": "flac", "broken": True,
                    "reason": "zero-length file"})
    with open(os.path.join(root, "Loose Files/no tags at all.flac"), "rb") as fh:
        head = fh.read(1000)
    with open(os.path.join(broken, "truncated.flac"), "wb") as fh:
        fh.write(head)
    entries.append({"path": "Broken/truncated.flac", "format": "flac", "broken": True,
                    "reason": "first 1000 bytes of Loose Files/no tags at all.flac: valid header, "
                              "audio cut mid-frame"})
    rnd = random.Random(20240601)
    with open(os.path.join(broken, "random.flac"), "wb") as fh:
        fh.write(bytes(rnd.getrandbits(8) for _ in range(4096)))
    entries.append({"path": "Broken/random.flac", "format": "flac", "broken": True,
                    "reason": "4096 pseudo-random bytes (seeded), no fLaC marker"})
    with open(os.path.join(broken, "notes.mp3"), "w", encoding="utf-8") as fh:
        fh.write("These are not MP3 frames, just notes.\n"
                 "A plain text file with an .mp3 extension: Boomic must skip it without crashing.\n")
    entries.append({"path": "Broken/notes.mp3", "format": "mp3", "broken": True,
                    "reason": "plain text file with an .mp3 extension"})
    return entries


# ---------------------------------------------------------------------------
# Independent verification
# ---------------------------------------------------------------------------

AUDIO_KEYS = {"samplerate", "channels", "bitdepth", "duration_ms"}
META_KEYS = {"path", "format", "tag_format", "cover_path"}


def parse_int_pair(s):
    n, _, total = s.partition("/")
    return int(n), (int(total) if total else None)


def rg_num(s):
    return float(s.replace("dB", "").strip())


def read_vorbis_like(get_list, out):
    def one(field):
        v = get_list(field)
        return v[0] if v else None
    m = {"title": "TITLE", "album": "ALBUM", "albumartist": "ALBUMARTIST", "date": "DATE", "genre": "GENRE",
         "composer": "COMPOSER", "mb_trackid": "MUSICBRAINZ_TRACKID", "mb_albumid": "MUSICBRAINZ_ALBUMID",
         "mb_artistid": "MUSICBRAINZ_ARTISTID", "mb_albumartistid": "MUSICBRAINZ_ALBUMARTISTID",
         "mb_releasegroupid": "MUSICBRAINZ_RELEASEGROUPID"}
    for key, field in m.items():
        if one(field) is not None:
            out[key] = one(field)
    if get_list("ARTIST"):
        out["artists"] = list(get_list("ARTIST"))
    for key, field in (("track", "TRACKNUMBER"), ("tracktotal", "TRACKTOTAL"),
                       ("disc", "DISCNUMBER"), ("disctotal", "DISCTOTAL")):
        if one(field) is not None:
            out[key] = int(one(field))
    if one("COMPILATION") is not None:
        out["compilation"] = one("COMPILATION") == "1"
    for kind in ("TRACK", "ALBUM"):
        for what in ("GAIN", "PEAK"):
            v = one("REPLAYGAIN_%s_%s" % (kind, what))
            if v is not None:
                out["replaygain_%s_%s" % (kind.lower(), what.lower())] = rg_num(v)


def read_id3(tags, out):
    if tags is None:
        return
    def text(fid):
        return tags[fid].text if fid in tags else None
    if text("TIT2"):
        out["title"] = str(text("TIT2")[0])
    if text("TPE1"):
        out["artists"] = [str(x) for x in text("TPE1")]
    if text("TALB"):
        out["album"] = str(text("TALB")[0])
    if text("TPE2"):
        out["albumartist"] = str(text("TPE2")[0])
    if text("TRCK"):
        out["track"], total = parse_int_pair(str(text("TRCK")[0]))
        if total:
            out["tracktotal"] = total
    if text("TPOS"):
        out["disc"], total = parse_int_pair(str(text("TPOS")[0]))
        if total:
            out["disctotal"] = total
    if text("TDRC"):
        out["date"] = str(text("TDRC")[0])
    if "TCON" in tags:
        out["genre"] = tags["TCON"].genres[0]
    if text("TCOM"):
        out["composer"] = str(text("TCOM")[0])
    if text("TCMP"):
        out["compilation"] = str(text("TCMP")[0]) == "1"
    for kind in ("track", "album"):
        for what in ("gain", "peak"):
            fid = "TXXX:REPLAYGAIN_%s_%s" % (kind.upper(), what.upper())
            if fid in tags:
                out["replaygain_%s_%s" % (kind, what)] = rg_num(tags[fid].text[0])
    if "UFID:http://musicbrainz.org" in tags:
        out["mb_trackid"] = tags["UFID:http://musicbrainz.org"].data.decode("ascii")
    for key, desc in (("mb_albumid", "MusicBrainz Album Id"), ("mb_artistid", "MusicBrainz Artist Id"),
                      ("mb_albumartistid", "MusicBrainz Album Artist Id"),
                      ("mb_releasegroupid", "MusicBrainz Release Group Id")):
        if "TXXX:" + desc in tags:
            out[key] = tags["TXXX:" + desc].text[0]
    apics = tags.getall("APIC")
    if apics:
        out["cover"] = {"image/png": "png", "image/jpeg": "jpeg"}[apics[0].mime]
        out["_cover_bytes"] = apics[0].data


def raw_id3_frame_ids(raw):
    """Frame ids exactly as stored (mutagen's reader upgrades v2.3 frames to v2.4)."""
    version = raw[3]
    size = sum(b << (7 * (3 - i)) for i, b in enumerate(raw[6:10]))
    assert raw[5] & 0x40 == 0, "extended header not expected"
    i, ids = 10, set()
    while i + 10 <= 10 + size and raw[i:i + 4] != b"\x00\x00\x00\x00":
        fid = raw[i:i + 4].decode("ascii")
        if version == 4:
            fsize = sum(b << (7 * (3 - k)) for k, b in enumerate(raw[i + 4:i + 8]))
        else:
            fsize = struct.unpack(">I", raw[i + 4:i + 8])[0]
        ids.add(fid)
        i += 10 + fsize
    return ids


def read_riff_info(path):
    with open(path, "rb") as fh:
        data = fh.read()
    assert data[:4] == b"RIFF" and struct.unpack("<I", data[4:8])[0] == len(data) - 8
    i, info = 12, {}
    while i + 8 <= len(data):
        cid, size = data[i:i + 4], struct.unpack("<I", data[i + 4:i + 8])[0]
        if cid == b"LIST" and data[i + 8:i + 12] == b"INFO":
            j = i + 12
            while j < i + 8 + size:
                sid, ssize = data[j:j + 4].decode(), struct.unpack("<I", data[j + 4:j + 8])[0]
                info[sid] = data[j + 8:j + 8 + ssize].rstrip(b"\x00").decode("ascii")
                j += 8 + ssize + (ssize % 2)
        i += 8 + size + (size % 2)
    return info


def observe(root, entry):
    """Read a good file back with mutagen (tags) and soxi (audio)."""
    path = os.path.join(root, entry["path"])
    out = {}
    fmt, tagging = entry["format"], entry["tag_format"]
    if fmt == "flac":
        f = FLAC(path)
        if f.tags is not None:
            read_vorbis_like(lambda k: f.tags.get(k, []), out)
        if f.pictures:
            out["cover"] = {"image/png": "png", "image/jpeg": "jpeg"}[f.pictures[0].mime]
            out["_cover_bytes"] = f.pictures[0].data
    elif fmt == "ogg":
        f = OggVorbis(path)
        read_vorbis_like(lambda k: f.tags.get(k, []), out)
        for b64 in f.tags.get("METADATA_BLOCK_PICTURE", []):
            pic = Picture(base64.b64decode(b64))
            out["cover"] = {"image/png": "png", "image/jpeg": "jpeg"}[pic.mime]
            out["_cover_bytes"] = pic.data
        extra = set(k.upper() for k in f.tags.keys()) - {"METADATA_BLOCK_PICTURE"} - {
            k for k, _ in vorbis_fields(entry)}
        if extra:
            out["_unexpected"] = sorted(extra)
    elif fmt == "mp3":
        f = MP3(path)
        read_id3(f.tags, out)
        if tagging == "id3v2.3" and f.tags.version[:2] != (2, 3):
            out["_unexpected"] = "ID3 version %r" % (f.tags.version,)
        if tagging == "id3v2.4" and f.tags.version[:2] != (2, 4):
            out["_unexpected"] = "ID3 version %r" % (f.tags.version,)
        with open(path, "rb") as fh:
            raw = fh.read()
        has_v2, has_v1 = raw[:3] == b"ID3", raw[-128:-125] == b"TAG"
        if has_v2:
            ids = raw_id3_frame_ids(raw)
            if raw[3] == 3 and ("TDRC" in ids or "TYER" not in ids):
                out["_unexpected"] = "ID3v2.3 tag must date with TYER, not TDRC: %s" % sorted(ids)
            if raw[3] == 4 and ("TYER" in ids or "TDRC" not in ids):
                out["_unexpected"] = "ID3v2.4 tag must date with TDRC: %s" % sorted(ids)
        if (tagging == "id3v1") != (has_v1 and not has_v2) or (tagging.startswith("id3v2") and (has_v1 or not has_v2)):
            out["_unexpected"] = "tag blocks: ID3v2=%s ID3v1=%s" % (has_v2, has_v1)
        if tagging == "none" and (has_v1 or has_v2):
            out["_unexpected"] = "tags present"
        out["year"] = int(out["date"][:4]) if "date" in out else None
    elif fmt == "wav":
        f = WAVE(path)
        read_id3(f.tags, out)
        if tagging == "riff-info":
            info = read_riff_info(path)
            keymap = dict(RIFF_INFO)
            for cid, value in info.items():
                key = keymap[cid]
                if key == "artist":
                    out["artists"] = [value]
                elif key == "track":
                    out["track"] = int(value)
                else:
                    out[key] = value
    if "date" in out:
        out["year"] = int(out["date"][:4])
    elif "year" in out and out["year"] is None:
        del out["year"]

    def soxi(flag):
        return subprocess.run(["soxi", flag, path], check=True, capture_output=True, text=True).stdout.strip()
    out["samplerate"] = int(soxi("-r"))
    out["channels"] = int(soxi("-c"))
    if fmt in ("flac", "wav"):
        out["bitdepth"] = int(soxi("-b"))
    out["duration_ms"] = round(float(soxi("-D")) * 1000)
    return out


def compare(entry, seen):
    problems = []
    expected = {k: v for k, v in entry.items() if k not in META_KEYS}
    if entry.get("cover") == "file":
        del expected["cover"]
        if not os.path.isfile(os.path.join(ROOT, entry["cover_path"])):
            problems.append("cover file missing: %s" % entry["cover_path"])
    for key, want in expected.items():
        got = seen.get(key)
        if key == "duration_ms":
            slack = 120 if entry["format"] == "mp3" else 1  # MP3: encoder delay and padding
            if got is None or abs(got - want) > slack:
                problems.append("%s: expected %r, read %r" % (key, want, got))
        elif isinstance(want, float):
            if got is None or abs(got - want) > 1e-6:
                problems.append("%s: expected %r, read %r" % (key, want, got))
        elif got != want:
            problems.append("%s: expected %r, read %r" % (key, want, got))
    for key in sorted(set(seen) - set(expected)):
        if not key.startswith("_"):
            problems.append("%s: read %r but the manifest has no such key" % (key, seen[key]))
    if "_unexpected" in seen:
        problems.append("unexpected: %s" % (seen["_unexpected"],))
    if "cover" in expected and "_cover_bytes" in seen:
        kind = expected["cover"]
        data = seen["_cover_bytes"]
        if kind == "png" and not data.startswith(b"\x89PNG\r\n\x1a\n"):
            problems.append("embedded PNG has no PNG signature")
        if kind == "jpeg" and not (data.startswith(b"\xff\xd8") and data.endswith(b"\xff\xd9")):
            problems.append("embedded JPEG lacks SOI/EOI")
    return problems


def verify(root, manifest):
    failures = 0
    counts = {}
    for e in manifest:
        path = os.path.join(root, e["path"])
        label = e["format"] + (" (broken)" if e.get("broken") else "")
        counts[label] = counts.get(label, 0) + 1
        if e.get("broken"):
            problems = []
            if e["format"] == "flac":
                r = subprocess.run(["flac", "-t", "-s", path], capture_output=True)
                if r.returncode == 0:
                    problems.append("flac -t passed on a broken file")
            else:
                try:
                    MP3(path)
                    problems.append("mutagen read it as an MP3")
                except mutagen.MutagenError:
                    pass
        else:
            problems = compare(e, observe(root, e))
            if e["format"] == "flac":
                r = subprocess.run(["flac", "-t", "-s", path], capture_output=True, text=True)
                if r.returncode != 0:
                    problems.append("flac -t failed: " + r.stderr.strip())
        status = "ok  " if not problems else "FAIL"
        print("  %s %s" % (status, e["path"] if len(e["path"]) < 90 else e["path"][:87] + "..."))
        for p in problems:
            print("         " + p)
        failures += bool(problems)
    return failures, counts


# ---------------------------------------------------------------------------
# README
# ---------------------------------------------------------------------------

README_HEAD = """\
# Samples

Small, deterministic audio files for Boomic's tests and manual checks.
**Generated; do not edit by hand.** Regenerate with:

    scripts/make-samples          # installs sox, flac, lame, python3-mutagen via apt if missing

`scripts/make-samples` wipes and rebuilds this folder with `scripts/make-samples.py`
(run by `/usr/bin/python3`, which has the apt `python3-mutagen`), then reads every file
back (mutagen, `soxi`, `flac -t`, a RIFF INFO parser) and fails if anything differs from
`manifest.json`. Same tool versions give byte-identical output (sox runs with `-R -D`:
seeded, no dither; ids are uuid5; the "random" broken file uses a seeded generator).

## manifest.json

An array with one object per audio file (good and broken), sorted by `path`
(relative to `Samples/`, UTF-8, NFC). Keys are omitted when the file does not carry them.

| key | meaning |
|---|---|
| `path`, `format` | relative path; `flac`, `mp3`, `wav` or `ogg` |
| `tag_format` | how the tags are stored: `vorbis` (FLAC/Ogg comments), `id3v2.4`, `id3v2.3`, `id3v1` (ID3v1.1 only), `id3-chunk` (WAV `id3 ` chunk, v2.4), `riff-info` (WAV LIST/INFO), `none` |
| `title`, `artists` (array), `album`, `albumartist`, `genre`, `composer` | as written |
| `track`, `tracktotal`, `disc`, `disctotal` | integers (MP3 stores them as `TRCK "3/12"`, `TPOS "1/2"`) |
| `date` (string as written), `year` (int) | `1969-09-26` or `1971` style |
| `compilation` | `true` when COMPILATION=1 / TCMP=1 is written |
| `replaygain_{track,album}_gain` (dB), `replaygain_{track,album}_peak` | numbers; written as `"-6.50 dB"` and `"0.987654"` |
| `mb_trackid` (recording), `mb_albumid`, `mb_artistid` (first artist), `mb_albumartistid`, `mb_releasegroupid` | deterministic UUIDs; Various Artists uses MusicBrainz' real `89ad4ac3-39f7-470e-963a-56509c546377` |
| `cover` | `png` / `jpeg` = embedded front cover (type 3); `file` = no embedded art, image in `cover_path` |
| `samplerate`, `channels`, `bitdepth` (FLAC/WAV only), `duration_ms` | audio properties; MP3 durations are approximate (±120 ms: encoder delay/padding; soxi and TagLib count the padding, gapless mpg123 does not) |
| `broken`, `reason` | broken files only: they carry no tags or audio keys |

## How the tags are stored

* **FLAC / Ogg Vorbis**: Vorbis comments with Picard names: `TITLE`, `ARTIST` (one
  field per artist), `ALBUM`, `ALBUMARTIST`, `TRACKNUMBER`, `TRACKTOTAL`, `DISCNUMBER`,
  `DISCTOTAL`, `DATE`, `GENRE`, `COMPOSER`, `COMPILATION=1`,
  `REPLAYGAIN_{TRACK,ALBUM}_{GAIN,PEAK}`, `MUSICBRAINZ_{TRACKID,ALBUMID,ARTISTID,ALBUMARTISTID,RELEASEGROUPID}`.
  FLAC covers are PICTURE blocks; the Ogg cover is a base64 `METADATA_BLOCK_PICTURE` comment.
* **MP3 / WAV ID3**: `TIT2`, `TPE1` (v2.4: two null-separated values on one track), `TALB`, `TPE2`,
  `TRCK n/N`, `TPOS n/N`, `TDRC` (v2.3: mutagen writes it as `TYER`), `TCON`, `TCOM`, `TCMP=1`,
  `TXXX:REPLAYGAIN_TRACK_GAIN` etc. (upper case), `UFID` owner `http://musicbrainz.org`
  (= recording id = `mb_trackid`), `TXXX:MusicBrainz Album Id`, `…Artist Id`, `…Album Artist Id`,
  `…Release Group Id`, `APIC` type 3 with description `front`. Text is UTF-8 in v2.4 and UTF-16 in v2.3.
* **WAV RIFF INFO**: `INAM` title, `IART` artist, `IPRD` album, `ICRD` date, `IGNR` genre,
  `IPRT` track (the id TagLib reads); ASCII only.
* **ID3v1.1**: 128-byte `TAG` trailer: title, artist, album, year, track byte, genre index 17 (Rock).

## Odd cases

* No tags at all: `Loose Files/no tags at all.{flac,mp3,wav}` (the FLAC has no VORBIS_COMMENT
  block; the MP3 has neither ID3v2 nor ID3v1). Only the file name tells anything.
* A CUE image: `CUE Image/Chansons d'été/`, one FLAC image of three tracks (6 s) and its EAC-style
  sheet (CP1252, CRLF, a FILE line naming the `.wav` it was ripped to, pregaps before tracks 1
  and 2). Boomic lists its three tracks; it is not in `manifest.json` (one entry per file).
* A real `/` in a title: `Live/Dead`, stored as `01 Live_Dead.flac`.
* A division slash and an emoji in title and file name: `Rise ∕ Fall 🌅`.
* A 300-character title; the file name holds only its first 100 characters.
* Full date `1969-09-26` (Miles Quartet) vs year only `1971`, `2003`, `1983` (ID3v2.3 `TYER`).
* Two ARTIST values (FLAC, `Þúsund ár`) and two TPE1 values (MP3 v2.4, `Bömber`).
* Non-ASCII: Icelandic, German/Scandinavian umlauts, Japanese, Cyrillic, Spanish `Ñ`.
* A compilation (`Various Artists/Night Drive`) mixing FLAC (`COMPILATION=1`) and MP3 (`TCMP=1`)
  tracks by four artists.
* Multi-disc albums: `The Long Road Band/Double Live` (FLAC) and `坂本 龍一郎/東京の夜`
  (MP3 v2.3, `TPOS 1/2`, `2/2`; disc 2 has its own `tracktotal`).
* A partial album: `Motörhead-ish/Ace of Spätz` has tracks 1, 3 and 12 of 12 (`TRCK 3/12`).
* `cover.jpg` beside the tracks of `Дмитрий Соколов/Зимняя дорога`, which has no embedded art.
* Untidy layouts, in `Untidy/` (most tests leave this folder out): `Twin Rivers/Two Banks (2005)`
  is a two-disc album in `CD1/` and `CD2 - Bonus/` whose files carry no disc tag, with its
  `cover.jpg` in the album folder above the disc folders; `Nameless Rippers/First Rip (1999)` is
  an untagged rip (`01 - Opening Theme.flac`, no tags at all). The manifest lists what the files
  hold; what Boomic guesses from where they lie is in Documentation/import.md.
* Broken files in `Broken/`: zero-length `empty.flac`, `truncated.flac` (first 1000 bytes of a
  real FLAC), seeded random bytes `random.flac`, and a text file `notes.mp3`.

## What TagLib (1.13) may report differently from mutagen

* MP3/M4A give `TRACKNUMBER "3/12"` and `DISCNUMBER "1/2"`; FLAC/Ogg give `"3"` plus
  `TRACKTOTAL`/`DISCTOTAL`. Normalise to the manifest's integers.
* ID3v2.3 has no `TDRC`: the date is `TYER` (year only here); TagLib converts it to `DATE`.
  Multi-valued frames do not exist in v2.3, so v2.3 files here have one artist each.
* `UFID:http://musicbrainz.org` maps to `MUSICBRAINZ_TRACKID`, `TXXX:MusicBrainz Album Id` to
  `MUSICBRAINZ_ALBUMID` and so on; `TXXX:REPLAYGAIN_*` come back as `REPLAYGAIN_*` keys. `TCMP`
  maps to `COMPILATION`.
* RIFF INFO WAV: TagLib exposes only the basic fields (TITLE, ARTIST, ALBUM, DATE, GENRE,
  TRACKNUMBER); mutagen cannot read RIFF INFO at all (the generator checks it with its own parser).
* ID3v1: TagLib turns genre index 17 into `Rock`; mutagen too. No album artist, disc or totals.
* MP3 length: TagLib and soxi include the encoder delay/padding. TagLib 1.13 reads the 2.0 s
  44.1 kHz MP3s as 2038 ms, the 2.0 s 22.05 kHz ones as 2064 ms and the 1.0 s ones as 1045 ms;
  mpg123 with gapless decoding gives the exact sample count.
* Covers: ID3 `APIC` frames also appear in TagLib's `PropertyMap::unsupportedData()`; Ogg covers
  are only visible through `XiphComment::pictureList()` (METADATA_BLOCK_PICTURE).
* Broken files: TagLib's `isValid()` is **true** for `Broken/notes.mp3` (no properties, length 0)
  and for `Broken/truncated.flac` (it trusts STREAMINFO: 1000 ms). Only `empty.flac` and
  `random.flac` are invalid to TagLib. Detecting the other two needs the decoder
  (`flac -t` fails on `truncated.flac`; mpg123 finds no frame in `notes.mp3`).

Checked once with a small TagLib 1.13 program (`FileRef` + `File::properties()`, format-specific
picture lists): every good file's PropertyMap matched this manifest (after the TRACKNUMBER
"n/N" split), including RIFF INFO (TITLE, ARTIST, ALBUM, DATE, GENRE, TRACKNUMBER from IPRT),
ID3v2.3 `TYER` → DATE, `TCMP` → COMPILATION, UFID/TXXX → MUSICBRAINZ_*, and the Ogg PNG cover.

## Files

"""


def write_readme(root, manifest):
    lines = [README_HEAD]
    lines.append("| path | format | tags | title | artists | album / album artist | no. | date | cover | audio |\n")
    lines.append("|---|---|---|---|---|---|---|---|---|---|\n")

    def esc(s):
        return str(s).replace("|", "\\|")
    for e in manifest:
        if e.get("broken"):
            continue
        title = e.get("title", "")
        if len(title) > 60:
            title = title[:40] + "… (%d chars)" % len(title)
        no = ""
        if "track" in e:
            no = "%s%s" % (e["track"], "/%d" % e["tracktotal"] if "tracktotal" in e else "")
            if "disc" in e:
                no = "d%s%s t%s" % (e["disc"], "/%d" % e["disctotal"] if "disctotal" in e else "", no)
        audio = "%g kHz %dch" % (e["samplerate"] / 1000, e["channels"])
        if "bitdepth" in e:
            audio += " %d-bit" % e["bitdepth"]
        audio += " %.1f s" % (e["duration_ms"] / 1000)
        extras = []
        if e.get("compilation"):
            extras.append("compilation")
        if "replaygain_track_gain" in e:
            extras.append("RG %+.2f dB" % e["replaygain_track_gain"])
        if "mb_trackid" in e:
            extras.append("MB ids")
        tags = e["tag_format"] + (" (" + ", ".join(extras) + ")" if extras else "")
        aa = e.get("album", "")
        if e.get("albumartist"):
            aa += " / " + e["albumartist"]
        path = e["path"] if len(e["path"]) < 70 else e["path"][:60] + "….flac"
        lines.append("| %s |\n" % " | ".join(esc(x) for x in (
            path, e["format"], tags, title, "; ".join(e.get("artists", [])), aa, no,
            e.get("date", ""), e.get("cover", ""), audio)))
    lines.append("\nBroken files (`\"broken\": true`):\n\n")
    for e in manifest:
        if e.get("broken"):
            lines.append("* `%s`: %s\n" % (e["path"], e["reason"]))
    lines.append("\nEvery other value (composer, genre, ReplayGain, MusicBrainz ids) is in `manifest.json`.\n")
    with open(os.path.join(root, "README.md"), "w", encoding="utf-8") as fh:
        fh.write("".join(lines))


# ---------------------------------------------------------------------------

ROOT = None


def main():
    global ROOT
    here = os.path.dirname(os.path.abspath(__file__))
    final = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(os.path.dirname(here), "Samples")
    build_catalogue()
    paths = [t["path"] for t in TRACKS]
    assert len(paths) == len(set(paths)), "duplicate paths"
    for p in paths:
        assert all(len(part.encode()) <= 255 for part in p.split("/")), p

    parent = os.path.dirname(final)
    os.makedirs(parent, exist_ok=True)
    stage = tempfile.mkdtemp(prefix=".samples-", dir=parent)
    os.chmod(stage, 0o755)
    tmp = tempfile.mkdtemp(prefix="boomic-samples-")
    try:
        ROOT = stage
        for t in TRACKS:
            write_track(t, stage, tmp)
        # cover.jpg beside the album that has no embedded art
        cover_dir = "Дмитрий Соколов/Зимняя дорога"
        with open(os.path.join(stage, cover_dir, "cover.jpg"), "wb") as fh:
            fh.write(COVERS["winter_jpeg"][1])
        for t in TRACKS:
            if t["path"].startswith(cover_dir + "/"):
                t["cover_file"] = cover_dir + "/cover.jpg"
        # cover.jpg in the album folder above the disc folders: every disc's cover
        with open(os.path.join(stage, TWO_DISCS, "cover.jpg"), "wb") as fh:
            fh.write(COVERS["ice_jpeg"][1])
        for t in TRACKS:
            if t["path"].startswith(TWO_DISCS + "/"):
                t["cover_file"] = TWO_DISCS + "/cover.jpg"
        write_cue_image(stage, tmp)
        manifest = [manifest_entry(t) for t in TRACKS] + write_broken(stage)
        manifest = [ordered(e) for e in sorted(manifest, key=lambda e: e["path"])]
        with open(os.path.join(stage, "manifest.json"), "w", encoding="utf-8") as fh:
            json.dump(manifest, fh, ensure_ascii=False, indent=2)
            fh.write("\n")
        write_readme(stage, manifest)

        print("Verifying %d files in %s" % (len(manifest), final))
        failures, counts = verify(stage, manifest)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(tmp)
    if failures:
        print("%d file(s) FAILED verification; %s left for inspection" % (failures, stage))
        sys.exit(1)
    if os.path.exists(final):
        shutil.rmtree(final)
    os.rename(stage, final)
    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(final) for f in fs)
    good = sum(1 for e in manifest if not e.get("broken"))
    print("Summary: %d audio files (%d good, %d broken): %s" % (
        len(manifest), good, len(manifest) - good,
        ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    print("Total size of %s: %.2f MB (%d bytes)" % (final, total / 1e6, total))
    print("%d passed, 0 failed" % len(manifest))


if __name__ == "__main__":
    main()
