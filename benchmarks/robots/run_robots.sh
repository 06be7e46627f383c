#!/bin/sh
# Issues 7 and 33's real-robot evidence: fit the iCub hands and the Panda (one
# body per link and unions per link), run both comparisons, draw the figures.
# Not part of ctest; about 40 minutes on the loaded 2-core machine, most of it
# in the union fits (about 4 minutes before them).
#   benchmarks/robots/run_robots.sh [BUILD_DIR] [DATA_DIR] [OUT_DIR]
# BUILD_DIR defaults to build, DATA_DIR to ../shared/data/robots, OUT_DIR to
# /tmp/sov_robots (CSV files, fitted URDFs, logs). Figures go to
# benchmarks/robots/figures/. Stops with the benchmark's exit status when it
# fails (1: a collision of the meshes missed by the fitted model).
set -e
here=$(dirname "$0")
build=${1:-build}
data=${2:-../shared/data/robots}
out=${3:-/tmp/sov_robots}
mkdir -p "$out" "$here/figures"
bench="$build/benchmarks/robots/sov_bench_robots"
for robot in icub panda; do
  status=0
  "$bench" $robot "$data" "$out" > "$out/$robot.txt" || status=$?
  cat "$out/$robot.txt"
  [ $status -eq 0 ] || { echo "sov_bench_robots $robot: exit status $status" >&2; exit $status; }
done
# The plots need numpy and matplotlib: $PYTHON, else the first of python3 and
# Debian's /usr/bin/python3 that has them (a pyenv python3 on the path may not).
python=${PYTHON:-}
if [ -z "$python" ]; then
  for p in python3 /usr/bin/python3; do
    if command -v "$p" > /dev/null && "$p" -c 'import numpy, matplotlib' 2> /dev/null; then
      python=$p
      break
    fi
  done
fi
if [ -z "$python" ]; then
  echo "no python3 with numpy and matplotlib (Debian: python3-matplotlib): figures not drawn" >&2
  exit 0
fi
"$python" "$here/plot_robots.py" "$out" "$here/figures"
