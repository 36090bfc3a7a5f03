#!/usr/bin/env bash
# The `status` row of `scripts/bench --serve`, looked at closely. boomic serve and MPD on the
# library and the MPD configuration the serve bench made ($BENCH_DIR/serve-N), copied, each:
#   1. pinned with its client (bench.d/poll.c) to one CPU, 20,000 polls a round, ROUNDS rounds
#      taking turns: the time a round trip and the server's CPU time a poll (schedstat, every
#      thread);
#   2. under callgrind, 22,000 polls after 2,000 unmeasured: instructions a poll. boomic's are
#      its event loop's inclusive count, so that work started at start-up on other threads (the
#      walk for playlist files) does not count; MPD's are the whole process's.
# Run `scripts/bench --serve` once first. Needs a C compiler, and valgrind for step 2.
#
#   scripts/bench.d/status-profile.sh [--boomic PATH] [--rounds N] [--no-callgrind]
#
# BENCH_DIR and BENCH_SONGS as for scripts/bench. Documentation/performance.md has its figures.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bench_dir="${BENCH_DIR:-/tmp/boomic-bench}"
songs="${BENCH_SONGS:-50000}"
boomic="$repo/.build-bench/release/boomic" rounds=5 callgrind=1
while [ $# -gt 0 ]; do
    case "$1" in
        --boomic) boomic="$2"; shift ;;
        --rounds) rounds="$2"; shift ;;
        --no-callgrind) callgrind=0 ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d'; exit 0 ;;
        *) echo "status-profile: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
served="$bench_dir/serve-$songs"
[ -f "$served/boomic-lib/library.sqlite" ] && [ -f "$served/mpd/mpd.conf" ] ||
    { echo "status-profile: no $served; run scripts/bench --serve first" >&2; exit 1; }
[ -x "$boomic" ] || { echo "status-profile: no boomic at $boomic" >&2; exit 1; }

work="$bench_dir/status-profile"
rm -rf "$work" && mkdir -p "$work/xdg" || exit 1
cp -r "$served/boomic-lib" "$work/lib" && cp -r "$served/mpd" "$work/mpd" || exit 1
export XDG_CONFIG_HOME="$work/xdg" XDG_STATE_HOME="$work/xdg" XDG_DATA_HOME="$work/xdg" XDG_RUNTIME_DIR="$work/xdg"
cc -O2 -o "$work/poll" "$here/poll.c" || exit 1
bport=$((40000 + RANDOM % 10000)) mport=$((50000 + RANDOM % 10000))
sed -i "s#$served/mpd#$work/mpd#g; s/^port .*/port \"$mport\"/" "$work/mpd/mpd.conf"

up() { for _ in $(seq 120); do "$work/poll" "$1" 1 >/dev/null 2>&1 && return 0; sleep 0.5; done; return 1; }
cpu_ns() { local s=0 t; for t in /proc/"$1"/task/*; do s=$((s + $(cut -d' ' -f1 "$t/schedstat" 2>/dev/null || echo 0))); done; echo "$s"; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# 1. Pinned to one CPU, taking turns.
"$boomic" --library "$work/lib" serve --bind "127.0.0.1:$bport" --output null --no-record 2>"$work/serve.log" &
bpid=$!
mpd --no-daemon "$work/mpd/mpd.conf" >/dev/null 2>&1 &
mpid=$!
trap 'kill $bpid $mpid 2>/dev/null' EXIT
up "$bport" && up "$mport" || { echo "status-profile: a server did not start (see $work/serve.log)" >&2; exit 1; }
sleep 3  # boomic's start-up work on other threads (the walk for playlist files)
cpu=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
for p in $bpid $mpid; do for t in /proc/$p/task/*; do taskset -p -c "$cpu" "${t##*/}" >/dev/null; done; done
: >"$work/boomic.txt"; : >"$work/mpd.txt"
for _ in $(seq "$rounds"); do
    for who in "boomic $bpid $bport" "mpd $mpid $mport"; do
        set -- $who
        a=$(cpu_ns "$2"); t=$(taskset -c "$cpu" "$work/poll" "$3" 20000); b=$(cpu_ns "$2")
        echo "$t $(( (b - a) / 20000 ))" >>"$work/$1.txt"
    done
done
kill $bpid $mpid 2>/dev/null; wait $bpid $mpid 2>/dev/null
echo "status on one CPU, $rounds rounds of 20,000 taking turns (median, range):"
for n in boomic mpd; do
    printf '  %-7s %6s µs a round trip (%s–%s), server CPU %s ns a poll\n' "$n" \
        "$(cut -d' ' -f1 "$work/$n.txt" | median)" "$(cut -d' ' -f1 "$work/$n.txt" | sort -n | head -1)" \
        "$(cut -d' ' -f1 "$work/$n.txt" | sort -n | tail -1)" "$(cut -d' ' -f2 "$work/$n.txt" | median)"
done

# 2. Instructions, under callgrind.
[ "$callgrind" = 1 ] || exit 0
command -v valgrind >/dev/null || { echo "status-profile: valgrind is not installed (apt install valgrind); no counts" >&2; exit 0; }
count() {  # NAME PORT OUT COMMAND...: 22,000 polls counted
    local name=$1 port=$2 out=$3; shift 3
    valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out" "$@" >"$work/$name-cg.log" 2>&1 &
    local pid=$!
    up "$port" || { echo "status-profile: $name did not start under valgrind" >&2; kill $pid; return 1; }
    sleep 5
    "$work/poll" "$port" 2000 >/dev/null
    callgrind_control -i on $pid >/dev/null 2>&1
    "$work/poll" "$port" 22000 >/dev/null
    callgrind_control -i off $pid >/dev/null 2>&1
    callgrind_control -d $pid >/dev/null 2>&1
    sleep 1; kill $pid; wait $pid 2>/dev/null
}
# The release build's debugging information is more than valgrind 3.19 reads: a stripped copy.
cp "$boomic" "$work/boomic-stripped" && strip --strip-debug "$work/boomic-stripped"
bport=$((bport + 1)) mport=$((mport + 1))
sed -i "s/^port .*/port \"$mport\"/" "$work/mpd/mpd.conf"
count boomic "$bport" "$work/boomic.cg" "$work/boomic-stripped" --library "$work/lib" serve --bind "127.0.0.1:$bport" --output null --no-record
count mpd "$mport" "$work/mpd.cg" mpd --no-daemon "$work/mpd/mpd.conf"
loop=$(callgrind_annotate --inclusive=yes "$work/boomic.cg.1" 2>/dev/null | grep 'SelectableEventLoopC3runyyKF \[' | head -1 | awk '{gsub(",", "", $1); print $1}')
whole=$(callgrind_annotate "$work/mpd.cg.1" 2>/dev/null | grep 'PROGRAM TOTALS' | awk '{gsub(",", "", $1); print $1}')
echo "instructions a poll (callgrind, 22,000 polls):"
echo "  boomic  $(( ${loop:-0} / 22000 )) on its event loop"
echo "  mpd     $(( ${whole:-0} / 22000 )) in the whole process"
echo "profiles: $work/boomic.cg.1, $work/mpd.cg.1 (callgrind_annotate --inclusive=yes FILE)"
