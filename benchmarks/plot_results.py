#!/usr/bin/env python3
"""Plots and Markdown tables of the benchmark experiments (run_all.sh).

    benchmarks/plot_results.py RESULTS_DIR

Reads the CSVs the sov_bench_* programs wrote into RESULTS_DIR and writes one
PNG per experiment and summary.md (every table, with the conditions of its
run). Experiments whose CSV is missing are skipped with a message; the exit
status is 1 if a CSV exists but cannot be plotted.
"""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    """Rows of a CSV as dicts (strings)."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(x):
    """A CSV cell as float (nan for empty or 'nan')."""
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def meta(out, name):
    """key -> value of NAME_meta.csv, empty if absent."""
    path = os.path.join(out, name + "_meta.csv")
    return {r["key"]: r["value"] for r in read(path)} if os.path.exists(path) else {}


def conditions(m):
    """One line: date, CPU, load before and after."""
    if not m:
        return ""
    return "{} UTC, {}, load {:.2f} -> {:.2f}".format(
        m.get("start_utc", "?"), m.get("cpu", "?"), num(m.get("load_before")), num(m.get("load_after")))


def finish(fig, out, name, m):
    """Adds the run's conditions as a footnote and saves NAME.png."""
    fig.text(0.01, 0.005, conditions(m), fontsize=7, color="0.35")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(os.path.join(out, name + ".png"), dpi=80)
    plt.close(fig)


def g3(x):
    """A time or count: 3 significant digits, thousands separated; '-' for nan."""
    v = num(x)
    if math.isnan(v):
        return "-"
    if abs(v) >= 1000:
        return "{:,.0f}".format(float("{:.3g}".format(v)))
    return "{:.3g}".format(v)


def e2(x):
    """An error: 2 significant digits, scientific below 0.01; '-' for nan."""
    v = num(x)
    if math.isnan(v):
        return "-"
    return "{:.2g}".format(v) if v == 0 or abs(v) >= 0.01 else "{:.1e}".format(v).replace("e-0", "e-")


def pct(x):
    """A share as a percentage with 3 significant digits."""
    v = num(x)
    return "-" if math.isnan(v) else "{:.3g} %".format(100 * v)


def md_table(header, rows):
    """Markdown table from a header list and rows of cell strings."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def method_label(name, n, full):
    """Table label of a battery method; subsampled methods show their pair count."""
    label = {"auto (default)": "**auto**", "FCL mesh 290v OBBRSS": "FCL mesh 290 v"}.get(name, name)
    return label if n == full else "{} ({})".format(label, n)


def battery_table(rows):
    """Experiment 1 in the RESULTS.md layout."""
    out, last = [], None
    rows = sorted(rows, key=lambda r: (r["battery"], r["split"] != "separated"))  # stable: method order kept
    for r in rows:
        key = (r["battery"], r["split"])
        full = max(int(x["pairs"]) for x in rows if (x["battery"], x["split"]) == key)
        head = ["", ""] if key == last else [r["battery"], "{} {}".format(
            "apart" if r["split"] == "separated" else "overlap", full)]
        last = key
        out.append(head + [method_label(r["method"], int(r["pairs"]), full), g3(r["guess_us_median"]),
                           g3(r["total_us_median"]), g3(r["total_us_mean"]), g3(r["total_us_p99"]),
                           g3(r["iterations_mean"]), g3(r["us_per_iteration_median"]), pct(r["converged_share"]),
                           r["wrong_ok"], "{:.2g}".format(num(r["share_d_nonpositive"])), e2(r["err_median"]),
                           e2(r["err_max"])])
    return md_table(["battery", "pairs", "method", "guess", "median", "mean", "p99", "Newton its", "us/it",
                     "converged", "wrong OK", "d <= 0", "error median", "error max"], out)


def plot_battery(out, md):
    rows = read(os.path.join(out, "battery.csv"))
    m = meta(out, "battery")
    methods = list(dict.fromkeys(r["method"] for r in rows))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5), sharey=True)
    for ax, battery in zip(axes, ["paper", "stress"]):
        for k, split in enumerate(["separated", "overlapping"]):
            med, p99 = [], []
            for meth in methods:
                r = [x for x in rows if x["battery"] == battery and x["split"] == split and x["method"] == meth]
                med.append(num(r[0]["total_us_median"]) if r else math.nan)
                p99.append(num(r[0]["total_us_p99"]) if r else math.nan)
            y = [i + (0.2 if k else -0.2) for i in range(len(methods))]
            ax.barh(y, med, height=0.38, label=split + " (median)", color="C0" if k == 0 else "C3")
            ax.plot(p99, y, "k|", markersize=9, label="p99" if k == 0 else None)
        ax.set_xscale("log")
        ax.set_xlabel("time per query (us, log scale)")
        ax.set_title("{} battery".format(battery))
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(range(len(methods)))
    axes[0].set_yticklabels(methods)
    axes[0].invert_yaxis()
    axes[1].legend(loc="lower right", fontsize=8)
    fig.suptitle("Study Tables 1-2: signed distance per query, superovoid schemes vs FCL 0.7")
    finish(fig, out, "battery", m)
    md.append("## Experiment 1: randomized battery (study Tables 1 and 2)\n\n" + conditions(m) + "\n\n" +
              battery_table(rows))

    cs = read(os.path.join(out, "contact_metric.csv"))
    fig, ax = plt.subplots(figsize=(8, 4))
    names = list(dict.fromkeys(r["method"] for r in cs))
    for k, battery in enumerate(["paper", "stress"]):
        vals = [100 * num(next((r["share_surface_n"] for r in cs if r["battery"] == battery and r["method"] == n),
                               "nan")) for n in names]
        ax.bar([i + (0.2 if k else -0.2) for i in range(len(names))], vals, width=0.38, label=battery + " battery",
               zorder=2)
    ax.axhspan(92, 99.9, color="0.85", zorder=0, label="Ruan 2022 published range (92-99.9 %)")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=15, fontsize=8)
    ax.set_ylabel("pairs with |n x (pA - pB)| < 1e-5 (%)")
    ax.set_ylim(0, 105)
    ax.set_title("Contact-space metric (Ruan 2022 Table III), n = surface normal at pA")
    ax.legend(fontsize=8, loc="lower left")
    finish(fig, out, "contact_metric", m)
    full = max(int(r["pairs"]) for r in cs)
    body = [[r["battery"], method_label(r["method"], int(r["pairs"]), full),
             pct(num(r["converged"]) / num(r["pairs"])), pct(r["share_returned_n"]), pct(r["share_surface_n"]),
             g3(r["total_us_median"])] for r in cs]
    md.append("## Experiment 6: contact-space metric (Ruan 2022, Table III)\n\n" + conditions(m) + "\n\n" +
              md_table(["battery", "method", "converged", "returned n", "surface normal at pA", "median us"], body))


def plot_mesh_resolution(out, md):
    rows = read(os.path.join(out, "mesh_resolution.csv"))
    m = meta(out, "mesh_resolution")
    fig, (ea, ta) = plt.subplots(1, 2, figsize=(11, 4.2))
    for meth, style in [("FCL mesh OBBRSS", "o-"), ("FCL Convex GJK", "s--")]:
        r = [x for x in rows if x["method"] == meth]
        xs = [num(x["x"]) for x in r]
        ea.plot(xs, [num(x["err_median"]) for x in r], style, label=meth + " (median)")
        ta.plot(xs, [num(x["time_us_median"]) for x in r], style, label=meth)
    ours = [x for x in rows if x["method"] == "superovoid auto"]
    dashes = [(0, (1, 1)), (0, (4, 2)), (0, (6, 2, 1, 2)), (0, (8, 4))]
    for k, x in enumerate(ours):
        style = dict(color="C{}".format(k + 2), lw=1.2, ls=dashes[k % len(dashes)])
        ea.axhline(max(num(x["err_max"]), 1e-16), label="superovoid, tol {} (max)".format(x["x"]), **style)
        ta.axhline(num(x["time_us_median"]), label="superovoid, tol {} (median)".format(x["x"]), **style)
    for ax in (ea, ta):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("mesh vertices per body (log)")
        ax.grid(alpha=0.3)
    ea.set_ylabel("|d - d_ref| (length units, log)")
    ta.set_ylabel("time per query (us, log)")
    ea.set_title("Error vs mesh resolution")
    ta.set_title("Time vs mesh resolution")
    ea.legend(fontsize=7)
    ta.legend(fontsize=7)
    finish(fig, out, "mesh_resolution", m)
    mesh = [r for r in rows if r["method"] == "FCL mesh OBBRSS"]
    body = []
    for r in mesh:
        c = next(x for x in rows if x["method"] == "FCL Convex GJK" and x["x"] == r["x"])
        body.append([r["x"], e2(r["err_median"]) + " / " + e2(r["err_max"]), g3(r["time_us_median"]),
                     e2(c["err_median"]) + " / " + e2(c["err_max"]), g3(c["time_us_median"])])
    ours_body = [[x["x"], e2(x["err_median"]) + " / " + e2(x["err_max"]),
                  g3(x["time_us_median"]) + " / " + g3(x["time_us_p99"])] for x in ours]
    md.append("## Experiment 2: accuracy vs mesh resolution (study Figs. 9 and 10)\n\n" + conditions(m) + "\n\n" +
              md_table(["vertices per body", "FCL mesh: error median / max", "us",
                        "FCL Convex GJK: error median / max", "us"], body) + "\n\n" +
              md_table(["superovoid `auto`, tolerance", "error median / max", "us median / p99"], ours_body))


def plot_hand(out, md):
    rows = read(os.path.join(out, "hand.csv"))
    m = meta(out, "hand")
    q = read(os.path.join(out, "hand_queries.csv"))
    fig, ax = plt.subplots(figsize=(8, 4.2))
    models = list(dict.fromkeys(r["model"] for r in q))
    data = [[num(r["us"]) for r in q if r["model"] == mo] for mo in models]
    names = {"mesh distance": "FCL mesh distance", "mesh collide": "FCL mesh collide (boolean)",
             "superovoid collide": "superovoid collide (boolean, warm)"}
    labels = [names.get(mo, mo + " distance (warm)") for mo in models]
    ax.boxplot(data, vert=False, labels=labels, whis=(1, 99), showfliers=False)
    ax.set_xscale("log")
    ax.set_xlabel("time per pair query (us, log; whiskers p1-p99)")
    ax.set_title("Hand case (study Table 4, Fig. 11): per-query time")
    ax.grid(axis="x", alpha=0.3)
    finish(fig, out, "hand", m)
    body = [[r["model"], g3(r["us_median"]), g3(r["us_mean"]), g3(r["us_p99"]), g3(r["iterations_mean"]),
             g3(r["frame_us_median"]), e2(r["min_d"]), r["colliding_pair_frames"]] for r in rows]
    md.append("## Experiment 3: hand case (study Table 4, Fig. 11)\n\n" + conditions(m) + "\n\n" +
              md_table(["model", "median", "mean", "p99", "Newton its", "per frame", "min d", "colliding"], body))


def plot_bite(out, md):
    rows = read(os.path.join(out, "bite.csv"))
    m = meta(out, "bite")
    cols = list(rows[0].keys())
    dcols = [c for c in cols if c.startswith("d_")]
    tcols = [c for c in cols if c.startswith("us_")]
    f = [int(r["frame"]) for r in rows]
    fig, (da, ta) = plt.subplots(2, 1, figsize=(9, 6.5), sharex=True)
    for c in dcols:
        da.plot(f, [num(r[c]) for r in rows], label=c[2:].replace("_", " ") + (" triangles/jaw" if "mesh" in c else ""))
    da.axhline(0, color="k", lw=0.6)
    da.set_ylabel("min signed distance (length units)")
    da.set_title("Bite sequence (study Figs. 13-14): two jaws of 40 superovoids each")
    da.legend(fontsize=8)
    for c in tcols:
        label = ("FCL " + c[3:].replace("_", " ") + " triangles/jaw" if "mesh" in c
                 else "superovoids, " + c[3:] + "-started")
        ta.plot(f, [num(r[c]) for r in rows], label=label)
    ta.set_yscale("log")
    ta.set_xlabel("frame")
    ta.set_ylabel("time per frame (us, log)")
    ta.legend(fontsize=8)
    for ax in (da, ta):
        ax.grid(alpha=0.3)
    finish(fig, out, "bite", m)
    s = read(os.path.join(out, "bite_summary.csv"))
    body = [[r["method"], g3(r["us_per_frame_median"]), g3(r["us_per_frame_mean"]), g3(r["us_per_frame_p99"]),
             g3(r["total_ms"])] for r in s]
    md.append("## Experiment 4: bite sequence (study Figs. 13 and 14)\n\n" + conditions(m) + "\n\n" +
              md_table(["method", "per frame: median", "mean", "p99", "181 frames (ms)"], body))


def plot_motion(out, md):
    rows = read(os.path.join(out, "motion.csv"))
    steps = read(os.path.join(out, "motion_steps.csv"))
    m = meta(out, "motion")
    pairs = list(dict.fromkeys(r["pair"] for r in steps))
    fig, axes = plt.subplots(1, len(pairs), figsize=(4 * len(pairs), 3.8), sharey=True)
    for ax, p in zip(axes, pairs):
        r = [x for x in steps if x["pair"] == p]
        k = [int(x["step"]) for x in r]
        ax.plot(k, [num(x["iterations_cold"]) for x in r], label="cold", color="C1")
        ax.plot(k, [num(x["iterations_warm"]) for x in r], label="warm-started", color="C0")
        ax.set_title(p)
        ax.set_xlabel("step")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("Newton iterations per step")
    axes[0].legend(fontsize=8)
    fig.suptitle("Prescribed motion (Lopes 2010 Tables 5-6): 200 rotation steps")
    finish(fig, out, "motion", m)
    body = [[r["pair"], r["mode"], g3(r["total_us_median"]), g3(r["us_per_step_median"]),
             g3(r["iterations_mean"]) + " / " + r["iterations_max"], e2(r["max_diff_vs_cold"]),
             e2(r["max_err_vs_fcl_ellipsoid"])] for r in rows]
    md.append("## Experiment 5: prescribed motion (Lopes 2010, Tables 5 and 6)\n\n" + conditions(m) + "\n\n" +
              md_table(["pair", "mode", "total (us)", "us per step", "Newton its mean / max", "max vs cold",
                        "max vs FCL Ellipsoid"], body))


def plot_scaling(out, md):
    rows = read(os.path.join(out, "scaling.csv"))
    th = read(os.path.join(out, "threads.csv"))
    m = meta(out, "scaling")
    n = [num(r["n"]) for r in rows]
    fig, (sa, ta) = plt.subplots(1, 2, figsize=(11, 4.2))
    sa.plot(n, [num(r["collide_ms_median"]) for r in rows], "o-", label="full collision check (all pairs)")
    sa.plot(n, [num(r["distance_ms_median"]) for r in rows], "s-", label="full minimum distance")
    sa.plot(n, [num(r["setup_ms"]) for r in rows], "^:", label="manager setup")
    ref = [num(rows[0]["collide_ms_median"]) * x / n[0] for x in n]
    sa.plot(n, ref, "k--", lw=0.7, label="linear in N")
    sa.set_xscale("log")
    sa.set_yscale("log")
    sa.set_xlabel("superovoids in the scene, N (log)")
    sa.set_ylabel("time (ms, log)")
    sa.set_title("DynamicAABBTree + superovoid callbacks")
    sa.legend(fontsize=8)
    sa.grid(alpha=0.3)
    ns = list(dict.fromkeys(r["n"] for r in th))
    for k, t in enumerate(["1", "2"]):
        vals = [num(next(r["ms_median"] for r in th if r["n"] == x and r["threads"] == t)) for x in ns]
        ta.bar([i + (0.2 if k else -0.2) for i in range(len(ns))], vals, width=0.38, label=t + " thread" + ("s" if k else ""))
    ta.set_xticks(range(len(ns)))
    ta.set_xticklabels(["N={}\n{} pairs".format(x, next(r["pairs"] for r in th if r["n"] == x)) for x in ns], fontsize=8)
    ta.set_yscale("log")
    ta.set_ylabel("batch time (ms, log)")
    ta.set_title("Same batch of narrowphase distances, 1 vs 2 threads")
    ta.legend(fontsize=8)
    finish(fig, out, "scaling", m)
    body = [["{:,}".format(int(num(r["n"]))), g3(r["setup_ms"]), g3(r["collide_ms_median"]), r["colliding_pairs"],
             g3(r["distance_ms_median"]), "yes" if r["brute_force_checked"] == "yes" else "not run"] for r in rows]
    tbody = []
    for x in ns:
        one = next(r for r in th if r["n"] == x and r["threads"] == "1")
        two = next(r for r in th if r["n"] == x and r["threads"] == "2")
        tbody.append(["{:,}".format(int(x)), one["pairs"], g3(one["ms_median"]) + " / " + g3(one["cpu_ms_median"]),
                      g3(two["ms_median"]) + " / " + g3(two["cpu_ms_median"]), "{:.2f}".format(num(two["speedup"]))])
    md.append("## Experiment 7: scaling\n\n" + conditions(m) + "\n\n" +
              md_table(["N", "setup (ms)", "full collision check (ms)", "colliding pairs",
                        "full minimum distance (ms)", "checked by brute force"], body) + "\n\n" +
              md_table(["N", "pairs", "1 thread: wall / CPU (ms)", "2 threads: wall / CPU (ms)", "speed-up"], tbody))


EXPERIMENTS = [
    ("battery.csv", plot_battery),
    ("mesh_resolution.csv", plot_mesh_resolution),
    ("hand.csv", plot_hand),
    ("bite.csv", plot_bite),
    ("motion.csv", plot_motion),
    ("scaling.csv", plot_scaling),
]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    md, status = [], 0
    for csv_name, plot in EXPERIMENTS:
        if not os.path.exists(os.path.join(out, csv_name)):
            print("plot_results: no {}, skipped".format(csv_name))
            continue
        try:
            plot(out, md)
        except (KeyError, ValueError, IndexError, StopIteration) as e:
            print("plot_results: cannot plot {}: {!r}".format(csv_name, e), file=sys.stderr)
            status = 1
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n\n".join(md) + "\n")
    sys.exit(status)


if __name__ == "__main__":
    main()
