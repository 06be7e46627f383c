"""Fitting from Python: fit_urdf is sov-urdf-fit's fitting (the same URDF
text, byte for byte); fit_superovoid contains every point; errors carry the
C status, file, line and link."""
import os
import subprocess

import numpy as np
import pytest

import superovoid as sov

pytestmark = pytest.mark.skipif(not sov.HAVE_FIT, reason="built without superovoid::fit (qhull)")

FIT_DATA = os.environ.get("SOV_FIT_TEST_DATA_DIR", "")
TWO_LINK = os.path.join(FIT_DATA, "two_link.urdf")


def moved(text, folder):
    """text as a file in folder holds it: its relative mesh file named from
    there (the fixture's one mesh, l_link.obj)."""
    there = os.path.relpath(os.path.join(FIT_DATA, "l_link.obj"), folder)
    return text.replace('filename="l_link.obj"', 'filename="%s"' % there)


def test_fit_urdf_is_the_tools_fitting(tmp_path):
    tool_out = tmp_path / "tool.urdf"
    subprocess.run([os.environ["SOV_URDF_FIT"], TWO_LINK, str(tool_out), "--starts", "1"],
                   check=True, capture_output=True)
    calls = []
    text, fits = sov.fit_urdf(TWO_LINK, refined_starts=1, progress=calls.append)
    assert "l_link.obj" in text and moved(text, tmp_path) != text
    assert moved(text, tmp_path) == tool_out.read_text()
    assert [(c["index"], c["count"], c["link"]) for c in calls] == [(0, 2, "base"), (1, 2, "arm")]
    assert [(f.link, f.collision) for f in fits] == [("base", 0), ("arm", 0)]
    assert all(f.fit.volume_ratio >= 1 and f.fit.max_F <= 0 for f in fits)
    # One mesh at a time gives the same text (the default fits on every core).
    assert sov.fit_urdf(TWO_LINK, refined_starts=1, threads=1)[0] == text
    with pytest.raises(sov.Error) as e:
        sov.fit_urdf(TWO_LINK, threads=-1)
    assert e.value.status == sov.ERR_OPTION
    written = tmp_path / "written.urdf"
    empty, again = sov.fit_urdf(TWO_LINK, written, refined_starts=1)
    assert empty == "" and written.read_text() == moved(text, tmp_path) and len(again) == 2
    # The fitted URDF loads as a scene.
    if sov.HAVE_SCENE:
        assert sov.Scene(xml=text, mesh_directory=FIT_DATA).self_distance().distance > 0


def test_fit_urdf_unions_are_the_tools_unions(tmp_path):
    tool_out = tmp_path / "tool.urdf"
    subprocess.run([os.environ["SOV_URDF_FIT"], TWO_LINK, str(tool_out), "--starts", "1",
                    "--max-bodies", "3", "--target-ratio", "1.05"], check=True, capture_output=True)
    text, fits = sov.fit_urdf(TWO_LINK, refined_starts=1, max_bodies=3, target_ratio=1.05)
    assert moved(text, tmp_path) == tool_out.read_text()
    _, single = sov.fit_urdf(TWO_LINK, refined_starts=1)
    assert any(len(f.union.bodies) > 1 for f in fits)
    for f, one in zip(fits, single):
        u = f.union
        assert 1 <= len(u.bodies) <= 3 and isinstance(u.bodies[0], sov.FitResult)
        assert u.volume_ratio <= one.fit.volume_ratio and u.gap >= 0 and u.hull_volume > 0
        assert u.bodies[0].params == f.fit.params
    # Each body of a union is a <collision> of its link: the scene holds them all.
    if sov.HAVE_SCENE:
        scene = sov.Scene(xml=text, mesh_directory=FIT_DATA)
        assert scene.self_distance().distance > 0
    # The tool's limits are the library's: Python refuses what sov-urdf-fit does.
    for bad in ({"max_bodies": 0}, {"max_bodies": 65}, {"max_bodies": 2, "target_ratio": 0.5}):
        with pytest.raises(sov.Error) as e:
            sov.fit_urdf(TWO_LINK, **bad)
        assert e.value.status == sov.ERR_OPTION


def test_fit_superovoid_contains_every_point():
    truth = sov.Shape(0.3, 0.2, 0.5, 0.6, 0.8, 0.2, 0.2)
    local, _ = truth.tessellate(8, 16)
    X = sov.Pose([0.1, -0.2, 0.3], [0.9, 0.1, -0.3, 0.2] / np.linalg.norm([0.9, 0.1, -0.3, 0.2]))
    points = local @ X.R.T + X.p
    f = sov.fit_superovoid(points, refined_starts=1, gap_directions=500)
    assert isinstance(f, sov.FitResult) and isinstance(f.shape, sov.Shape)
    assert f.points == len(points) and f.hull_vertices <= len(points)
    assert isinstance(f.params, tuple) and f.params == f.shape.params  # as the stubs say
    assert 1 <= f.volume_ratio and f.volume <= truth.volume() * 1.01 and f.gap >= 0
    for x in points:
        F, _, _ = f.shape.implicit(f.pose.R.T @ (x - f.pose.p))
        assert F <= 0


def test_fit_errors_carry_status_and_place():
    with pytest.raises(sov.UrdfError) as e:
        sov.fit_superovoid(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0.0]]))
    assert e.value.status == -103  # SOV_URDF_ERR_MODEL: a flat set
    with pytest.raises(sov.Error) as e:
        sov.fit_superovoid(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, np.nan]]))
    assert e.value.status == sov.ERR_NONFINITE
    with pytest.raises(sov.UrdfError) as e:
        sov.fit_urdf(TWO_LINK, links=["no_such_link"])
    assert e.value.source == TWO_LINK and e.value.line > 0 and "no_such_link" in str(e.value)
    with pytest.raises(sov.UrdfError) as e:
        sov.fit_urdf("/nonexistent.urdf")
    assert e.value.status == -102
    with pytest.raises(ValueError):
        sov.fit_superovoid(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="real numbers expected"):
        sov.fit_superovoid(np.eye(4, 3, dtype=complex))

    def stop(progress):
        raise KeyError("stop")

    with pytest.raises(KeyError):
        sov.fit_urdf(TWO_LINK, refined_starts=1, progress=stop)


def test_load_mesh():
    v, t = sov.load_mesh(os.path.join(FIT_DATA, "l_link.obj"), [2, 2, 2])
    assert v.shape[1] == 3 and t.shape[1] == 3 and t.max() < len(v)
    with pytest.raises(sov.UrdfError) as e:
        sov.load_mesh("/nonexistent.stl")
    assert e.value.status == -102
