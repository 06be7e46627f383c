#!/usr/bin/env python3
"""Draws a path of sov_plan_demo: the table, the shelf and its boxes, the
octree's occupied cells, the fitted Panda at six configurations along the
path (purple at the start to yellow at the goal) and the trace of its tool point.

    plot_plan.py DIR OUT.png

DIR holds plan_scene.csv, plan_robot.csv and plan_trace.csv (written by
sov_plan_demo). Needs numpy and matplotlib (Debian: python3-matplotlib).
"""
import csv
import os
import sys

try:
    import numpy as np
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection
except ImportError as e:
    print(f"plot_plan.py: {e} (Debian: python3-matplotlib): no plot")
    sys.exit(1)


def box_faces(c, s):
    """The six faces of the axis-aligned box of centre c and size s."""
    lo, hi = c - s / 2, c + s / 2
    x = [lo[0], hi[0]]
    y = [lo[1], hi[1]]
    z = [lo[2], hi[2]]
    return [
        [(x[0], y[0], z[i]), (x[1], y[0], z[i]), (x[1], y[1], z[i]), (x[0], y[1], z[i])]
        for i in (0, 1)
    ] + [
        [(x[0], y[i], z[0]), (x[1], y[i], z[0]), (x[1], y[i], z[1]), (x[0], y[i], z[1])]
        for i in (0, 1)
    ] + [
        [(x[i], y[0], z[0]), (x[i], y[1], z[0]), (x[i], y[1], z[1]), (x[i], y[0], z[1])]
        for i in (0, 1)
    ]


def read_rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def draw_world(ax, rows):
    colours = {"table": "#b08d57", "octree": "#e02020"}
    order = {"table": 0, "octree": 2}
    for r in sorted(rows, key=lambda r: order.get(r["name"], 1)):
        c = np.array([float(r[k]) for k in ("cx", "cy", "cz")])
        s = np.array([float(r[k]) for k in ("sx", "sy", "sz")])
        name = r["name"]
        colour = colours.get(name, "#7090b0" if name.startswith("box") else "#c8b890")
        alpha = 1.0 if name == "octree" else (0.2 if name.startswith("shelf") else 0.6)
        ax.add_collection3d(
            Poly3DCollection(box_faces(c, s), facecolor=colour, edgecolor="none", alpha=alpha)
        )


def draw_robot(ax, path):
    data = np.loadtxt(path, delimiter=",", skiprows=1)
    poses = data[:, 0].astype(int)
    n = poses.max() + 1
    cmap = plt.get_cmap("viridis")
    for k in range(n):
        tris = data[poses == k, 1:].reshape(-1, 3, 3)
        ax.add_collection3d(
            Poly3DCollection(
                tris, facecolor=cmap(k / max(n - 1, 1)), edgecolor="none",
                alpha=0.25 + 0.6 * k / max(n - 1, 1),
            )
        )


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    folder, out = sys.argv[1], sys.argv[2]
    fig = plt.figure(figsize=(9, 7))
    ax = fig.add_subplot(projection="3d")
    # Drawn in order (table, shelf, octree, robot): mplot3d's depth sort puts
    # the whole table in front of the octree's cells on it.
    ax.computed_zorder = False
    draw_world(ax, read_rows(os.path.join(folder, "plan_scene.csv")))
    draw_robot(ax, os.path.join(folder, "plan_robot.csv"))
    trace = np.loadtxt(os.path.join(folder, "plan_trace.csv"), delimiter=",", skiprows=1)
    ax.plot(trace[:, 0], trace[:, 1], trace[:, 2], color="black", linewidth=2,
            label="tool point")
    ax.set_xlim(-0.3, 1.0)
    ax.set_ylim(-0.7, 0.8)
    ax.set_zlim(-0.05, 1.0)
    ax.set_box_aspect((1.3, 1.5, 1.05))
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_zlabel("z (m)")
    ax.view_init(elev=28, azim=-135)
    ax.set_title("Panda (fitted superovoids) planned by OMPL: table, shelf, octree (red)")
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
