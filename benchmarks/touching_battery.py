#!/usr/bin/env python3
"""A touching battery from a distance battery and its reference: each
overlapping pair (reference d < 0) with B moved out along the reference
normal until the gap is g times the smaller body's largest semi-axis, for
each g. Moving B by t >= 0 along the optimal normal raises d by exactly t
(along any other direction v the objective gains t v.n <= t), so the moved
pair's d is the gap; the written reference holds it (witness columns NaN).
Separated pairs are left out: moved in, their d is only bounded. Run
sov_battery on the output to count refusals and errors:

    python3 benchmarks/touching_battery.py ../shared/data/battery_contact.csv \\
        /tmp/touching.csv
    build/benchmarks/sov_battery --in /tmp/touching.csv --out /tmp/r.csv --repeat 1

Row id k * 100 + j: battery row k at the j-th gap.
"""
import argparse
import csv
import math

BODY = 14  # a1 a2 a3 eps1 eps2 tx ty qw qx qy qz px py pz
GAPS = [-1e-12, -1e-13, -1e-14, 0.0, 1e-14, 1e-13, 1e-12, 1e-11]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("battery", help="BATTERY.csv (BATTERY.ref.csv beside it)")
    ap.add_argument("out", help="OUT.csv (OUT.ref.csv is written beside it)")
    ap.add_argument("--gaps", type=float, nargs="+", default=GAPS,
                    help="gaps over the smaller body's largest semi-axis")
    args = ap.parse_args()
    if not args.battery.endswith(".csv") or not args.out.endswith(".csv"):
        ap.error("both files must end in .csv")
    with open(args.battery) as f:
        rows = list(csv.reader(f))
    with open(args.battery[:-4] + ".ref.csv") as f:
        refs = {r[0]: r for r in list(csv.reader(f))[1:]}
    ref_header = "id,d,nx,ny,nz,pAx,pAy,pAz,pBx,pBy,pBz"
    with open(args.out, "w") as out, open(args.out[:-4] + ".ref.csv", "w") as ref_out:
        out.write(",".join(rows[0]) + "\n")
        ref_out.write(ref_header + "\n")
        for row in rows[1:]:
            ref = refs.get(row[0])
            if ref is None or not float(ref[1]) < 0:
                continue
            v = [float(x) for x in row[1:]]
            size = min(max(v[0:3]), max(v[BODY:BODY + 3]))
            d, n = float(ref[1]), [float(x) for x in ref[2:5]]
            for j, g in enumerate(args.gaps):
                gap = g * size
                t = gap - d
                moved = list(v)
                for k in range(3):
                    moved[BODY + 11 + k] = v[BODY + 11 + k] + t * n[k]
                rid = int(row[0]) * 100 + j
                out.write(",".join([str(rid)] + [repr(x) for x in moved]) + "\n")
                ref_out.write(",".join([str(rid), repr(gap)] + [repr(x) for x in n] +
                                       ["nan"] * 6) + "\n")


if __name__ == "__main__":
    main()
