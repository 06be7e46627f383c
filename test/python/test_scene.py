"""The robot scene from Python matches C++: the same configurations and
obstacles through superovoid.Scene and through sov-query (the C++ scene,
%.17g distances) give the same pairs, distances to the last bit, witness
points and normals to the digits printed; scene errors are UrdfError and
SceneError with the C status, file, line and name."""
import math
import os
import pickle
import subprocess

import numpy as np
import pytest

import superovoid as sov

pytestmark = pytest.mark.skipif(not sov.HAVE_SCENE, reason="built without the URDF and FCL layers")

URDF_DATA = os.environ.get("SOV_URDF_TEST_DATA_DIR", "")
EXAMPLES = os.environ.get("SOV_URDF_EXAMPLES_DIR", "")
# sov-query prints witness points with 9 decimals and normals with 6.
POINT_DIGITS_TOL = 1e-9
NORMAL_DIGITS_TOL = 1e-6

H = math.sqrt(0.5)
CASES = [
    dict(urdf=os.path.join(EXAMPLES, "hand.urdf"), srdf=os.path.join(EXAMPLES, "hand.srdf"),
         joints=dict(index_proximal=1.2, index_middle=1.4, index_distal=1.2, thumb_rotation=0.5,
                     thumb_proximal=0.9),
         obstacles=[("sphere 0.02", [0, 0.03, 0.12], None),
                    ("superovoid 0.014 0.014 0.05 1 0.3", [0, 0.02, 0.14], [H, 0, H, 0])],
         margin=0.01),
    dict(urdf=os.path.join(URDF_DATA, "mesh_arm.urdf"), srdf=None,
         joints=dict(shoulder=0.5, elbow=1.9, wrist=-0.8),
         obstacles=[("box 0.1 0.1 0.1", [0.2, 0.1, 0.3], None),
                    ("cylinder 0.03 0.2", [0.05, 0.0, 0.1], None)],
         margin=0.05),
]


def obstacle(text, p, q):
    """The Python obstacle of a sov-query --obstacle text."""
    kind, *v = text.split()
    v = [float(x) for x in v]
    X = sov.Pose(p, q)
    if kind == "sphere":
        return sov.Obstacle.sphere(v[0], X)
    if kind == "box":
        return sov.Obstacle.box(v, X)
    if kind == "cylinder":
        return sov.Obstacle.cylinder(v[0], v[1], X)
    return sov.Obstacle.superovoid(sov.Shape(v), X)


def cpp_rows(case):
    """sov-query's table: rows (kind, link1, c1, link2, c2, d, p1, p2, normal) and the last line."""
    cmd = [os.environ["SOV_QUERY"], "--urdf", case["urdf"], "--margin", repr(case["margin"]),
           "--joints", ",".join(f"{k}={v!r}" for k, v in case["joints"].items())]
    if case["srdf"]:
        cmd += ["--srdf", case["srdf"]]
    for text, p, q in case["obstacles"]:
        cmd += ["--obstacle", f"{text} @ " + " ".join(repr(float(x)) for x in list(p) + list(q or []))]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()
    rows = []
    for line in out:
        f = line.split()
        if f and f[0] in ("self-min", "self", "env-min", "env"):
            nums = [float(x) for x in f[5:]]
            rows.append((f[0], f[1], int(f[2]), f[3], int(f[4]), nums[0], nums[1:4], nums[4:7], nums[7:10]))
    return rows, out[-1]


def python_rows(case):
    """The same queries in sov-query's order, through superovoid.Scene."""
    scene = sov.Scene(case["urdf"], srdf=case["srdf"])
    scene.set_joint_positions(case["joints"])
    env = [obstacle(*o) for o in case["obstacles"]]
    rows = []
    d = scene.self_distance()
    rows.append(("self-min", d.link1, d.collision1, d.link2, d.collision2, d.distance, d.p1, d.p2, []))
    for c in scene.self_contacts(case["margin"]):
        rows.append(("self", c.link1, c.collision1, c.link2, c.collision2, c.distance, c.p1, c.p2, c.normal))
    e = scene.distance(env)
    rows.append(("env-min", e.link1, e.collision1, "obstacle", e.collision2, e.distance, e.p1, e.p2, []))
    for c in scene.contacts(env, case["margin"]):
        rows.append(("env", c.link1, c.collision1, "obstacle", c.collision2, c.distance, c.p1, c.p2, c.normal))
    pairs = scene.self_collision_pairs()
    last = (f"collision self: {'yes' if pairs else 'no'} ({len(pairs)} link pairs), "
            f"environment: {'yes' if scene.collision(env) else 'no'}")
    return rows, last


@pytest.mark.parametrize("case", CASES, ids=["hand", "mesh_arm"])
def test_scene_from_python_matches_cpp(case):
    cpp, cpp_last = cpp_rows(case)
    py, py_last = python_rows(case)
    assert len(cpp) == len(py) > 3
    for c, p in zip(cpp, py):
        assert c[:5] == p[:5]
        assert c[5] == p[5], f"{c[:5]}: distance {c[5]!r} != {p[5]!r}"
        assert np.allclose(c[6], p[6], rtol=0, atol=POINT_DIGITS_TOL)
        assert np.allclose(c[7], p[7], rtol=0, atol=POINT_DIGITS_TOL)
        assert np.allclose(c[8], p[8], rtol=0, atol=NORMAL_DIGITS_TOL)
    assert cpp_last == py_last


def test_scene_state_and_kinematics():
    scene = sov.Scene(os.path.join(EXAMPLES, "hand.urdf"))
    report = scene.load_srdf(os.path.join(EXAMPLES, "hand.srdf"))
    assert report == {"disabled": 22, "enabled": 0, "skipped": []}
    assert "palm" in scene.link_names() and len(scene.geometries()) == 23
    scene.set_joint_positions({"index_proximal": 0.4})
    assert scene.joint_positions["index_proximal"] == 0.4
    T = scene.link_pose("index_1")
    assert T.shape == (4, 4) and np.allclose(T[:3, :3] @ T[:3, :3].T, np.eye(3))
    assert not scene.self_collision()
    scene.allow_collision("palm", "index_3")
    assert scene.is_collision_allowed("palm", "index_3")
    scene.allow_collision("palm", "index_3", allowed=False)
    assert not scene.is_collision_allowed("palm", "index_3")
    assert scene.cache_count > 0
    scene.reset_caches()
    assert scene.cache_count == 0
    xml = open(os.path.join(EXAMPLES, "hand.urdf")).read()
    same = sov.Scene(xml=xml, source_name="hand.urdf")
    assert same.link_names() == scene.link_names()


def test_package_folders_are_taken_from_the_current_directory(tmp_path, monkeypatch):
    # A relative folder in packages= is the script's, from the current
    # directory, as the tools take --package; it was joined to the URDF's
    # folder instead (found on a new robot by a helper).
    urdf = tmp_path / "arm.urdf"
    urdf.write_text('<robot name="r"><link name="a"><collision><geometry>'
                    '<mesh filename="package://arm/meshes/prism.obj"/>'
                    '</geometry></collision></link></robot>\n')
    monkeypatch.chdir(os.path.dirname(os.path.abspath(URDF_DATA)))
    relative = os.path.basename(os.path.abspath(URDF_DATA))
    scene = sov.Scene(str(urdf), packages={"arm": relative})
    assert len(scene.geometries()) == 1


def test_scene_errors_carry_status_file_line_and_name():
    hand = os.path.join(EXAMPLES, "hand.urdf")
    scene = sov.Scene(hand)
    with pytest.raises(sov.SceneError) as e:
        scene.set_joint_positions({"index_mcp": 0.3})
    assert e.value.status == -201 and e.value.name == "index_mcp"
    assert isinstance(e.value, sov.UrdfError) and isinstance(e.value, sov.Error)
    with pytest.raises(sov.SceneError) as e:
        scene.set_joint_positions({"thumb_rotation": 0.8})
    assert e.value.status == -201 and e.value.name == "thumb_rotation"
    assert e.value.source.endswith("hand.urdf") and e.value.line > 0
    assert "outside its limits" in str(e.value)
    with pytest.raises(sov.SceneError) as e:
        scene.link_pose("no_such_link")
    assert e.value.status == -202
    with pytest.raises(sov.UrdfError) as e:
        sov.Scene("/nonexistent/robot.urdf")
    assert e.value.status == -102
    with pytest.raises(sov.UrdfError) as e:
        sov.Scene(xml="<robot name='r'><link name='a'>", source_name="broken.urdf")
    assert e.value.status == -101 and e.value.source == "broken.urdf"
    with pytest.raises(sov.UrdfError) as e:
        sov.Scene(os.path.join(URDF_DATA, "bad_eps1.urdf"))
    assert e.value.status == sov.ERR_EXPONENT and e.value.attribute == "eps1" and e.value.line > 0
    # The place survives pickling (a multiprocessing pool's way back): it
    # once came back empty.
    copy = pickle.loads(pickle.dumps(e.value))
    assert type(copy) is sov.UrdfError and copy.status == sov.ERR_EXPONENT
    assert (copy.source, copy.line, copy.link, copy.attribute) == \
        (e.value.source, e.value.line, e.value.link, e.value.attribute)
    with pytest.raises(sov.SceneError) as e:
        scene.link_pose("no_such_link")
    copy = pickle.loads(pickle.dumps(e.value))
    assert type(copy) is sov.SceneError and copy.name == e.value.name == "no_such_link"
    assert str(copy) == str(e.value)
    with pytest.raises(sov.Error) as e:
        sov.Obstacle.sphere(-1.0)
    assert e.value.status == sov.ERR_SIZE
    with pytest.raises(ValueError):
        sov.Scene()
