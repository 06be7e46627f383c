#!/bin/sh
# Issue 7's real-robot evidence: fit the iCub hands and the Panda, run both
# comparisons, draw the figures. Not part of ctest; about 4 minutes on the
# 2-core machine.
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
# PYTHON: an interpreter with numpy and matplotlib (Debian: /usr/bin/python3).
${PYTHON:-python3} "$here/plot_robots.py" "$out" "$here/figures"
