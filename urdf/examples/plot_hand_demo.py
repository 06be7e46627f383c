#!/usr/bin/env python3
"""Plots sov_hand_demo's CSV: signed distance against step, for the hand
against the bar and the hand against itself, on the superovoid hand and on
its mesh twin.

    python3 plot_hand_demo.py hand_demo.csv hand_demo.png

Exits with status 3 (and says so) when matplotlib is missing.
"""
import csv
import sys


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: plot_hand_demo.py IN.csv OUT.png\n")
        return 2
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is missing (apt-get install python3-matplotlib): no plot written")
        return 3
    with open(sys.argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    step = [int(r["step"]) for r in rows]

    def mm(key):
        return [1e3 * float(r[key]) for r in rows]

    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(step, mm("object_d"), "o-", color="C0", label="hand vs bar, superovoids")
    ax.plot(step, mm("object_d_mesh"), "s--", color="C0", alpha=0.6,
            label="hand vs bar, mesh twin (FCL)")
    ax.plot(step, mm("self_d"), "o-", color="C1", label="hand vs itself, superovoids")
    ax.plot(step, mm("self_d_mesh"), "s--", color="C1", alpha=0.6,
            label="hand vs itself, mesh twin (FCL)")
    ax.axhline(0.0, color="black", linewidth=0.8)
    ax.set_xlabel("step (open to grasp)")
    ax.set_ylabel("signed distance (mm)")
    ax.set_title("Example hand closing on a bar: nearest distances")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    print("wrote %s" % sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
