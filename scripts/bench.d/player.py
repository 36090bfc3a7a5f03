#!/usr/bin/python3
"""The player's figures for scripts/bench --player (issue 10): decode speed in × real time against
the reference decoders in the same run (FLAC, MP3; and ALAC and WavPack through boomic-ffmpeg), CPU share of one core while playing in real time, and
peak memory while playing. Prints figures; never asserts timing; exits 0 whatever happens.
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import time

p = argparse.ArgumentParser()
p.add_argument("--boomic", required=True)
p.add_argument("--bench-dir", required=True)
p.add_argument("--minutes", type=float, default=10, help="minutes of music per format")
p.add_argument("--realtime-seconds", type=float, default=20)
a = p.parse_args()

work = os.path.join(a.bench_dir, "player")
music = os.path.join(work, f"music-{a.minutes:g}")
rows = []


def log(msg):
    print(f"[bench player] {msg}", file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)


def make_music():
    """Ten tracks per format of a busy signal (chords, noise and a sweep: FLAC cannot compress it
    to nothing and the MP3 encoder has work), 44.1 kHz, 16-bit stereo, like a CD rip."""
    if os.path.isdir(music):
        return
    tmp = music + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp + "/flac/Bench/Album")
    os.makedirs(tmp + "/mp3/Bench/Album")
    seconds = a.minutes * 60 / 10
    for i in range(10):
        wav = f"{tmp}/t{i}.wav"
        run(["sox", "-n", "-r", "44100", "-b", "16", "-c", "2", wav, "synth", str(seconds),
             "sine", f"{220 + 30 * i}", "sine", f"{330 + 20 * i}", "pinknoise", "sine", "100-8000",
             "remix", "1,2,3,4", "1,2,3,4", "gain", "-n", "-3"])
        run(["flac", "-s", "-f", "-o", f"{tmp}/flac/Bench/Album/{i + 1:02d}.flac", wav,
             "-T", "ARTIST=Bench", "-T", "ALBUM=Album", "-T", f"TRACKNUMBER={i + 1}", "-T", f"TITLE=Track {i + 1}"])
        run(["lame", "--quiet", "-V2", wav, f"{tmp}/mp3/Bench/Album/{i + 1:02d}.mp3",
             "--ta", "Bench", "--tl", "Album MP3", "--tn", str(i + 1), "--tt", f"Track {i + 1}"])
        os.remove(wav)
    os.rename(tmp, music)


def make_format(kind):
    """The FLAC tracks again as ALAC in M4A (`m4a`) or WavPack (`wv`): formats the player decodes
    through boomic-ffmpeg, made from the same music the first time they are asked for."""
    if os.path.isdir(f"{music}/{kind}"):
        return
    tmp = f"{music}/{kind}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp + "/Bench/Album")
    for i in range(10):
        flac = f"{music}/flac/Bench/Album/{i + 1:02d}.flac"
        out = f"{tmp}/Bench/Album/{i + 1:02d}.{kind}"
        if kind == "m4a":
            run(["ffmpeg", "-v", "error", "-y", "-i", flac, "-c:a", "alac", out])
        else:
            wav = f"{tmp}/t.wav"
            run(["flac", "-d", "-s", "-f", "-o", wav, flac])
            run(["wavpack", "-q", "-y", wav, "-o", out])
            os.remove(wav)
    os.rename(tmp, f"{music}/{kind}")


def library(kind):
    lib = os.path.join(work, f"lib-{kind}-{a.minutes:g}")
    if not os.path.exists(lib + "/library.sqlite"):
        shutil.rmtree(lib, ignore_errors=True)
        run([a.boomic, "--library", lib, "import", f"{music}/{kind}"])
    return lib


def timed(cmd, runs=3):
    """Best wall time of `runs`, and the child's CPU time (user+sys) for that run."""
    best = None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if best is None or wall < best[0]:
            best = (wall, cpu)
    return best


def max_rss_mb(cmd):
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    try:
        return int(out.stderr.strip().splitlines()[-1]) / 1024
    except (ValueError, IndexError):
        return None


def boomic_ffmpeg():
    """The boomic-ffmpeg the player will run for ALAC and WavPack, as it looks for one
    ($BOOMIC_FFMPEG, beside boomic, on PATH), else one a release build of this tree left; None
    when there is none, and the rows say so rather than fail."""
    for candidate in (os.environ.get("BOOMIC_FFMPEG"), os.path.join(os.path.dirname(a.boomic), "boomic-ffmpeg"),
                      shutil.which("boomic-ffmpeg"),
                      *(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", d, "release", "boomic-ffmpeg") for d in (".build-bench", ".build"))):
        if candidate and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    return None


def main():
    log(f"making {a.minutes:g} minutes of music per format in {music}")
    make_music()
    audio_seconds = a.minutes * 60
    for kind, peer_name, peer in [
        ("flac", "flac -d", lambda files: ["flac", "-d", "-s", "-c"] + files),
        ("mp3", "mpg123 -s", lambda files: ["mpg123", "-q", "-s"] + files),
        # Through boomic-ffmpeg (a child process per song, samples on a pipe) against ffmpeg and
        # wvunpack decoding the same files, one process per file as well.
        ("m4a", "ffmpeg (ALAC)", lambda files: ["sh", "-c", 'for f; do ffmpeg -v error -threads 1 -i "$f" -f s16le -; done', "-"] + files),
        ("wv", "wvunpack", lambda files: ["sh", "-c", 'for f; do wvunpack -q -y "$f" -o -; done', "-"] + files),
    ]:
        if kind in ("m4a", "wv"):
            if shutil.which("ffmpeg" if kind == "m4a" else "wvunpack") is None:
                continue
            helper = boomic_ffmpeg()
            if helper is None:
                rows.append((f"decode {'ALAC' if kind == 'm4a' else 'WavPack'} to null", "not measured", peer_name,
                             f"no boomic-ffmpeg beside {a.boomic} (scripts/install puts it there)"))
                continue
            os.environ["BOOMIC_FFMPEG"] = helper
            make_format(kind)
        lib = library(kind)
        files = sorted(os.path.join(dp, f) for dp, _, fs in os.walk(f"{music}/{kind}") for f in fs)
        b_wall, b_cpu = timed([a.boomic, "--library", lib, "play", "--output", "null", "--no-record"])
        p_wall, p_cpu = timed(["sh", "-c", " ".join(f"'{x}'" for x in peer(files)) + " > /dev/null"])
        ratio = p_wall / b_wall
        rows.append((f"decode {'ALAC' if kind == 'm4a' else 'WavPack' if kind == 'wv' else kind.upper()} to null", f"{audio_seconds / b_wall:,.0f}× real time",
                     f"{peer_name}: {audio_seconds / p_wall:,.0f}×",
                     (f"{ratio:.2f}× faster" if ratio >= 1 else f"{1 / ratio:.2f}× slower")
                     + (" (goal: not slower)" if kind in ("flac", "mp3") else "")))
    lib = library("flac")
    seconds = a.realtime_seconds
    cmd = [a.boomic, "--library", lib, "play", "--output", "null", "--realtime", "--no-record", "--sleep", f"{seconds:g}s"]
    extra_flags = []
    help_text = subprocess.run([a.boomic, "play", "--help"], capture_output=True, text=True).stdout
    if "--eq" in help_text:
        extra_flags += ["--eq", "rock"]
    if "--replaygain" in help_text:
        extra_flags += ["--replaygain", "track"]
    wall, cpu = timed(cmd + extra_flags, runs=1)
    what = " with " + " ".join(extra_flags) if extra_flags else " (no DSP in this build)"
    rows.append((f"play FLAC in real time{what}", f"{100 * cpu / wall:.2f} % of one core",
                 "—", "goal < 2 %"))
    rss = max_rss_mb(cmd + extra_flags)
    rows.append(("peak memory while playing", f"{rss:.0f} MB" if rss else "n/a", "—", ""))

    width = max(len(r[0]) for r in rows)
    print(f"\n{'player figure'.ljust(width)} | boomic | peer | ratio")
    print("-" * (width + 60))
    for r in rows:
        print(f"{r[0].ljust(width)} | {r[1]} | {r[2]} | {r[3]}")
    print(f"\n{a.minutes:g} minutes of 44.1 kHz/16-bit stereo per format (10 tracks); best of 3 runs;"
          " boomic's time includes opening the library and its player state. CPU share: user+sys"
          f" CPU time over wall time of a {seconds:g} s real-time play to the null output.")


try:
    main()
except subprocess.CalledProcessError as e:
    log(f"stopped: {' '.join(map(str, e.cmd))} exited {e.returncode}: {(e.stderr or b'').decode()[-500:]}")
