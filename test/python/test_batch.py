"""Batches from Python: every battery subset of test/data through
distance_batch and collide_batch equals the single-query C answers (printed
in hexadecimal by the C helper sov_battery_answers) bit for bit, on one
thread and on two, cold and warm; bad pairs get their own status; the GIL
is released while a batch runs."""
import os
import subprocess
import threading
import time

import numpy as np
import pytest

import superovoid as sov

from conftest import DATA


def c_answers(name):
    """The C helper's answers per row: status, d, n, pA, pB, iterations,
    residual, method, collide status, colliding."""
    out = subprocess.run([os.environ["SOV_BATTERY_ANSWERS"], os.path.join(DATA, name)],
                         check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        f = line.split()
        x = [float.fromhex(v) for v in f[2:12]]
        rows.append(dict(status=int(f[1]), d=x[0], n=x[1:4], p_a=x[4:7], p_b=x[7:10],
                         iterations=int(f[12]), residual=float.fromhex(f[13]), method=int(f[14]),
                         collide_status=int(f[15]), colliding=int(f[16])))
    return rows


def batch_arrays(b1, b2):
    """shapes (2n, 7), indices and (n, 7) pose rows qw qx qy qz px py pz."""
    n = len(b1)
    shapes = np.empty((2 * n, 7))
    shapes[0::2] = b1[:, :7]
    shapes[1::2] = b2[:, :7]
    return shapes, np.arange(0, 2 * n, 2), np.arange(1, 2 * n, 2), b1[:, 7:14], b2[:, 7:14]


def bits(x):
    """The bytes of a float or float array, for bitwise comparison."""
    return np.asarray(x, dtype=np.float64).tobytes()


def assert_same_bits(r, k, ref, what):
    assert int(r.status[k]) == ref["status"], what
    assert bits(r.d[k]) == bits(ref["d"]), what
    assert bits(r.n[k]) == bits(ref["n"]), what
    assert bits(r.p_a[k]) == bits(ref["p_a"]), what
    assert bits(r.p_b[k]) == bits(ref["p_b"]), what
    assert int(r.iterations[k]) == ref["iterations"], what
    assert bits(r.residual[k]) == bits(ref["residual"]), what
    assert int(r.method[k]) == ref["method"], what


@pytest.mark.parametrize("threads", [1, 2])
def test_batches_equal_the_single_query_c_answers(battery, threads):
    name, ids, b1, b2 = battery
    ref = c_answers(name)
    assert len(ref) == len(ids) == 200
    r = sov.distance_batch(*batch_arrays(b1, b2), threads=threads)
    assert isinstance(r, sov.DistanceBatch) and len(r) == len(ids)
    assert r.threads == threads and r.failed == 0
    for k in range(len(ids)):
        assert_same_bits(r, k, ref[k], f"{name} id {ids[k]}, {threads} threads")
    c = sov.collide_batch(*batch_arrays(b1, b2), threads=threads)
    assert [int(v) for v in c.colliding] == [x["colliding"] for x in ref]
    assert [int(v) for v in c.status] == [x["collide_status"] for x in ref]


def test_batches_equal_python_single_calls_in_every_pose_form(battery):
    name, ids, b1, b2 = battery
    shapes = [sov.Shape(row) for pair in zip(b1[:, :7], b2[:, :7]) for row in pair]
    XA = [sov.Pose.from_quat(b[7:11], b[11:14]) for b in b1]
    XB = [sov.Pose.from_quat(b[7:11], b[11:14]) for b in b2]
    ia, ib = np.arange(0, 2 * len(ids), 2), np.arange(1, 2 * len(ids), 2)
    single = [sov.distance(shapes[ia[k]], XA[k], shapes[ib[k]], XB[k]) for k in range(len(ids))]
    r = sov.distance_batch(shapes, ia, ib, XA, XB, threads=2)
    for k, s in enumerate(single):
        assert bits(r.d[k]) == bits(s.d) and bits(r.n[k]) == bits(s.n), f"{name} id {ids[k]}"
        assert bits(r.p_a[k]) == bits(s.p_a) and bits(r.p_b[k]) == bits(s.p_b)
    # Homogeneous matrices: the poses of Pose.from_matrix, pair by pair.
    TA = np.array([X.matrix() for X in XA])
    TB = np.array([X.matrix() for X in XB])
    rm = sov.distance_batch(shapes, ia, ib, TA, TB[:, :3, :], threads=2)
    for k in range(len(ids)):
        s = sov.distance(shapes[ia[k]], sov.Pose.from_matrix(TA[k]), shapes[ib[k]],
                         sov.Pose.from_matrix(TB[k]))
        assert bits(rm.d[k]) == bits(s.d) and bits(rm.p_b[k]) == bits(s.p_b), f"{name} id {ids[k]}"


def test_caches_give_the_single_warm_answers(battery):
    name, ids, b1, b2 = battery
    shapes, ia, ib, qa, qb = batch_arrays(b1, b2)
    S = [sov.Shape(row) for row in shapes]
    caches = [sov.Cache() for _ in ids]
    XA = [sov.Pose.from_quat(q[:4], q[4:]) for q in qa]
    XB = [sov.Pose.from_quat(q[:4], q[4:]) for q in qb]
    rounds = [[sov.distance(S[ia[k]], XA[k], S[ib[k]], XB[k], cache=caches[k]) for k in range(len(ids))]
              for _ in range(2)]
    for threads in (1, 2):
        array = sov.CacheArray(len(ids))
        assert not array.valid().any()
        for single in rounds:
            r = sov.distance_batch(shapes, ia, ib, qa, qb, caches=array, threads=threads)
            for k, s in enumerate(single):
                assert bits(r.d[k]) == bits(s.d) and r.iterations[k] == s.iterations, f"{name} id {ids[k]}"
        assert array.valid().all()


def test_bad_pairs_get_their_own_status():
    ids, b1, b2 = __import__("conftest").read_battery("paper_subset.csv")
    shapes, ia, ib, qa, qb = batch_arrays(b1[:20], b2[:20])
    qa = qa.copy()
    ia = ia.copy()
    ib = ib.copy()
    qa[2, 0] = 3.0             # not a unit quaternion
    ib[4] = len(shapes)        # past the end
    ia[6] = -1                 # negative: past the end too
    qb[8, 5] = np.nan          # position not finite (stored in qb's px py pz)
    with pytest.raises(sov.BatchError) as e:
        sov.distance_batch(shapes, ia, ib, qa, qb)
    assert e.value.index == 2 and e.value.status == sov.ERR_QUATERNION
    assert "pair 2 (and 3 more)" in str(e.value) and isinstance(e.value, sov.Error)
    r = e.value.result
    expected = {2: sov.ERR_QUATERNION, 4: sov.ERR_INDEX, 6: sov.ERR_INDEX, 8: sov.ERR_NONFINITE}
    assert r.failed == 4
    for k in range(20):
        assert int(r.status[k]) == expected.get(k, sov.OK), k
    quiet = sov.distance_batch(shapes, ia, ib, qa, qb, check=False, threads=2)
    assert np.array_equal(quiet.status, r.status)
    good = [k for k in range(20) if k not in expected]
    assert bits(quiet.d[good]) == bits(r.d[good])
    c = sov.collide_batch(shapes, ia, ib, qa, qb, check=False)
    assert np.array_equal(c.status, r.status) and not c.colliding[list(expected)].any()
    with pytest.raises(sov.BatchError):
        sov.collide_batch(shapes, ia, ib, qa, qb)


def test_bad_arguments_raise():
    shapes = np.array([[1, 1, 1, 1, 1, 0, 0], [0.5, 0.5, 0.5, 1, 1, 0, 0]])
    q = np.array([[1, 0, 0, 0, 0, 0, 0]], dtype=float)
    with pytest.raises(ValueError):
        sov.distance_batch(shapes, [0], [1, 1], q, q)
    with pytest.raises(ValueError):
        sov.distance_batch(shapes, [0], [1], q, np.zeros((1, 6)))
    with pytest.raises(ValueError):
        sov.distance_batch(shapes, [0.0], [1.0], q, q)
    with pytest.raises(ValueError):
        sov.distance_batch(shapes, [0], [1], q, q, caches=sov.CacheArray(2))
    with pytest.raises(sov.Error) as e:
        sov.distance_batch(np.array([[1, 1, 1, 3, 1, 0, 0]]), [0], [0], q, q)
    assert e.value.status == sov.ERR_EXPONENT and "shapes[0]" in str(e.value)
    with pytest.raises(sov.Error) as e:
        sov.collide_batch(shapes, [0], [1], q, q, options=sov.Options(tolerance=0))
    assert e.value.status == sov.ERR_OPTION
    empty = sov.distance_batch(shapes, np.zeros(0, int), np.zeros(0, int), np.zeros((0, 7)), np.zeros((0, 7)))
    assert len(empty) == 0 and empty.n.shape == (0, 3)
    # An empty batch as empty lists (a broad phase with no candidates).
    assert len(sov.distance_batch([sov.Shape(1, 1, 1, 1, 1)], [], [], [], [])) == 0
    assert len(sov.collide_batch([sov.Shape(1, 1, 1, 1, 1)], [], [], [], [])) == 0
    # Arrays of complex numbers or strings are no real numbers: ValueErrors
    # naming the argument (forcecast would drop 5j and parse "1").
    with pytest.raises(ValueError, match="poses_a"):
        sov.distance_batch(shapes, [0], [1], q + 5j, q)
    with pytest.raises(ValueError, match="poses_b"):
        sov.collide_batch(shapes, [0], [1], q, q.astype(str))
    with pytest.raises(ValueError, match="poses_a"):
        sov.distance_batch(shapes, [0], [1], [["1", "0", "0", "0", "0", "0", "0"]], q)
    with pytest.raises(ValueError, match="shapes"):
        sov.distance_batch(shapes.astype(str), [0], [1], q, q)
    with pytest.raises(ValueError, match="shapes"):
        sov.collide_batch(shapes.astype(complex), [0], [1], q, q)
    # Items of the wrong type are TypeErrors naming their place.
    with pytest.raises(TypeError, match=r"shapes\[1\]"):
        sov.distance_batch([sov.Shape(1, 1, 1, 1, 1), [1, 1, 1, 1, 1, 0, 0]], [0], [1], q, q)
    with pytest.raises(TypeError, match=r"poses_b\[1\]"):
        sov.distance_batch(shapes, [0, 0], [1, 1], q.repeat(2, 0), [sov.Pose(), [0, 0, 0]])
    # A 4x4 whose last row is not 0 0 0 1 (a transposed transform) is no pose.
    T = np.tile(np.eye(4), (2, 1, 1))
    T[:, :3, 3] = [[3, 0, 0], [0, 3, 0]]
    T[1] = T[1].T
    r = sov.distance_batch(shapes, [0, 0], [1, 1], np.tile(np.eye(4), (2, 1, 1)), T, check=False)
    assert int(r.status[0]) == sov.OK and abs(r.d[0] - 1.5) < 1e-12
    assert int(r.status[1]) == sov.ERR_ROTATION


@pytest.mark.parametrize("batch", [sov.distance_batch, sov.collide_batch])
def test_thread_counts_outside_the_c_int_range_from_0_raise_naming_threads(batch):
    # threads is the C call's int, 0 (one per core) and up: another value
    # raises ValueError (an integer out of range) or TypeError (no integer),
    # naming threads and the range, before any pair runs.
    shapes = np.array([[1, 1, 1, 1, 1, 0, 0], [0.5, 0.5, 0.5, 1, 1, 0, 0]])
    q = np.array([[1, 0, 0, 0, 0, 0, 0]], dtype=float)
    top = int(np.iinfo(np.intc).max)
    range_text = rf"threads: an integer from 0 to {top} expected"
    for bad in (-1, top + 1, 2 ** 40, -2 ** 70, np.int64(-3)):
        with pytest.raises(ValueError, match=range_text):
            batch(shapes, [0], [1], q, q, threads=bad)
    for bad in (1.5, None, "2", np.float64(2.0), [1]):
        with pytest.raises(TypeError, match=range_text):
            batch(shapes, [0], [1], q, q, threads=bad)
    # The ends of the range and numpy integers are thread counts; one pair
    # takes one thread whatever the request.
    for good in (0, 1, top, np.int32(2), np.uint8(1)):
        assert batch(shapes, [0], [1], q, q, threads=good).threads == 1


def test_the_gil_is_released_while_a_batch_runs():
    # A batch on one thread of its own: the main thread keeps running Python
    # meanwhile, which it could not if the batch held the GIL.
    ids, b1, b2 = __import__("conftest").read_battery("stress_subset.csv")
    args = batch_arrays(np.tile(b1, (30, 1)), np.tile(b2, (30, 1)))
    done = threading.Event()
    worker = threading.Thread(target=lambda: (sov.distance_batch(*args, threads=1), done.set()))
    ticks = 0
    worker.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert ticks > 5
