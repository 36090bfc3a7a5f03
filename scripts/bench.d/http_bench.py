#!/usr/bin/env python3
"""boomic serve --http against supysonic, both on loopback, in the same run (issue 36's speed).

Rows: ping (the floor of a call: authentication and the answer's header); getAlbumList2 of six
types (alphabeticalByName and alphabeticalByArtist from offset 100, newest, random, byYear
1990–1999, byGenre Jazz; 50 albums each); search3 of a word of the library and of two words (20 of
each kind), and with an empty query as a client's sync pages through the library (500 songs from
the middle); getAlbum (one album); stream's time to the first byte of a song (the file as it is);
and 50 concurrent streams: 50 clients, each streaming songs one after another for 3 s; every stream
must complete; the slowest client's throughput and the longest wait between two reads of any stream
(a stall: 500 ms or more) are printed; and the web page's history, first screen, on a copy of the
big library with 10,000 transactions (history_first_screen: boomic's big column only; supysonic has
no such page). Each time is the median of repeated requests on one open keep-alive connection, the
servers taking turns, after one warm-up. An endpoint a server does not answer yet (Subsonic error
70) is printed as "not yet", another error as "error CODE". The last columns read boomic's figure
at --songs against issue 36's budget (BUDGET at the median).

supysonic scans 30–40 files a second (mutagen, SQLite through peewee): its library is smaller than
boomic's (--peer-songs, default 2,000; its database is kept in WORK between runs), and boomic is
measured on that same folder too, so the ratios compare equal libraries; boomic's column at
--songs (default 50,000) holds the goal's figures. supysonic runs under waitress with 50 threads
(its default of 4 would queue 46 of the 50 streams). Never asserts a figure.
"""
import argparse, hashlib, http.client, json, os, signal, socket, statistics, subprocess, sys, threading, time, urllib.parse

USER, PASSWORD = "bench", "bench-password"
VENV = os.environ.get("SUBSONIC_VENV", "/opt/subsonic")
BUDGET = 0.020  # issue 36: each budget row's median at --songs
STALL = 0.5     # a wait this long between two reads of one stream is a stall (a player's buffer runs dry)


def log(msg):
    print(f"[http] {msg}", file=sys.stderr, flush=True)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def wait_http(port, proc, timeout):
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        if proc.poll() is not None:
            return None
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return time.perf_counter() - t0
        except OSError:
            time.sleep(0.01)
    return None


class Refused(RuntimeError):
    """A Subsonic error other than 70: the row prints `error CODE` for that server."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


class Server:
    """One Subsonic server: its name, port and credentials (a token for boomic, the `enc:`
    password for supysonic, which keeps only a hash and takes no token)."""

    def __init__(self, name, port, proc, token):
        self.name, self.port, self.proc = name, port, proc
        if token:
            salt = "b3nch"
            self.auth = f"u={USER}&t={hashlib.md5((PASSWORD + salt).encode()).hexdigest()}&s={salt}"
        else:
            self.auth = f"u={USER}&p=enc:{PASSWORD.encode().hex()}"
        self.auth += "&v=1.12.0&c=bench&f=json"
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def path(self, endpoint, **params):
        return f"/rest/{endpoint}.view?{self.auth}&" + urllib.parse.urlencode(params)

    def get(self, endpoint, **params):
        """The parsed answer (status ok) or None for 'not yet' (error 70); raises on others."""
        self.conn.request("GET", self.path(endpoint, **params))
        r = self.conn.getresponse()
        body = r.read()
        answer = json.loads(body)["subsonic-response"]
        if answer["status"] != "ok":
            if answer["error"]["code"] == 70:
                return None
            raise Refused(f"{self.name} {endpoint}: {answer['error']}", answer["error"]["code"])
        return answer

    def timed(self, endpoint, **params):
        """The answer's time, or None when the server does not answer the endpoint yet."""
        t0 = time.perf_counter()
        if self.get(endpoint, **params) is None:
            return None
        return time.perf_counter() - t0


def listed(d, key):
    v = (d or {}).get(key, [])
    return v if isinstance(v, list) else [v]


def turns(servers, runs, request):
    """Median of `request(server)` for each server, the servers taking turns, after a warm-up;
    None for a server whose request answers None (not answered yet)."""
    times = {s.name: [] for s in servers}
    refused = {}
    live = list(servers)
    for s in list(live):
        try:
            if request(s) is None:
                live.remove(s)
        except Refused as e:
            log(str(e))
            refused[s.name] = f"error {e.code}"
            live.remove(s)
    for _ in range(runs):
        for s in live:
            times[s.name].append(request(s))
    out = {n: statistics.median(t) if t else None for n, t in times.items()}
    out.update(refused)
    return out


def first_byte(server, song):
    """The time from sending `stream` to its first body byte, on a new connection (as a player
    opens one per song)."""
    t0 = time.perf_counter()
    s = socket.create_connection(("127.0.0.1", server.port))
    s.sendall(f"GET {server.path('stream', id=song)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = s.recv(65536)
        if not chunk:
            s.close()
            return None
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200") and not head.startswith(b"HTTP/1.0 200"):
        s.close()
        return None
    if not rest:
        rest = s.recv(65536)
    t = time.perf_counter() - t0
    if b"json" in head.lower() and b'"failed"' in rest + s.recv(65536):
        t = None  # an error answer, not the file
    s.close()
    return t


def concurrent_streams(server, songs, clients=50, seconds=3.0):
    """`clients` threads, each streaming songs one after another for `seconds`: the streams that
    completed and failed, the slowest client's bytes/s, the longest gap between two reads."""
    stats, errors = [], []
    lock = threading.Lock()

    def client(i):
        done = failed = total = 0
        gap = 0.0
        t0 = time.perf_counter()
        k = i
        while time.perf_counter() - t0 < seconds:
            song = songs[k % len(songs)]
            k += clients
            try:
                c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
                c.request("GET", server.path("stream", id=song))
                r = c.getresponse()
                last = time.perf_counter()
                length = int(r.getheader("Content-Length") or -1)
                got = 0
                while True:
                    chunk = r.read1(65536)
                    now = time.perf_counter()
                    if not chunk:
                        break
                    gap = max(gap, now - last)
                    last = now
                    got += len(chunk)
                c.close()
                ok = r.status == 200 and (length < 0 or got == length) and "json" not in (r.getheader("Content-Type") or "")
                done += ok
                failed += not ok
                total += got
            except (OSError, http.client.HTTPException) as e:
                failed += 1
                with lock:
                    errors.append(f"{type(e).__name__}: {e}")
        with lock:
            stats.append((done, failed, total / (time.perf_counter() - t0), gap))

    # The client's own lag: a thread that asks to sleep 10 ms at a time and records how much
    # later it woke. A wait between two reads of about this much is the client's (its threads
    # share one interpreter lock and the machine's cores), not the server's.
    lag = [0.0]
    running = [True]

    def canary():
        while running[0]:
            t = time.perf_counter()
            time.sleep(0.01)
            lag[0] = max(lag[0], time.perf_counter() - t - 0.01)

    watch = threading.Thread(target=canary)
    watch.start()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    running[0] = False
    watch.join()
    if errors:
        log(f"{server.name}: {len(errors)} streams failed, the first: {errors[0]}")
    return {"done": sum(s[0] for s in stats), "failed": sum(s[1] for s in stats),
            "slowest": min(s[2] for s in stats), "gap": max(s[3] for s in stats), "lag": lag[0]}


def start_boomic(boomic, lib, music, work, songs):
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"))
    if not os.path.exists(os.path.join(lib, "library.sqlite")):
        log(f"importing {songs} songs into {lib}")
        subprocess.run([boomic, "--library", lib, "import", music], check=True, env=env, stdout=subprocess.DEVNULL)
    else:
        log(f"rewriting {lib}'s checkpoint with this build (verify --repair)")
        subprocess.run([boomic, "--library", lib, "verify", "--repair"], env=env, stdout=subprocess.DEVNULL)
    users = subprocess.run([boomic, "--library", lib, "user", "ls", "--json"], env=env, capture_output=True, text=True)
    if USER not in users.stdout:
        subprocess.run([boomic, "--library", lib, "user", "add", USER], input=PASSWORD + "\n", text=True, check=True,
                       env=env, stdout=subprocess.DEVNULL)
    port = free_port()
    p = subprocess.Popen([boomic, "--library", lib, "serve", "--bind", f"127.0.0.1:{free_port()}", "--output", "null",
                          "--http", str(port)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=open(os.path.join(work, os.path.basename(lib) + "-serve.log"), "w"), env=env)
    return p, port, wait_http(port, p, 120)


def start_supysonic(music, work, songs, scan_timeout):
    os.makedirs(os.path.join(work, "cache"), exist_ok=True)
    with open(os.path.join(work, "supysonic.conf"), "w") as f:
        f.write(f"[base]\ndatabase_uri = sqlite:///{work}/supysonic.db\n[webapp]\ncache_dir = {work}/cache\n"
                f"log_level = WARNING\n[daemon]\nsocket = {work}/daemon.sock\nrun_watcher = false\n")
    cli = os.path.join(VENV, "bin", "supysonic-cli")
    env = dict(os.environ, HOME=work)
    scan = None
    if not os.path.exists(os.path.join(work, "scanned")):
        for old in ("supysonic.db",):
            if os.path.exists(os.path.join(work, old)):
                os.remove(os.path.join(work, old))
        subprocess.run([cli, "user", "add", USER, "-p", PASSWORD], cwd=work, env=env, check=True, stdout=subprocess.DEVNULL)
        subprocess.run([cli, "folder", "add", "music", music], cwd=work, env=env, check=True, stdout=subprocess.DEVNULL)
        log(f"supysonic scans {songs} songs (once; kept in {work})")
        t0 = time.perf_counter()
        try:
            subprocess.run([cli, "folder", "scan", "music"], cwd=work, env=env, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=scan_timeout)
        except subprocess.TimeoutExpired:
            log(f"supysonic did not scan {songs} songs in {scan_timeout} s")
            return None
        scan = time.perf_counter() - t0
        with open(os.path.join(work, "scanned"), "w") as f:
            f.write(f"{scan}\n")
    else:
        scan = float(open(os.path.join(work, "scanned")).read())
    port = free_port()
    p = subprocess.Popen([os.path.join(VENV, "bin", "supysonic-server"), "-S", "waitress", "-h", "127.0.0.1",
                          "-p", str(port), "--threads", "50"], cwd=work, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "server.log"), "w"))
    return p, port, wait_http(port, p, 60), scan


def time_history(port, runs):
    """Logs in to the page on `port` and times `GET api/history?limit=50` on one keep-alive
    connection: (the median of `runs` screens never read before, each further back in the log,
    as a first visit reads its first screen; the median of the first screen read again, whose
    rows' facts the server keeps)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", "/login", body=urllib.parse.urlencode({"user": USER, "password": PASSWORD}),
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    answer = conn.getresponse()
    answer.read()
    cookie = (answer.getheader("Set-Cookie") or "").split(";")[0]
    if not cookie:
        raise RuntimeError("history first screen: the login was refused")

    def screen(before=None):
        t0 = time.perf_counter()
        conn.request("GET", "/api/history?limit=50" + (f"&before={before}" if before else ""), headers={"Cookie": cookie})
        r = conn.getresponse()
        body = r.read()
        t = time.perf_counter() - t0
        page = json.loads(body) if r.status == 200 else None
        if page is None or len(page["items"]) != 50:
            raise RuntimeError(f"history first screen: {r.status} {body[:200]!r}")
        return t, page

    _, first = screen()
    head = first["head"]
    cold = [screen(head + 1 - 50 * i)[0] for i in range(1, min(runs, head // 50 - 1) + 1)]
    warm = [screen()[0] for _ in range(runs)]
    return statistics.median(cold), statistics.median(warm)


def history_first_screen(boomic, big_lib, work, runs, transactions=10_000):
    """The web page's history, its first screen: `GET api/history?limit=50` with a session (the
    timeline's 50 newest transactions, each with its provenance and counts), on a copy of the
    big library whose import is followed by edits up to `transactions` in all (mkhistory.py's,
    loaded by `import-json`; built once and kept in WORK), served on a port of its own. The
    median of `runs` screens never read before (`time_history`: what a first visit costs; a
    screen read again is logged too); None when the copy cannot be made (the big library holds
    more than its import)."""
    hist = os.path.join(work, f"{os.path.basename(big_lib)}-history-{transactions}")
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"))
    if not os.path.exists(os.path.join(hist, "library.sqlite")):
        export, lines = os.path.join(work, "history-base.jsonl"), os.path.join(work, "history.jsonl")
        subprocess.run([boomic, "--library", big_lib, "export", "-o", export], check=True, env=env, stdout=subprocess.DEVNULL)
        with open(export) as f:
            if sum(1 for line in f if line.startswith('{"seq"')) != 1:
                log(f"history first screen: {big_lib} holds more than its import; row left out")
                return None
        log(f"history first screen: {transactions} transactions into {hist} (once)")
        subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "mkhistory.py"),
                        export, lines, str(transactions)], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([boomic, "--library", hist, "import-json", lines], check=True, env=env, stdout=subprocess.DEVNULL)
        for f in (export, lines):
            os.remove(f)
    p, port, up = start_boomic(boomic, hist, None, work, transactions)
    try:
        if up is None:
            log("history first screen: boomic serve --http did not start; see its log in " + work)
            return None
        cold, warm = time_history(port, runs)
        log(f"history first screen: a screen never read {fmt_t(cold)}, the first screen again {fmt_t(warm)} (medians)")
        return cold
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(15)
        except subprocess.TimeoutExpired:
            p.kill()


def fmt_t(t):
    if t is None:
        return "not yet"
    if isinstance(t, str):
        return t
    return f"{t * 1000:.2f} ms" if t < 1 else f"{t:.2f} s"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--boomic", required=True)
    ap.add_argument("--library-root", required=True, help="boomic's music (mklib.py's layout), --songs songs")
    ap.add_argument("--peer-root", required=True, help="the smaller folder both serve, --peer-songs songs")
    ap.add_argument("--work", required=True)
    ap.add_argument("--songs", type=int, required=True)
    ap.add_argument("--peer-songs", type=int, required=True)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--scan-timeout", type=int, default=1800)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import mklib
    word = mklib.song_fields(1234)["title"].split()[-1]

    procs = []
    servers = {}
    try:
        p, port, up = start_boomic(args.boomic, os.path.join(args.work, f"boomic-{args.songs}"), args.library_root, args.work, args.songs)
        procs.append(p)
        if up is None:
            log("boomic serve --http did not start; see its log in " + args.work)
            return
        servers["big"] = Server(f"boomic {args.songs}", port, p, True)
        if args.peer_songs != args.songs:
            p, port, up = start_boomic(args.boomic, os.path.join(args.work, f"boomic-{args.peer_songs}"), args.peer_root, args.work, args.peer_songs)
            procs.append(p)
            if up is not None:
                servers["small"] = Server(f"boomic {args.peer_songs}", port, p, True)
        peer = start_supysonic(args.peer_root, os.path.join(args.work, f"supysonic-{args.peer_songs}"), args.peer_songs, args.scan_timeout)
        scan = None
        if peer is not None:
            p, port, up, scan = peer
            procs.append(p)
            if up is not None:
                servers["peer"] = Server(f"supysonic {args.peer_songs}", port, p, False)
        names = [k for k in ("big", "small", "peer") if k in servers]
        order = [servers[k] for k in names]

        # Each server's own ids: an album from the middle of its alphabetical list, songs of
        # its albums (for stream).
        ids = {}
        for k in names:
            s = servers[k]
            page = s.get("getAlbumList2", type="alphabeticalByName", size=50, offset=100)
            albums = listed((page or {}).get("albumList2"), "album")
            songs = []
            for a in albums[:10]:
                got = s.get("getAlbum", id=a["id"])
                songs += [x["id"] for x in listed((got or {}).get("album"), "song")]
            ids[k] = (albums[0]["id"] if albums else None, songs)

        # (label, in issue 36's budget, {server: median}); the budget rows are read against
        # BUDGET at --songs.
        rows = []

        def row(label, budget, request, among=None):
            rows.append((label, budget, turns(among or order, args.runs, request)))

        def album_list(kind, **extra):
            return lambda s: s.timed("getAlbumList2", type=kind, size=50, **extra)

        row("ping (the answer's header alone: the floor of a call)", False, lambda s: s.timed("ping"))
        row("getAlbumList2 alphabeticalByName (50 from offset 100)", True, album_list("alphabeticalByName", offset=100))
        row("getAlbumList2 alphabeticalByArtist (50 from offset 100)", True, album_list("alphabeticalByArtist", offset=100))
        row("getAlbumList2 newest (50)", True, album_list("newest"))
        row("getAlbumList2 random (50)", True, album_list("random"))
        row("getAlbumList2 byYear 1990–1999 (50)", True, album_list("byYear", fromYear=1990, toYear=1999))
        row("getAlbumList2 byGenre Jazz (50)", True, album_list("byGenre", genre="Jazz"))
        row(f"search3 \"{word}\" (20 of each)", True, lambda s: s.timed(
            "search3", query=word, artistCount=20, albumCount=20, songCount=20))
        row(f"search3 \"{word} a00\" (two words, 20 of each)", True, lambda s: s.timed(
            "search3", query=f"{word} a00", artistCount=20, albumCount=20, songCount=20))
        # A client's sync: an empty query, 500 songs a page, a page from the middle of the library.
        size = {servers[k].name: n for k, n in zip(("big", "small", "peer"), (args.songs, args.peer_songs, args.peer_songs))}
        row("search3 \"\" (a sync's page: 500 songs from the middle)", True, lambda s: s.timed(
            "search3", query="", artistCount=0, albumCount=0, songCount=500, songOffset=size[s.name] // 2))
        key = {servers[k].name: k for k in names}
        row("getAlbum", True, lambda s: s.timed("getAlbum", id=ids[key[s.name]][0]),
            [s for s in order if ids[key[s.name]][0]])
        row("stream: time to the first byte", True, lambda s: first_byte(s, ids[key[s.name]][1][0]),
            [s for s in order if ids[key[s.name]][1]])
        rows.append(("history page, first screen (50 of 10,000 transactions, a web session)", True,
                     {servers["big"].name: history_first_screen(args.boomic, os.path.join(args.work, f"boomic-{args.songs}"), args.work, args.runs)}))
        streams = {}
        for k in names:
            if ids[k][1]:
                streams[servers[k].name] = concurrent_streams(servers[k], ids[k][1])

        cols = [servers[k].name for k in names]
        big = servers["big"].name
        print(f"\n## boomic serve --http against supysonic: loopback, same run\n\nboomic: {args.boomic}\n")
        print("| request | " + " | ".join(cols) + f" | boomic / supysonic ({args.peer_songs} songs) | budget at {args.songs} | meets? |")
        print("|---|" + "---|" * len(cols) + "---|---|---|")
        for label, budget, got in rows:
            b, q = got.get(f"boomic {args.peer_songs}"), got.get(f"supysonic {args.peer_songs}")
            ratio = (f"{q / b:.2f}× faster" if b <= q else f"{b / q:.2f}× slower") \
                if isinstance(b, float) and isinstance(q, float) and b and q else "—"
            t = got.get(big)
            meets = "—" if not budget else ("yes" if t <= BUDGET else "**no**") if isinstance(t, float) else "not measured"
            print(f"| {label} | " + " | ".join(fmt_t(got.get(c, "—")) for c in cols) + f" | {ratio} | "
                  + (f"≤ {BUDGET * 1000:.0f} ms" if budget else "—") + f" | {meets} |")
        if streams:
            cells = []
            for c in cols:
                st = streams.get(c)
                cells.append("not yet" if st is None or st["done"] == 0 else
                             f"{st['done']} done, {st['failed']} failed; slowest client {st['slowest'] / 1e3:.0f} kB/s; longest wait {st['gap'] * 1000:.0f} ms"
                             f" (the client's own longest lag {st['lag'] * 1000:.0f} ms)")
            b, q = streams.get(f"boomic {args.peer_songs}"), streams.get(f"supysonic {args.peer_songs}")
            ratio = f"{b['slowest'] / q['slowest']:.2f}× the slowest's throughput" if b and q and b["done"] and q["done"] and q["slowest"] else "—"
            st = streams.get(big)
            meets = "not measured" if not st or not st["done"] else \
                ("yes" if st["failed"] == 0 and st["gap"] < STALL else "**no**")
            print("| 50 concurrent streams for 3 s | " + " | ".join(cells) + f" | {ratio} | every stream completes,"
                  f" no wait ≥ {STALL * 1000:.0f} ms | {meets} |")
        if scan is not None:
            print(f"\nsupysonic's scan of {args.peer_songs} songs: {scan:.0f} s ({args.peer_songs / scan:.0f} songs/s; "
                  f"{args.songs} would take ~{args.songs / (args.peer_songs / scan) / 60:.0f} min), so it serves {args.peer_songs}.")
        elif "peer" not in servers:
            print(f"\nsupysonic did not serve (see {args.work}); its column is left out.")
        print(f"\nTimes: median of {args.runs} requests on one keep-alive connection after a warm-up, the servers taking turns;"
              " stream's first byte on a new connection per request (as a player opens one a song); 50 streams: 50 threads"
              " of one Python client, each streaming songs one after another for 3 s (every stream read to its end and"
              " checked against Content-Length; a wait of 500 ms or more between two reads is a stall). Budget (issue 36):"
              " at 50,000 songs getAlbumList2, search3, getAlbum and the history page's first screen ≤ 20 ms at the median,"
              " stream's first byte ≤ 20 ms, 50 streams without a stall.")
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(15)
                except subprocess.TimeoutExpired:
                    p.kill()


if __name__ == "__main__":
    main()
