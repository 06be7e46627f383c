#!/usr/bin/env bash
# Runs every experiment of the benchmark issue (the sov_bench_* programs), then
# plots them (plot_results.py) and checks that each produced its table and
# plot. Prints the machine state first and last so every figure comes with its
# conditions; summary.md in the results folder holds all the tables.
#   benchmarks/run_all.sh BUILD_DIR [--quick] [--out DIR] [--data DIR]
# --quick runs each experiment on a small sample (about a minute; ctest's
# benchmark_quick). Exit status: 0 when every experiment ran and produced its
# outputs, 1 otherwise (timings never fail it; wrong answers do: the programs
# exit 3 when their own checks fail).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
usage="usage: $0 BUILD_DIR [--quick] [--out DIR] [--data DIR]"
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
build="$1"; shift
quick=(); out=""; data=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=(--quick) ;;
    --out) out="${2:?$usage}"; shift ;;
    --data) data=(--data "${2:?$usage}"); shift ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
bin="$build/benchmarks"
out="${out:-$build/benchmark_results${quick:+_quick}}"
mkdir -p "$out" || exit 1

echo "date:    $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "commit:  $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$here" diff --quiet HEAD -- 2>/dev/null || echo ' (working tree differs)')"
echo "cpu:     $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') ($(nproc) cores)"
echo "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
echo "results: $out"

# experiment program, its outputs (CSV, PNG), whether it reads the batteries
experiments=(
  "battery:battery.csv contact_metric.csv battery.png contact_metric.png:data"
  "mesh_resolution:mesh_resolution.csv mesh_resolution.png:data"
  "bite:bite.csv bite_summary.csv bite.png:"
  "motion:motion.csv motion_steps.csv motion.png:"
  "scaling:scaling.csv threads.csv scaling.png:"
  "hand:hand.csv hand_queries.csv hand.png:"
  "fcl:fcl_summary.csv:data"
)
start=$(date +%s)
failed=0
skipped=""
k=0
for e in "${experiments[@]}"; do
  k=$((k + 1))
  name="${e%%:*}"
  prog="$bin/sov_bench_$name"
  echo
  echo "[$k/${#experiments[@]}] $name  ($(($(date +%s) - start)) s elapsed, load $(cut -d' ' -f1 /proc/loadavg))"
  if [ "$name" = hand ] && { [ ! -x "$prog" ] || [ ! -f "$here/../urdf/examples/hand.urdf" ]; }; then
    echo "  skipped: it needs the URDF layer's scene and urdf/examples/hand.urdf"
    skipped="$skipped hand"
    continue
  elif [ ! -x "$prog" ]; then
    echo "  missing $prog (build the project with FCL)" >&2
    failed=1
    continue
  fi
  extra=()
  [ "${e##*:}" = data ] && extra=("${data[@]}")
  "$prog" --out "$out" "${quick[@]}" "${extra[@]}"
  st=$?
  if [ $st -ne 0 ]; then
    why=""
    [ $st -eq 3 ] && why=" (its answers failed their checks)"
    echo "  sov_bench_$name exited with $st$why" >&2
    failed=1
  fi
done

echo
echo "plots ..."
python=""
for p in python3 /usr/bin/python3; do
  if command -v "$p" > /dev/null && "$p" -c 'import matplotlib' 2> /dev/null; then python="$p"; break; fi
done
if [ -n "$python" ]; then
  "$python" "$here/plot_results.py" "$out" || failed=1
else
  echo "  no python3 with matplotlib (Debian: python3-matplotlib): plots skipped, tables checked only"
fi

for e in "${experiments[@]}"; do
  case " $skipped " in *" ${e%%:*} "*) continue ;; esac
  files="${e#*:}"
  for f in ${files%:*}; do
    case "$f" in *.png) [ -n "$python" ] || continue ;; esac
    if [ ! -s "$out/$f" ] || [ "$(wc -l < "$out/$f")" -lt 1 ]; then
      echo "missing or empty output: $out/$f" >&2
      failed=1
    fi
  done
done

echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); total $(($(date +%s) - start)) s"
[ $failed -eq 0 ] && echo "all experiments produced their tables${python:+ and plots} in $out"
exit $failed
