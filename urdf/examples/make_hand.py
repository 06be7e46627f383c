#!/usr/bin/env python3
"""Writes the example hand: hand.urdf (superovoid collision links with
fallback boxes) and hand.srdf (the hand's joint group and its "open" and
"grasp" states), next to this script or into the folder given as argument.

The proportions follow the iCub hand of the benchmark study (finger links
15-28 mm long and 14 mm thick, a 5-link thumb and four 4-link fingers: 21
finger links), rounded; the geometry is our own. Frames: the palm's front
faces +y, the fingers point along +z and flexion joints turn about -x, so
positive angles curl the fingers towards +y, over the palm.

    python3 make_hand.py [OUTDIR]
"""
import math
import os
import sys

# Palm: a flat, boxy superovoid on the wrist, its top edge at z = PALM_TOP.
PALM = (0.036, 0.011, 0.045, 0.3, 0.3, 0.0, 0.0)
PALM_TOP = 2 * PALM[2]
FINGER_RADIUS = 0.007  # 14 mm thick fingers
TIP_RADIUS = 0.0062  # the tapered tips' widest slice stays within 14 mm

# Long fingers: base x on the palm's top edge, then link lengths (metacarpal
# knuckle, proximal, middle, distal).
FINGERS = [
    ("index", 0.0255, (0.015, 0.026, 0.022, 0.018)),
    ("middle", 0.0085, (0.015, 0.028, 0.024, 0.018)),
    ("ring", -0.0085, (0.015, 0.026, 0.022, 0.018)),
    ("little", -0.0255, (0.015, 0.022, 0.019, 0.016)),
]
# Thumb: base on the palm's front edge, direction of its first link, the
# point it curls towards, and five link lengths.
THUMB_BASE = (0.03, 0.012, 0.02)
THUMB_DIR = (0.55, 0.45, 0.70)
THUMB_TARGET = (-0.01, 0.05, 0.09)
THUMB_LENGTHS = (0.010, 0.016, 0.021, 0.020, 0.018)

# Joint states for hand.srdf: flexion angles of the grasp (radians).
GRASP_FINGER = (0.0, 0.84, 0.66, 0.4)  # spread, proximal, middle, distal
GRASP_THUMB = (0.3, 0.35, 0.45, 0.5, 0.4)


def link_params(length, tip):
    """Superovoid of a finger link of the given length, centred on its axis:
    round cross-sections, a flat-sided profile; the fingertip tapers."""
    if tip:
        r = TIP_RADIUS
        return (r, r, length / 2, 1.0, 0.7, -0.3, -0.3)
    return (FINGER_RADIUS, FINGER_RADIUS, length / 2, 1.0, 0.5, 0.0, 0.0)


def half_width(a, eps2, taper):
    """Largest half-width of the body along one axis: the maximum over
    s = z/a3 of the slice half-width a (1 + taper s) (1 - |s|^(2/eps2))^(eps2/2),
    on a grid, then by golden-section search around the best grid point."""

    def width(s):
        c = max(0.0, 1.0 - abs(s) ** (2.0 / eps2)) ** (eps2 / 2.0)
        return a * (1.0 + taper * s) * c

    n = 2000
    i = max(range(-n, n + 1), key=lambda k: width(k / n))
    lo, hi = max(-1.0, (i - 1) / n), min(1.0, (i + 1) / n)
    g = (math.sqrt(5) - 1) / 2
    for _ in range(100):
        m1, m2 = hi - g * (hi - lo), lo + g * (hi - lo)
        if width(m1) < width(m2):
            lo = m1
        else:
            hi = m2
    return max(width(i / n), width((lo + hi) / 2))


def up6(x):
    """x rounded up to 6 significant digits (boxes must enclose)."""
    e = math.floor(math.log10(x)) - 5
    q = x / 10.0**e
    digits = round(q) if abs(q - round(q)) < 1e-6 else math.ceil(q)  # exact stays exact
    return digits / 10.0 ** (-e)


def num(x):
    """Shortest decimal for x at 6 significant digits, -0 written as 0."""
    s = "%.6g" % x
    return "0" if s in ("-0", "0") else s


def fallback_box(p):
    """Size of a box that encloses superovoid p about its origin (its widths
    rounded up; the slices are symmetric, so only |taper| matters)."""
    a1, a2, a3, _, eps2, tx, ty = p
    wx = half_width(a1, eps2, abs(tx))
    wy = half_width(a2, eps2, abs(ty))
    return (up6(2 * wx), up6(2 * wy), up6(2 * a3))


def collision(name, xyz, p):
    box = " ".join(num(v) for v in fallback_box(p))
    a1, a2, a3, e1, e2, tx, ty = (num(v) for v in p)
    taper = ""
    if p[5] or p[6]:
        taper = '\n                        taper_x="%s" taper_y="%s"' % (tx, ty)
    return (
        '    <collision name="%s">\n'
        '      <origin xyz="%s" rpy="0 0 0"/>\n'
        "      <geometry>\n"
        '        <box size="%s"/>\n'
        '        <sov:superovoid a1="%s" a2="%s" a3="%s" eps1="%s" eps2="%s"%s/>\n'
        "      </geometry>\n"
        "    </collision>\n" % (name, " ".join(num(v) for v in xyz), box, a1, a2, a3, e1, e2, taper)
    )


def link(name, body):
    return '  <link name="%s">\n%s  </link>\n' % (name, body)


def joint(name, kind, parent, child, xyz, rpy=(0, 0, 0), axis=None, limits=None):
    out = '  <joint name="%s" type="%s">\n' % (name, kind)
    out += '    <parent link="%s"/>\n    <child link="%s"/>\n' % (parent, child)
    out += '    <origin xyz="%s" rpy="%s"/>\n' % (
        " ".join(num(v) for v in xyz),
        " ".join(num(v) for v in rpy),
    )
    if axis:
        out += '    <axis xyz="%s"/>\n' % axis
    if limits:
        out += '    <limit lower="%s" upper="%s" effort="1" velocity="2"/>\n' % (
            num(limits[0]),
            num(limits[1]),
        )
    return out + "  </joint>\n"


def normalize(v):
    n = math.sqrt(sum(c * c for c in v))
    return tuple(c / n for c in v)


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def thumb_rpy():
    """URDF rpy (R = Rz(yaw) Ry(pitch) Rx(roll)) of the thumb base frame: z
    along THUMB_DIR, y towards THUMB_TARGET (the flexion side)."""
    z = normalize(THUMB_DIR)
    d = tuple(t - b for t, b in zip(THUMB_TARGET, THUMB_BASE))
    dz = sum(a * b for a, b in zip(d, z))
    y = normalize(tuple(a - dz * b for a, b in zip(d, z)))
    x = cross(y, z)
    # Columns x, y, z; R[2][0] = -sin(pitch).
    pitch = math.asin(-x[2])
    roll = math.atan2(y[2], z[2])
    yaw = math.atan2(x[1], x[0])
    return (roll, pitch, yaw)


def finger_chain(name, base_xyz, base_rpy, lengths, joint_names, axes, limits):
    """Links and joints of one finger: link i hangs on joint i at the tip of
    link i - 1 (the first on the palm at base_xyz, base_rpy)."""
    links, joints = "", ""
    parent = "palm"
    for i, length in enumerate(lengths):
        child = "%s_%d" % (name, i)
        tip = i == len(lengths) - 1
        p = link_params(length, tip)
        links += link(child, collision(child, (0, 0, length / 2), p))
        if i == 0:
            xyz, rpy = base_xyz, base_rpy
        else:
            xyz, rpy = (0, 0, lengths[i - 1]), (0, 0, 0)
        joints += joint(joint_names[i], "revolute", parent, child, xyz, rpy, axes[i], limits[i])
        parent = child
    return links, joints


def finger_joint_names(name):
    return ["%s_%s" % (name, j) for j in ("spread", "proximal", "middle", "distal")]


def thumb_joint_names():
    return ["thumb_%s" % j for j in ("rotation", "base", "proximal", "middle", "distal")]


def urdf():
    links = link(
        "forearm",
        '    <collision name="wrist">\n'
        '      <origin xyz="0 0 -0.03" rpy="0 0 0"/>\n'
        "      <geometry>\n"
        '        <cylinder radius="0.024" length="0.06"/>\n'
        "      </geometry>\n"
        "    </collision>\n",
    )
    links += link("palm", collision("palm", (0, 0, PALM[2]), PALM))
    joints = joint("wrist", "fixed", "forearm", "palm", (0, 0, 0))
    flexion = "-1 0 0"
    for name, x, lengths in FINGERS:
        l, j = finger_chain(
            name,
            (x, 0, PALM_TOP),
            (0, 0, 0),
            lengths,
            finger_joint_names(name),
            ["0 1 0", flexion, flexion, flexion],
            [(-0.15, 0.15), (-0.1, 1.6), (0, 1.6), (0, 1.4)],
        )
        links += l
        joints += j
    l, j = finger_chain(
        "thumb",
        THUMB_BASE,
        thumb_rpy(),
        THUMB_LENGTHS,
        thumb_joint_names(),
        ["0 0 1", flexion, flexion, flexion, flexion],
        [(-0.6, 0.6), (-0.2, 1.0), (0, 1.2), (0, 1.2), (0, 1.2)],
    )
    links += l
    joints += j
    return (
        '<?xml version="1.0"?>\n'
        "<!-- The example hand of superovoid::urdf: a palm on a cylinder wrist,\n"
        "     four 4-link fingers and a 5-link thumb, every finger link a\n"
        "     superovoid (fingertips tapered) after a fallback box. Written by\n"
        "     make_hand.py: edit that script, not this file. -->\n"
        '<robot name="sov_hand" xmlns:sov="urn:superovoid:urdf:1">\n'
        + links
        + joints
        + "</robot>\n"
    )


def adjacent_links():
    """(parent, child) of every joint, in the order urdf() writes them."""
    pairs = [("forearm", "palm")]
    chains = [(name, len(lengths)) for name, _, lengths in FINGERS] + [("thumb", len(THUMB_LENGTHS))]
    for name, n in chains:
        links = ["palm"] + ["%s_%d" % (name, i) for i in range(n)]
        pairs += list(zip(links, links[1:]))
    return pairs


def srdf():
    names, grasp = [], []
    for name, _, _ in FINGERS:
        names += finger_joint_names(name)
        grasp += GRASP_FINGER
    names += thumb_joint_names()
    grasp += GRASP_THUMB

    def state(state_name, values):
        out = '  <group_state name="%s" group="hand">\n' % state_name
        for n, v in zip(names, values):
            out += '    <joint name="%s" value="%s"/>\n' % (n, num(v))
        return out + "  </group_state>\n"

    group = '  <group name="hand">\n'
    group += "".join('    <joint name="%s"/>\n' % n for n in names)
    group += "  </group>\n"
    disabled = "".join(
        '  <disable_collisions link1="%s" link2="%s" reason="Adjacent"/>\n' % pair
        for pair in adjacent_links()
    )
    return (
        '<?xml version="1.0"?>\n'
        "<!-- Semantic description of the example hand (MoveIt's SRDF): the hand\n"
        "     group, its open and grasp states, and the adjacent links (parent and\n"
        "     child of a joint), which are never checked. Written by make_hand.py. -->\n"
        '<robot name="sov_hand">\n'
        + group
        + state("open", [0.0] * len(names))
        + state("grasp", grasp)
        + disabled
        + "</robot>\n"
    )


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for name, text in (("hand.urdf", urdf()), ("hand.srdf", srdf())):
        with open(os.path.join(outdir, name), "w", newline="\n") as f:
            f.write(text)


if __name__ == "__main__":
    main()
