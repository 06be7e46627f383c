#!/usr/bin/env python3
"""Draws sov-urdf-fit's fitted bodies over their meshes: for every fitted
mesh, three orthographic views in the fit's own frame (x-z, y-z, x-y), the
superovoid's silhouette in blue under the mesh's in grey, so that the blue
seen is the room the body leaves around the mesh.

    python3 plot_fit.py FITS.json OUT.png

FITS.json (written by sov-urdf-fit --plot): a list of
{"title", "mesh": [[x, y, z], ...], "mesh_triangles": [[i, j, k], ...],
 "body": [...], "body_triangles": [...]}, in metres, fit frame.
sov-urdf-fit embeds this script and runs it with python3. Exits with status
3 (and says so) when matplotlib is missing.
"""
import json
import math
import sys

VIEWS = (("x", "z", 0, 2), ("y", "z", 1, 2), ("x", "y", 0, 1))
LINKS_PER_ROW = 4


def projected(points, triangles, a, b):
    """The triangles as 2-D polygons in the coordinates a, b (millimetres)."""
    return [[(1e3 * points[i][a], 1e3 * points[i][b]) for i in t] for t in triangles]


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: plot_fit.py FITS.json OUT.png\n")
        return 2
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.collections import PolyCollection
    except ImportError:
        print("matplotlib is missing (apt-get install python3-matplotlib): no plot written")
        return 3
    with open(sys.argv[1]) as f:
        fits = json.load(f)
    if not fits:
        sys.stderr.write("plot_fit.py: no fit to draw\n")
        return 1
    columns = len(VIEWS) * min(LINKS_PER_ROW, len(fits))
    rows = math.ceil(len(fits) / LINKS_PER_ROW)
    fig, axes = plt.subplots(rows, columns, figsize=(1.6 * columns, 1.8 * rows), squeeze=False)
    for ax in axes.flat:
        ax.axis("off")
    for n, fit in enumerate(fits):
        row, first = divmod(n, LINKS_PER_ROW)
        for v, (na, nb, a, b) in enumerate(VIEWS):
            ax = axes[row][first * len(VIEWS) + v]
            ax.axis("on")
            body = projected(fit["body"], fit["body_triangles"], a, b)
            mesh = projected(fit["mesh"], fit["mesh_triangles"], a, b)
            ax.add_collection(PolyCollection(body, facecolors="#9ecae1", edgecolors="none"))
            ax.add_collection(PolyCollection(mesh, facecolors="#636363", edgecolors="none"))
            xs = [p[0] for poly in body for p in poly]
            ys = [p[1] for poly in body for p in poly]
            ax.set_xlim(min(xs), max(xs))
            ax.set_ylim(min(ys), max(ys))
            ax.set_aspect("equal")
            ax.tick_params(labelsize=5)
            ax.set_xlabel(na + " [mm]", fontsize=6, labelpad=1)
            ax.set_ylabel(nb + " [mm]", fontsize=6, labelpad=1)
            if v == 1:
                ax.set_title(fit["title"], fontsize=7)
    fig.suptitle("sov-urdf-fit: fitted superovoids (blue) over the link meshes (grey)",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=90)
    print("wrote %s: %d fitted meshes" % (sys.argv[2], len(fits)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
