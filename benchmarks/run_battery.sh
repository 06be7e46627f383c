#!/usr/bin/env bash
# Runs sov_battery over both batteries: the default method cold, warm and as a
# boolean collide, and the study's three schemes from the quadtree seed as the
# study ran them (--bare). Prints the machine state first (date, commit, CPU,
# load) so every figure in RESULTS.md comes with its conditions.
#   benchmarks/run_battery.sh [BUILD_DIR] [DATA_DIR] [OUT_DIR] [BASE_BUILD_DIR]
# With BASE_BUILD_DIR (a build of an earlier commit), only the default
# method's runs are made, each one alternating the base build and BUILD_DIR
# REPS times (default 3) in the same time window: on a shared machine only
# such interleaved runs compare two builds fairly.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${1:-$here/../build}"
data="${2:-$here/../../shared/data}"
out="${3:-$build/battery_results}"
base="${4:-}"
reps="${REPS:-3}"
runner="$build/benchmarks/sov_battery"
[ -x "$runner" ] || { echo "no $runner: build the project first" >&2; exit 2; }
[ -z "$base" ] || [ -x "$base/benchmarks/sov_battery" ] ||
  { echo "no $base/benchmarks/sov_battery: build the base commit first" >&2; exit 2; }
[ -f "$data/battery_paper.csv" ] || { echo "no batteries in $data" >&2; exit 2; }
mkdir -p "$out"

echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "commit:  $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "cpu:     $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') ($(nproc) cores)"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"

run() {
  local name="$1"; shift
  echo
  echo "== $name: sov_battery $*"
  "$runner" "$@"
}

# One default-method query, base and new alternating REPS times; each build
# writes its own result file (OUT_STEM_base.csv, OUT_STEM_new.csv).
compare() {
  local name="$1" stem="$2"; shift 2
  for r in $(seq "$reps"); do
    for which in base new; do
      local dir="$build"
      [ "$which" = base ] && dir="$base"
      echo
      echo "== $name, $which ($dir), run $r: sov_battery $* --out ${stem}_$which.csv"
      "$dir/benchmarks/sov_battery" "$@" --out "${stem}_$which.csv"
    done
  done
}

for b in paper stress; do
  in="$data/battery_$b.csv"
  if [ -n "$base" ]; then
    compare "$b auto cold" "$out/${b}_auto" --in "$in"
    compare "$b auto warm" "$out/${b}_auto_warm" --in "$in" --warm
    compare "$b auto collide" "$out/${b}_auto_collide" --in "$in" --collide
    continue
  fi
  run "$b auto cold" --in "$in" --out "$out/${b}_auto.csv"
  run "$b auto warm" --in "$in" --out "$out/${b}_auto_warm.csv" --warm
  run "$b auto collide" --in "$in" --out "$out/${b}_auto_collide.csv" --collide
  for m in implicit parametric ntb; do
    run "$b $m quadtree bare" --in "$in" --out "$out/${b}_${m}.csv" --method "$m" --bare
  done
done
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
