#!/usr/bin/env python3
"""Batch throughput from Python (issue 32): pairs per second of a battery
through a Python loop of single calls and through distance_batch /
collide_batch on 1 and 2 threads. The modes run interleaved, round after
round; the median round of each is reported. Not a ctest test.

    PYTHONPATH=build/python python3 benchmarks/bench_batch.py \
        [../shared/data/battery_contact.csv] [--rounds 5]

Loops:
  objects   Shape and Pose objects built beforehand, one distance() call a pair
  rows      a Pose built from each row's numpy slices inside the loop, as code
            that holds its poses in arrays writes it
Batches take the same Shape objects and the pose rows as (n, 7) arrays; one
mode passes the shapes as an (m, 7) parameter array instead, which every
call validates again (sov_shape_init, tens of microseconds a shape).
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

import superovoid as sov

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT = os.path.join(HERE, "..", "..", "shared", "data", "battery_contact.csv")


def load(path):
    """Shapes (2n, 7), indices, pose rows (n, 7) qw qx qy qz px py pz of a battery."""
    a = np.loadtxt(path, delimiter=",", skiprows=1)
    n = len(a)
    shapes = np.empty((2 * n, 7))
    shapes[0::2] = a[:, 1:8]
    shapes[1::2] = a[:, 15:22]
    return shapes, np.arange(0, 2 * n, 2), np.arange(1, 2 * n, 2), a[:, 8:15].copy(), a[:, 22:29].copy()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("battery", nargs="?", default=DEFAULT)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    shapes, ia, ib, qa, qb = load(args.battery)
    n = len(ia)
    S = [sov.Shape(row) for row in shapes]
    XA = [sov.Pose(q[4:], q[:4]) for q in qa]
    XB = [sov.Pose(q[4:], q[:4]) for q in qb]
    distance, collide, Pose = sov.distance, sov.collide, sov.Pose

    def loop_objects():
        for k in range(n):
            distance(S[ia[k]], XA[k], S[ib[k]], XB[k])

    def loop_rows():
        for k in range(n):
            distance(S[ia[k]], Pose(qa[k, 4:], qa[k, :4]), S[ib[k]], Pose(qb[k, 4:], qb[k, :4]))

    def loop_collide():
        for k in range(n):
            collide(S[ia[k]], XA[k], S[ib[k]], XB[k])

    t = args.threads
    modes = [
        ("distance, Python loop (objects)", loop_objects, "d"),
        ("distance, Python loop (rows)", loop_rows, "d"),
        ("distance_batch, 1 thread", lambda: sov.distance_batch(S, ia, ib, qa, qb, threads=1), "d"),
        (f"distance_batch, {t} threads", lambda: sov.distance_batch(S, ia, ib, qa, qb, threads=t), "d"),
        (f"distance_batch, {t} thr., (m, 7) shapes",
         lambda: sov.distance_batch(shapes, ia, ib, qa, qb, threads=t), "d"),
        ("collide, Python loop (objects)", loop_collide, "c"),
        ("collide_batch, 1 thread", lambda: sov.collide_batch(S, ia, ib, qa, qb, threads=1), "c"),
        (f"collide_batch, {t} threads", lambda: sov.collide_batch(S, ia, ib, qa, qb, threads=t), "c"),
    ]
    times = {name: [] for name, _, _ in modes}
    cpu = {name: [] for name, _, _ in modes}
    for _ in range(args.rounds):
        for name, f, _ in modes:
            t0, c0 = time.perf_counter(), time.process_time()
            f()
            times[name].append(time.perf_counter() - t0)
            cpu[name].append(time.process_time() - c0)
    print(f"{args.battery}: {n} pairs, {args.rounds} rounds (median round), python {sys.version.split()[0]}")
    print(f"{'mode':36s} {'median [ms]':>12s} {'pairs/s':>12s} {'vs loop':>8s} {'CPU [ms]':>9s}")
    loops = {"d": statistics.median(times[modes[0][0]]), "c": statistics.median(times[modes[5][0]])}
    for name, _, kind in modes:
        s = statistics.median(times[name])
        c = statistics.median(cpu[name])
        print(f"{name:36s} {1e3 * s:12.2f} {n / s:12.0f} {loops[kind] / s:7.2f}x {1e3 * c:9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
