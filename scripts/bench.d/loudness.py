#!/usr/bin/env python3
"""The `loudness` figure of scripts/bench: files/s of `boomic loudness` (EBU R128 per track and
album, ReplayGain 2.0) against loudgain (Debian's `loudgain`, also over libebur128, decoding with
FFmpeg), on the same made albums. Prints figures; never asserts timing; exits 0 whatever happens.

Usage: loudness.py --boomic PATH --dir WORK [--albums A] [--tracks T] [--seconds S]
"""
import argparse, os, shutil, statistics, subprocess, sys, time

def log(msg):
    print(f"[bench loudness] {msg}", file=sys.stderr, flush=True)

def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)

def timed(fn, runs=3):
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts), ts

def make(root, albums, tracks, seconds):
    """`albums` folders of `tracks` songs each, alternating FLAC and MP3 albums, tagged by mutagen."""
    stamp = os.path.join(root, f".done-{albums}-{tracks}-{seconds}")
    if os.path.exists(stamp):
        return
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    for a in range(albums):
        d = os.path.join(root, f"album{a:02d}")
        os.makedirs(d)
        ext = "flac" if a % 2 == 0 else "mp3"
        for t in range(tracks):
            wav = os.path.join(d, f"{t:02d}.wav")
            # A chord that changes per track, at a level that changes per track.
            run(["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", wav, "synth", str(seconds),
                 "sine", str(220 + 37 * t), "sine", str(330 + 53 * a), "vol", f"{0.1 + 0.05 * (t % 5):.2f}"])
            out = os.path.join(d, f"{t:02d}.{ext}")
            if ext == "flac":
                run(["flac", "-s", "-f", "-o", out, wav])
            else:
                run(["lame", "--quiet", "-b", "256", wav, out])
            os.remove(wav)
    script = """
import sys, os, mutagen
from mutagen.easyid3 import EasyID3
root = sys.argv[1]
for a in sorted(os.listdir(root)):
    d = os.path.join(root, a)
    if not os.path.isdir(d): continue
    for name in sorted(os.listdir(d)):
        p = os.path.join(d, name)
        f = EasyID3() if name.endswith('.mp3') else mutagen.File(p)
        f['title'] = name; f['album'] = a; f['artist'] = 'Bench'; f['tracknumber'] = str(int(name[:2]) + 1)
        f.save(p) if name.endswith('.mp3') else f.save()
"""
    subprocess.run(["/usr/bin/python3", "-c", script, root], check=True)
    open(stamp, "w").close()

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--boomic", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--albums", type=int, default=8)
    ap.add_argument("--tracks", type=int, default=10)
    ap.add_argument("--seconds", type=int, default=30)
    args = ap.parse_args()
    music = os.path.join(args.dir, "music")
    n = args.albums * args.tracks
    log(f"making {n} files of {args.seconds} s…")
    try:
        make(music, args.albums, args.tracks, args.seconds)
    except (subprocess.CalledProcessError, FileNotFoundError) as e:
        print(f"loudness: could not make the files ({e}); no figure")
        return
    folders = [os.path.join(music, d) for d in sorted(os.listdir(music)) if os.path.isdir(os.path.join(music, d))]
    ncpu = os.cpu_count() or 1
    rows = []

    lib = os.path.join(args.dir, "lib")
    shutil.rmtree(lib, ignore_errors=True)
    try:
        run([args.boomic, "--library", lib, "import", music])
        t, ts = timed(lambda: run([args.boomic, "--library", lib, "loudness", "--dry-run", "-y"]))
        rows.append(("boomic loudness --dry-run (all cores)", t, ts))
    except subprocess.CalledProcessError as e:
        print(f"loudness: boomic failed ({e})")

    if shutil.which("loudgain"):
        def albums_one_by_one():
            for d in folders:
                run(["loudgain", "-a", "-q", "-s", "s"] + sorted(os.path.join(d, f) for f in os.listdir(d)))
        t, ts = timed(albums_one_by_one)
        rows.append(("loudgain -a -s s, one album after another", t, ts))
        def albums_on_all_cores():
            ps = []
            for d in folders:
                ps.append(subprocess.Popen(["loudgain", "-a", "-q", "-s", "s"] + sorted(os.path.join(d, f) for f in os.listdir(d)),
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
                while sum(p.poll() is None for p in ps) >= ncpu:
                    time.sleep(0.01)
            for p in ps:
                p.wait()
        t, ts = timed(albums_on_all_cores)
        rows.append((f"loudgain -a -s s, {ncpu} albums at once", t, ts))
    else:
        print("loudness: loudgain is not installed (apt install loudgain); no peer figure")

    print(f"\nloudness: {n} files ({args.albums} albums of {args.tracks}, FLAC and MP3 albums alternating, "
          f"{args.seconds} s each, 44.1 kHz stereo), track and album gain, nothing written; median of 3, {ncpu} cores")
    base = rows[0][1] if rows and rows[0][0].startswith("boomic") else None
    for name, t, ts in rows:
        ratio = f"  ({t / base:.2f}× boomic's time)" if base and not name.startswith("boomic") else ""
        print(f"  {name:<45} {n / t:7.1f} files/s  {t:6.2f} s  runs {', '.join(f'{x:.2f}' for x in ts)}{ratio}")
    print("  (loudgain also measures the true peak, 4× oversampled; boomic the sample peak. Both use libebur128.)")

if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # a figure script never fails the bench
        print(f"loudness: stopped ({e})")
