#!/usr/bin/env bash
# Two builds of the library, interleaved in one run (speed is a ratio):
#   benchmarks/ab_battery.sh BASE_BUILD NEW_BUILD [ROUNDS] [DATA_DIR]
# runs sov_battery --repeat 3 on the paper, stress, contact and ellipsoid batteries in
# the cold, warm and collide modes, the two builds alternating ROUNDS times
# (default 3), and prints per battery and mode the mean over rounds of each
# build's median and mean time per query and new / base. DATA_DIR defaults
# to ../shared/data.
set -e
base=$1
new=$2
rounds=${3:-3}
data=${4:-../shared/data}
if [ -z "$base" ] || [ -z "$new" ]; then
  echo "usage: $0 BASE_BUILD NEW_BUILD [ROUNDS] [DATA_DIR]" >&2
  exit 2
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
