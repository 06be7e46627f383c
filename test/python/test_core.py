"""Single pairs from Python: shapes, poses, distance, collide, caches, and
every kind of failure as a superovoid.Error carrying the C status."""
import math
import os
import pickle

import numpy as np
import pytest

import superovoid as sov

# Closed-form answers (spheres) are met to the SPEC's accuracy.
CLOSED_FORM_TOL = 1e-9


def test_spheres_match_closed_form():
    a = sov.Shape(1, 1, 1, 1, 1)
    b = sov.Shape(0.5, 0.5, 0.5, 1, 1)
    r = sov.distance(a, sov.Pose(), b, sov.Pose([3, 0, 0]))
    assert isinstance(r, sov.Result)
    assert abs(r.d - 1.5) < CLOSED_FORM_TOL
    assert np.allclose(r.n, [1, 0, 0], atol=CLOSED_FORM_TOL)
    assert np.allclose(r.p_a, [1, 0, 0], atol=CLOSED_FORM_TOL)
    assert np.allclose(r.p_b, [2.5, 0, 0], atol=CLOSED_FORM_TOL)
    assert r.method == "auto" and r.iterations >= 0
    overlap = sov.distance(a, sov.Pose(), b, sov.Pose([1.0, 0, 0]))
    assert abs(overlap.d + 0.5) < CLOSED_FORM_TOL
    assert sov.collide(a, sov.Pose(), b, sov.Pose([1.0, 0, 0]))
    assert not sov.collide(a, sov.Pose(), b, sov.Pose([3.0, 0, 0]))


def test_shape_reads_back_the_c_library():
    s = sov.Shape(0.5, 0.4, 0.7, 0.8, 1.0, 0.3, 0.3)
    assert s.params == (0.5, 0.4, 0.7, 0.8, 1.0, 0.3, 0.3)
    lo, hi = s.aabb
    assert np.all(lo < 0) and np.all(hi > 0) and s.radius > 0.7
    assert s.dent == 0
    v, com, inertia = s.mass()
    assert v == pytest.approx(s.volume()) and inertia.shape == (3, 3)
    x, h = s.support([0, 0, 1])
    assert h == pytest.approx(0.7) and x.shape == (3,)
    F, grad, hess = s.implicit([0, 0, 0])
    assert F == pytest.approx(-1) and hess.shape == (3, 3)
    verts, tris = s.tessellate(4, 8)
    assert verts.shape == (8 * 3 + 2, 3) and tris.shape == (2 * 8 * 3, 3)
    assert pickle.loads(pickle.dumps(s)).params == s.params
    status, why = sov.Shape.explain([1, 1, 1, 1, 1.9, 0.5, 0.5])
    assert status == sov.ERR_NONCONVEX and "taper" in why
    assert 0 < sov.Shape.max_taper_scale([1, 1, 1, 1, 1.9, 0.5, 0.5]) < 1


def test_poses_from_quaternion_and_matrix_agree():
    c, s = math.cos(0.3), math.sin(0.3)
    q = [math.cos(0.15), 0, 0, math.sin(0.15)]
    R = [[c, -s, 0], [s, c, 0], [0, 0, 1]]
    X = sov.Pose.from_quat(q, [1, 2, 3])
    Y = sov.Pose.from_matrix(np.array(R), [1, 2, 3])
    T = np.eye(4)
    T[:3, :3] = R
    T[:3, 3] = [1, 2, 3]
    Z = sov.Pose.from_matrix(T)
    assert np.allclose(X.R, R, atol=1e-15) and np.allclose(Y.R, R) and np.allclose(Z.matrix(), T)
    assert np.array_equal(sov.Pose([1, 2, 3], q).R, X.R)
    assert np.array_equal(pickle.loads(pickle.dumps(X)).matrix(), X.matrix())


def test_pickled_poses_keep_their_bits():
    # Unpickling made the matrix orthonormal again, which moved R's last bits
    # and an answer by 1e-16.
    rng = np.random.default_rng(5)
    a = sov.Shape(0.8, 0.5, 0.3, 0.4, 1.3, 0.2, -0.1)
    for _ in range(50):
        q = rng.normal(size=4)
        X = sov.Pose(rng.normal(size=3), q / np.linalg.norm(q))
        Y = pickle.loads(pickle.dumps(X))
        assert np.array_equal(Y.R, X.R) and np.array_equal(Y.p, X.p)
        assert sov.distance(a, X, a, sov.Pose()).d == sov.distance(a, Y, a, sov.Pose()).d


def test_arrays_of_other_numbers_are_refused():
    # forcecast took them: imaginary parts dropped, strings parsed.
    s = sov.Shape(1, 1, 1, 1, 1)
    for bad in (lambda: sov.Pose(np.array([1j, 0, 0])),
                lambda: sov.Pose(np.array(["1", "2", "3"])),
                lambda: sov.Pose([0, 0, 0], np.array([1 + 5j, 0, 0, 0])),
                lambda: sov.Pose.from_matrix(np.eye(4, dtype=complex)),
                lambda: sov.Pose.from_matrix(np.eye(3, dtype=complex), [0, 0, 0]),
                lambda: sov.Shape(np.array([1, 1, 1, 1, 1], dtype=complex)),
                lambda: sov.Shape(["1", "1", "1", "1", "1"]),
                lambda: s.support(np.array([1j, 1, 0]))):
        with pytest.raises(ValueError, match="real numbers expected"):
            bad()
    # Integers are real numbers.
    assert sov.Shape(np.array([1, 1, 1, 1, 1])).params == s.params
    assert np.array_equal(sov.Pose(np.array([1, 2, 3])).p, [1, 2, 3])


def test_options_and_caches():
    a = sov.Shape(0.8, 0.5, 0.3, 1.0, 1.0)
    b = sov.Shape(0.5, 0.4, 0.7, 0.8, 1.0, 0.3, 0.3)
    XB = sov.Pose([1.5, 0.2, 0])
    o = sov.Options(method="implicit", seed="centers", tolerance=1e-10, max_iterations=30)
    assert (o.method, o.seed, o.tolerance, o.max_iterations, o.certify) == ("implicit", "centers", 1e-10, 30, True)
    r = sov.distance(a, sov.Pose(), b, XB, o)
    assert r.method == "implicit"
    cache = sov.Cache()
    assert not cache.valid
    cold = sov.distance(a, sov.Pose(), b, XB, cache=cache)
    assert cache.valid
    warm = sov.distance(a, sov.Pose(), b, XB, cache=cache)
    assert abs(warm.d - cold.d) < 1e-12
    cache.reset()
    assert not cache.valid


@pytest.mark.parametrize(
    "params, status",
    [
        ([-1, 1, 1, 1, 1], sov.ERR_SIZE),
        ([1, 1, 1, 2.5, 1], sov.ERR_EXPONENT),
        ([1, 1, 1, 1, 1, 1.5, 0], sov.ERR_TAPER),
        ([1, 1, 1, 1, 1.9, 0.5, 0.5], sov.ERR_NONCONVEX),
        ([1, 1, float("nan"), 1, 1], sov.ERR_NONFINITE),
    ],
)
def test_invalid_shapes_raise_their_status(params, status):
    with pytest.raises(sov.Error) as e:
        sov.Shape(*params)
    assert e.value.status == status
    assert "invalid shape" in str(e.value) and e.value.message == str(e.value)


def test_pose_and_option_errors_raise_their_status():
    with pytest.raises(sov.Error) as e:
        sov.Pose.from_quat([1, 1, 0, 0], [0, 0, 0])
    assert e.value.status == sov.ERR_QUATERNION
    assert sov.status_string(sov.ERR_QUATERNION) in str(e.value)
    with pytest.raises(sov.Error) as e:
        sov.Pose.from_matrix(np.eye(3) * 2, [0, 0, 0])
    assert e.value.status == sov.ERR_ROTATION
    with pytest.raises(sov.Error) as e:
        sov.Pose([0, float("inf"), 0])
    assert e.value.status == sov.ERR_NONFINITE
    with pytest.raises(sov.Error) as e:
        sov.Options(method="newton")
    assert e.value.status == sov.ERR_OPTION
    a = sov.Shape(1, 1, 1, 1, 1)
    with pytest.raises(sov.Error) as e:
        sov.distance(a, sov.Pose(), a, sov.Pose([3, 0, 0]), sov.Options(tolerance=-1))
    assert e.value.status == sov.ERR_OPTION
    with pytest.raises(ValueError):
        sov.Pose([0, 0])
    # A transposed transform has its translation in the last row: refused
    # (it was once read as a pose at the origin).
    T = sov.Pose([1.0, 2.0, 3.0]).matrix()
    with pytest.raises(sov.Error) as e:
        sov.Pose.from_matrix(T.T)
    assert e.value.status == sov.ERR_ROTATION and "0 0 0 1" in str(e.value)
    assert np.array_equal(sov.Pose.from_matrix(T).p, [1.0, 2.0, 3.0])
    # Mistyped option values are TypeErrors naming the option (pybind11's
    # cast raised a RuntimeError naming nothing); past the C int, ValueError.
    for kwargs in ({"tolerance": "1e-9"}, {"max_iterations": 1.5}):
        with pytest.raises(TypeError, match=next(iter(kwargs))):
            sov.Options(**kwargs)
    with pytest.raises(ValueError, match="max_iterations"):
        sov.Options(max_iterations=2 ** 31)
    assert sov.Options(tolerance=np.float32(1e-6), max_iterations=np.int64(7)).max_iterations == 7
    # A study method seeded from an absent cache: refused by both queries.
    o = sov.Options(method="implicit", seed="cache")
    for query in (sov.distance, sov.collide):
        with pytest.raises(sov.Error) as e:
            query(a, sov.Pose(), a, sov.Pose([3, 0, 0]), options=o)
        assert e.value.status == sov.ERR_OPTION


def test_non_convergence_is_an_error_not_an_answer():
    # A study method capped at one iteration cannot converge from its seed.
    a = sov.Shape(0.8, 0.5, 0.3, 0.4, 1.6)
    b = sov.Shape(0.5, 0.4, 0.7, 1.7, 0.3)
    o = sov.Options(method="parametric", max_iterations=1, certify=False)
    with pytest.raises(sov.Error) as e:
        sov.distance(a, sov.Pose(), b, sov.Pose([0.9, 0.4, 0.2]), o)
    assert e.value.status in (sov.ERR_NO_CONVERGENCE, sov.ERR_SINGULAR, sov.ERR_SPURIOUS)
    assert isinstance(e.value, RuntimeError)


def test_status_strings_and_version():
    assert sov.status_string(sov.OK) == "success"
    assert sov.status_string(sov.ERR_INDEX).startswith("a shape index")
    assert sov.version() == sov.__version__
    assert sov.METHODS == ("auto", "implicit", "parametric", "ntb")


def test_type_stubs_declare_every_public_name():
    import ast
    import inspect

    import superovoid._superovoid as ext

    stub = os.path.join(os.path.dirname(ext.__file__), "_superovoid.pyi")
    declared = {}
    for node in ast.parse(open(stub).read()).body:
        if isinstance(node, ast.ClassDef):
            declared[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
        elif isinstance(node, ast.FunctionDef):
            declared[node.name] = set()
        elif isinstance(node, ast.AnnAssign):
            declared[node.target.id] = set()
    public = [n for n in dir(ext) if not n.startswith("_") or n == "__version__"]
    assert not [n for n in public if n not in declared], "names missing from _superovoid.pyi"
    for name in public:
        obj = getattr(ext, name)
        if inspect.isclass(obj):
            have = {m for m in dir(obj) if not m.startswith("_")}
            assert have <= declared[name], f"{name}: {sorted(have - declared[name])} not in the stub"


def test_queries_run_on_a_small_thread_stack():
    # Identical bodies at one pose: only the core's global search settles the
    # depth. Without work memory its polytope takes about 194 KB of stack;
    # distance and collide pass the thread's own (superovoid/work.h), so a
    # thread of 160 KB gets the main thread's answer.
    import threading
    s = sov.Shape(0.03, 0.05, 0.08, 0.7, 1.3)
    expected = sov.distance(s, sov.Pose(), s, sov.Pose())
    got = {}

    def query():
        got["d"] = sov.distance(s, sov.Pose(), s, sov.Pose()).d
        got["collide"] = sov.collide(s, sov.Pose(), s, sov.Pose())

    previous = threading.stack_size(160 * 1024)
    try:
        t = threading.Thread(target=query)
        t.start()
        t.join()
    finally:
        threading.stack_size(previous)
    assert got["d"] == expected.d and expected.d < 0
    assert got["collide"]
