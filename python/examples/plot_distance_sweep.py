#!/usr/bin/env python3
"""A distance sweep, plotted without Jupyter: a tapered superovoid moves
along x through a box-like one (one batch of every position, on every
core), and the signed distance, the overlap depth and the normal's x
component are drawn against the position into a PNG (matplotlib, Agg).

    PYTHONPATH=build/python python3 python/examples/plot_distance_sweep.py \
        [--out sweep.png] [--steps 400]
"""
import argparse
import sys

import numpy as np

import superovoid as sov


def sweep(steps):
    """Positions and the batch answer of B moved along x through A."""
    shapes = np.array([[0.4, 0.25, 0.2, 0.2, 0.3, 0.0, 0.0],       # box-like A
                       [0.15, 0.15, 0.35, 1.0, 0.8, -0.4, -0.4]])   # tapered B
    x = np.linspace(-1.0, 1.0, steps)
    tilt = np.array([np.cos(0.2), np.sin(0.2), 0.0, 0.0])  # B tilted about x
    poses_a = np.tile([1.0, 0, 0, 0, 0, 0, 0], (steps, 1))
    poses_b = np.column_stack([np.tile(tilt, (steps, 1)), x, np.full(steps, 0.1), np.full(steps, 0.35)])
    index_a, index_b = np.zeros(steps, int), np.ones(steps, int)
    return x, sov.distance_batch(shapes, index_a, index_b, poses_a, poses_b, threads=0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="distance_sweep.png", help="PNG to write")
    parser.add_argument("--steps", type=int, default=400, help="positions of B")
    args = parser.parse_args()
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is missing (Debian: python3-matplotlib): no plot", file=sys.stderr)
        return 4
    x, r = sweep(args.steps)
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(7, 6))
    top.plot(x, 1000 * r.d, color="tab:blue", label="signed distance d")
    top.fill_between(x, 1000 * np.minimum(r.d, 0), 0, color="tab:red", alpha=0.3, label="overlap (-d = depth)")
    top.axhline(0, color="black", lw=0.5)
    top.set_ylabel("d [mm]")
    top.legend(loc="upper center")
    top.set_title(f"B swept along x through A: {args.steps} positions, one batch on {r.threads} threads")
    bottom.plot(x, r.n[:, 0], color="tab:green", label="n_x (normal from A to B)")
    bottom.plot(x, r.n[:, 2], color="tab:purple", label="n_z")
    bottom.set_xlabel("x of B [m]")
    bottom.set_ylabel("normal")
    bottom.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"{args.out}: d from {r.d.min():.6f} to {r.d.max():.6f} m, "
          f"{np.count_nonzero(r.d <= 0)} of {args.steps} positions touching or overlapping")
    return 0


if __name__ == "__main__":
    sys.exit(main())
