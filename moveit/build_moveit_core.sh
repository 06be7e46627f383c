#!/bin/bash
# Builds the parts of MoveIt 1 (noetic) that a collision detector needs, into a prefix
# outside this repository: octomap_msgs, object_recognition_msgs, moveit_msgs, srdfdom and
# a carved-out moveit_core (robot model and state, transforms, collision detection and its
# FCL plugin, kinematic constraints, robot trajectory, planning scene).
# Not part of CI. Everything else comes from Debian bookworm packages (list below).
#
# Usage: moveit/build_moveit_core.sh [PREFIX] [BUILD_DIR]
#   PREFIX     install prefix   (default /work/moveit-prefix)
#   BUILD_DIR  build directories (default /work/moveit-build)
#   SOV_MOVEIT_SRC  a directory holding the five source trees (moveit, srdfdom, moveit_msgs,
#     octomap_msgs, object_recognition_msgs) at the tags below; default BUILD_DIR/src. A tree
#     missing there is cloned with git from GitHub (the only network access; none when the
#     trees are present).
#   SOV_MOVEIT_JOBS  parallel compile jobs (default 1; one moveit_core compile peaks at 1.4 GB)
# catkin runs Debian's /usr/bin/python3 (catkin_pkg, genmsg, gencpp, ament_package live
# there), whatever python3 comes first on PATH.
# The installed libraries carry RUNPATH PREFIX/lib (no LD_LIBRARY_PATH needed to load them).
# Then configure superovoid with -DCMAKE_PREFIX_PATH=PREFIX to build moveit/.
#
# Debian packages it needs (apt-get install --no-install-recommends):
#   catkin python3-catkin-pkg python3-genmsg python3-gencpp ros-message-generation
#   ros-std-msgs ros-geometry-msgs ros-actionlib-msgs ros-sensor-msgs ros-shape-msgs
#   ros-trajectory-msgs (the .msg definitions: the lib*-msgs-dev packages hold only headers)
#   ros-cmake-modules libroscpp-dev pluginlib-dev libclass-loader-dev liburdf-dev
#   libkdl-parser-dev liborocos-kdl-dev libtf2-dev libtf2-eigen-dev libtf2-geometry-msgs-dev
#   libtf2-msgs-dev libactionlib-msgs-dev libstd-msgs-dev libgeometry-msgs-dev
#   libsensor-msgs-dev libshape-msgs-dev libtrajectory-msgs-dev libvisualization-msgs-dev
#   libgeometric-shapes-dev librandom-numbers-dev libeigen-stl-containers-dev
#   libangles-dev libfcl-dev liboctomap-dev libtinyxml2-dev libconsole-bridge-dev libboost-all-dev
#
# Left out of moveit_core (not needed by the planning scene, or not in Debian): the Python
# bindings (pybind11_catkin is not in Debian), Ruckig smoothing (ruckig is not in Debian;
# the planning scene uses only trajectory_tools.cpp of trajectory_processing), the Bullet
# and distance-field collision detectors, constraint samplers, planning interface and
# request adapters, dynamics solver, kinematics metrics, tests.
#
# Measured on 2026-11-27, empty prefix, sources present, SOV_MOVEIT_JOBS=2, on a 2-core
# AMD EPYC VM shared with other builds (load average 7 to 9): 724 s wall (moveit_core 561 s,
# moveit_msgs 109 s, srdfdom 37 s, object_recognition_msgs 12 s, octomap_msgs 5 s), 244 s
# user + 32 s system CPU, 1.4 GB peak resident (one moveit_core compile). Disk: prefix
# 37 MB, build directories 63 MB (59 MB of builds and the 4 MB moveit_core copy), source
# trees 20 MB (the whole moveit repository at 1.1.16: 19 MB).
set -euo pipefail

PREFIX=${1:-/work/moveit-prefix}
BUILD=${2:-/work/moveit-build}
SRC=${SOV_MOVEIT_SRC:-$BUILD/src}
JOBS=${SOV_MOVEIT_JOBS:-1}
HERE=$(cd "$(dirname "$0")" && pwd)

# name  GitHub repository  tag (the noetic releases)
PACKAGES="
octomap_msgs            OctoMap/octomap_msgs                  0.3.5
object_recognition_msgs wg-perception/object_recognition_msgs 0.4.2
moveit_msgs             ros-planning/moveit_msgs              0.11.4
srdfdom                 moveit/srdfdom                        0.6.4
moveit                  moveit/moveit                         1.1.16
"

case "$PREFIX" in "$(cd "$HERE/.." && pwd)"*) echo "PREFIX must be outside the repository" >&2; exit 2;; esac
mkdir -p "$PREFIX" "$BUILD" "$SRC"
START=$(date +%s)

# get_source NAME REPO TAG: use SRC/NAME if present, else clone it at TAG.
get_source() {
  if [ ! -d "$SRC/$1" ]; then
    git clone --depth 1 --branch "$3" "https://github.com/$2.git" "$SRC/$1"
  fi
}

# build_pkg NAME SOURCE_DIR: configure, build and install one catkin package into PREFIX.
build_pkg() {
  local t0; t0=$(date +%s)
  echo "=== $1 ($2)"
  cmake -S "$2" -B "$BUILD/build/$1" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$PREFIX" -DCMAKE_PREFIX_PATH="$PREFIX" \
    -DCMAKE_INSTALL_RPATH="$PREFIX/lib" \
    -DCATKIN_ENABLE_TESTING=OFF -DCATKIN_BUILD_BINARY_PACKAGE=ON -DSETUPTOOLS_DEB_LAYOUT=OFF \
    -DMOVEIT_CI_WARNINGS=OFF -DPYTHON_EXECUTABLE=/usr/bin/python3 -DPython3_EXECUTABLE=/usr/bin/python3 > "$BUILD/build-$1.configure.log" 2>&1 \
    || { tail -30 "$BUILD/build-$1.configure.log"; exit 1; }
  nice -n 10 cmake --build "$BUILD/build/$1" -j "$JOBS" > "$BUILD/build-$1.log" 2>&1 \
    || { tail -40 "$BUILD/build-$1.log"; exit 1; }
  cmake --install "$BUILD/build/$1" > "$BUILD/install-$1.log" 2>&1 \
    || { tail -20 "$BUILD/install-$1.log"; exit 1; }
  echo "    $(( $(date +%s) - t0 )) s"
}

echo "$PACKAGES" | while read -r name repo tag; do
  if [ -n "$name" ]; then get_source "$name" "$repo" "$tag"; fi
done

build_pkg octomap_msgs "$SRC/octomap_msgs"
build_pkg object_recognition_msgs "$SRC/object_recognition_msgs"
build_pkg moveit_msgs "$SRC/moveit_msgs"
build_pkg srdfdom "$SRC/srdfdom"

# moveit_core: a copy of the tree with our top-level CMakeLists.txt (the original lists
# every library and needs ruckig and pybind11_catkin); the subdirectories are unchanged.
CORE="$BUILD/moveit_core"
rm -rf "$CORE" && cp -r "$SRC/moveit/moveit_core" "$CORE"
cp "$HERE/moveit_core_carved.cmake" "$CORE/CMakeLists.txt"
build_pkg moveit_core "$CORE"

echo "=== done in $(( $(date +%s) - START )) s; prefix $(du -sh "$PREFIX" | cut -f1)," \
     "build dirs $(du -sh "$BUILD/build" | cut -f1), sources $(du -sh "$SRC" | cut -f1)"
