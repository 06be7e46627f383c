#!/usr/bin/env python3
"""Figures of the real-robot benchmark from sov_bench_robots' CSV files.

usage: plot_robots.py OUT_DIR FIGURE_DIR
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def column(rows, name):
    return np.array([float(r[name]) for r in rows])


def motion(out, figs):
    rows = read(os.path.join(out, "icub_motion.csv"))
    x = 1e3 * column(rows, "offset")
    fig, (a, b) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    a.plot(x, column(rows, "mesh_colliding_pairs"), label="meshes (FCL)")
    a.plot(x, column(rows, "fit_colliding_pairs"), label="fitted superovoids")
    a.set_ylabel("colliding geometry pairs")
    a.legend()
    a.set_title("iCub hands: right hand through the left, palms facing")
    b.plot(x, 1e3 * column(rows, "mesh_min_distance"), label="meshes (0 when colliding)")
    b.plot(x, 1e3 * column(rows, "fit_min_distance"), label="fitted (signed)")
    b.axhline(0, color="gray", lw=0.5)
    b.set_xlabel("palm centre offset along the left palm normal [mm]")
    b.set_ylabel("smallest pair distance [mm]")
    b.invert_xaxis()
    b.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "icub_motion.png"), dpi=110)


def query_times(out, figs):
    rows = read(os.path.join(out, "icub_query_times.csv"))
    series = {}
    for r in rows:
        series.setdefault(r["query"], []).append(float(r["us"]))
    fig, ax = plt.subplots(figsize=(7, 4))
    bins = np.logspace(-2, 4.5, 80)
    labels = {"mesh_distance": "mesh fcl::distance", "fit_distance_cold": "fit sov_distance cold",
              "fit_distance_warm": "fit sov_distance warm", "mesh_collide": "mesh fcl::collide",
              "fit_collide": "fit sov_collide"}
    for key in ["mesh_distance", "fit_distance_cold", "fit_distance_warm", "mesh_collide",
                "fit_collide"]:
        v = np.array(series.get(key, []))
        if v.size:
            ax.hist(v, bins=bins, histtype="step",
                    label="%s (median %.2f us)" % (labels[key], np.median(v)))
    ax.set_xscale("log")
    ax.set_xlabel("time per pair query [us]")
    ax.set_ylabel("queries")
    ax.set_title("iCub hands: per-query time, %d pair queries" % len(series["mesh_distance"]))
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "icub_query_times.png"), dpi=110)


def panda(out, figs):
    rows = read(os.path.join(out, "panda_configs.csv"))
    dm = 1e3 * column(rows, "mesh_min_distance")
    df = 1e3 * column(rows, "fit_min_distance")
    du = 1e3 * column(rows, "union_min_distance")
    ok = np.isfinite(dm)
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.5))
    a.scatter(dm[ok], df[ok], s=2, alpha=0.4, label="one body per link")
    a.scatter(dm[ok], du[ok], s=2, alpha=0.4, label="union per link")
    lim = [min(np.nanmin(df[ok]), np.nanmin(du[ok]), 0), dm[ok].max()]
    a.plot(lim, lim, color="gray", lw=0.8, label="fit = mesh")
    a.set_xlabel("mesh model: min self-distance [mm]")
    a.set_ylabel("fitted model: min self-distance [mm]")
    a.set_title("Panda, %d configurations free for the meshes" % ok.sum())
    a.legend()
    bins = np.logspace(0, 5, 80)
    for key, label in [("mesh_distance_us", "mesh minSelfDistance"),
                       ("fit_distance_us", "fit minSelfDistance"),
                       ("union_distance_us", "union minSelfDistance"),
                       ("mesh_collide_us", "mesh selfCollision"),
                       ("fit_collide_us", "fit selfCollision"),
                       ("union_collide_us", "union selfCollision")]:
        v = column(rows, key)
        v = v[np.isfinite(v)]
        b.hist(v, bins=bins, histtype="step", label="%s (median %.0f us)" % (label, np.median(v)))
    b.set_xscale("log")
    b.set_xlabel("time per configuration [us]")
    b.set_ylabel("configurations")
    b.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "panda_self.png"), dpi=110)


def fit_quality(out, figs):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, tag, title in [(axes[0], "icub_hands", "iCub hands (52 links)"),
                           (axes[1], "panda", "Panda (9 links)")]:
        for suffix, label in [("_fit.csv", "one body"), ("_union_fit.csv", "union")]:
            path = os.path.join(out, tag + suffix)
            if not os.path.exists(path):
                continue
            # A union's rows (one per body) repeat its figures: one point per mesh.
            rows = {(r["link"], r["collision"]): r for r in read(path)}.values()
            ratio = column(list(rows), "volume_ratio")
            gap = 1e3 * column(list(rows), "gap")
            ax.scatter(ratio, gap, s=12, label=label)
        ax.legend()
        ax.set_xlabel("volume / convex hull volume")
        ax.set_ylabel("gap [mm] (one body: to the hull; union: to the mesh)")
        ax.set_title(title)
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "fit_quality.png"), dpi=110)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    out, figs = sys.argv[1], sys.argv[2]
    os.makedirs(figs, exist_ok=True)
    motion(out, figs)
    query_times(out, figs)
    panda(out, figs)
    fit_quality(out, figs)


if __name__ == "__main__":
    main()
