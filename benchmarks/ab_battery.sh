#!/usr/bin/env bash
# Two builds of the library, interleaved in one run (speed is a ratio):
#   benchmarks/ab_battery.sh [--pairs [--collide]] BASE_BUILD NEW_BUILD [ROUNDS] [DATA_DIR]
# runs sov_battery --repeat 3 on the paper, stress, contact and ellipsoid batteries in
# the cold, warm and collide modes, the two builds alternating ROUNDS times
# (default 3), and prints per battery and mode the mean over rounds of each
# build's median and mean time per query and new / base.
# With --pairs it compares the tail instead, pair by pair: each build's sov_battery
# (cold distance, one call a pair), alternating ROUNDS times, and per battery the rows
# whose answer (anything but the time) differs and the largest change of d, then over
# each pair's fastest round the median, p99 and maximum time, the pairs over 1 ms, the
# median per-pair ratio new / base, the iterations, and the three pairs that gained and
# lost most; with --collide the same of sov_collide (rows differ: status or verdict).
# DATA_DIR defaults to ../shared/data.
set -e
pairs=0
mode=""
if [ "$1" = --pairs ]; then
  pairs=1
  shift
  if [ "$1" = --collide ]; then
    mode=--collide
    shift
  fi
fi
base=$1
new=$2
rounds=${3:-3}
data=${4:-../shared/data}
if [ -z "$base" ] || [ -z "$new" ]; then
  echo "usage: $0 [--pairs [--collide]] BASE_BUILD NEW_BUILD [ROUNDS] [DATA_DIR]" >&2
  exit 2
fi
if [ "$pairs" = 1 ]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
  for r in $(seq "$rounds"); do
    for bat in paper stress contact ellipsoid; do
      for b in base new; do
        dir=$base
        [ "$b" = new ] && dir=$new
        "$dir/benchmarks/sov_battery" --in "$data/battery_$bat.csv" --out "$out/${bat}_${b}_$r.csv" \
          --repeat 1 $mode >/dev/null
      done
    done
  done
  python3 - "$out" "$rounds" <<'EOF'
import csv, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def load(bat, b):
    runs = [list(csv.DictReader(open(f"{out}/{bat}_{b}_{r}.csv"))) for r in range(1, rounds + 1)]
    return runs[0], [min(int(run[i]["time_ns"]) for run in runs) for i in range(len(runs[0]))]
def q(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p * len(v)))]
for bat in ["paper", "stress", "contact", "ellipsoid"]:
    rb, tb = load(bat, "base")
    rn, tn = load(bat, "new")
    keys = [k for k in rb[0] if k != "time_ns"]
    differ = sum(1 for a, c in zip(rb, rn) if any(a[k] != c[k] for k in keys))
    dd = max((abs(float(a["d"]) - float(c["d"])) for a, c in zip(rb, rn)
              if a["d"] != "nan" and c["d"] != "nan"), default=0.0)
    it = lambda rows: sum(int(x["iterations"]) for x in rows)
    ratio = statistics.median(n / b for n, b in zip(tn, tb))
    print(f"{bat}: {differ} of {len(rb)} rows differ (largest |change of d| {dd:.2g})")
    print(f"  us base / new: median {q(tb, .5) / 1e3:.2f} / {q(tn, .5) / 1e3:.2f}, "
          f"p99 {q(tb, .99) / 1e3:.1f} / {q(tn, .99) / 1e3:.1f}, "
          f"max {max(tb) / 1e3:.0f} / {max(tn) / 1e3:.0f}, "
          f"over 1 ms {sum(t > 1e6 for t in tb)} / {sum(t > 1e6 for t in tn)}; "
          f"per-pair new / base median {ratio:.3f}; iterations {it(rb)} / {it(rn)}")
    order = sorted(range(len(tb)), key=lambda i: tb[i] - tn[i])
    show = lambda idx: ", ".join(f"{rn[i]['id']} {tb[i] / 1e3:.0f}->{tn[i] / 1e3:.0f} us" for i in idx)
    print(f"  gained most: {show(order[::-1][:3])}; lost most: {show(order[:3])}")
EOF
  exit 0
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for bat in paper stress contact ellipsoid; do
  for mode in cold warm collide; do
    flag=""
    [ "$mode" = warm ] && flag=--warm
    [ "$mode" = collide ] && flag=--collide
    for r in $(seq "$rounds"); do
      for b in base new; do
        dir=$base
        [ "$b" = new ] && dir=$new
        "$dir/benchmarks/sov_battery" --in "$data/battery_$bat.csv" --out "$out" $flag --repeat 3 |
          awk -v b=$b '/time per query/ {print b, $6, $10}'
      done
    done | awk -v bat=$bat -v mode=$mode '{m[$1]+=$2; a[$1]+=$3; n[$1]++} END {
      printf "%-8s %-8s median base %.3f new %.3f (%.3f)  mean base %.3f new %.3f (%.3f)\n",
        bat, mode, m["base"]/n["base"], m["new"]/n["new"], m["new"]/m["base"],
        a["base"]/n["base"], a["new"]/n["new"], a["new"]/a["base"]}'
  done
done
