// Batches from numpy arrays: the arrays become the C batch (shapes by
// index, one sov_pose per pair), sov_batch_distance / sov_batch_collide run
// with the GIL released, and their arrays come back as numpy arrays.
#include <pybind11/stl.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "common.h"

namespace sovpy {

namespace {

// Per-pair caches for batches: count sov_caches, pair k uses the k-th.
struct CacheArray {
  std::vector<sov_cache> caches;
  std::atomic<bool> busy{false};  // a batch is using them (GIL released)
  explicit CacheArray(size_t n) : caches(n) {
    for (auto &c : caches) sov_cache_reset(&c);
  }
};

// Marks a CacheArray busy for one call; refuses a second call meanwhile
// (another Python thread), which would race on the caches.
class CacheLease {
 public:
  explicit CacheLease(CacheArray *c) : c_(c) {
    if (c_ && c_->busy.exchange(true))
      throw std::runtime_error("this CacheArray is in use by another batch call");
  }
  ~CacheLease() {
    if (c_) c_->busy.store(false);
  }
  CacheLease(const CacheLease &) = delete;
  CacheLease &operator=(const CacheLease &) = delete;

 private:
  CacheArray *c_;
};

// A batch's answers, as numpy arrays.
struct DistanceBatch {
  py::array_t<double> d, n, p_a, p_b, residual;
  py::array_t<int32_t> iterations, method, status;
  int threads = 0;
  size_t failed = 0;
};

// A collide batch's answers.
struct CollideBatch {
  py::array_t<bool> colliding;
  py::array_t<int32_t> status;
  int threads = 0;
  size_t failed = 0;
};

// The C inputs of a batch, owned here while the GIL is released. Pairs
// whose pose could not be made carry their status in pre_status (and an
// out-of-range index, so that the C call passes them by at once).
struct Inputs {
  std::vector<sov_shape> shapes;
  std::vector<size_t> ia, ib;
  std::vector<sov_pose> XA, XB;
  std::vector<int> pre_status;
};

// Shapes from a sequence of Shape or an (m, 7) array of parameters (each
// validated; an invalid row raises superovoid.Error naming it).
std::vector<sov_shape> readShapes(const py::handle &shapes) {
  std::vector<sov_shape> out;
  if (py::isinstance<py::array>(shapes)) {
    const auto a = realArray(shapes, "shapes");
    if (!a || a.ndim() != 2 || a.shape(1) != 7)
      throw std::invalid_argument("shapes: an (m, 7) array of parameters expected");
    out.resize(static_cast<size_t>(a.shape(0)));
    for (size_t i = 0; i < out.size(); ++i) {
      const double *row = a.data() + 7 * i;
      const int st = sov_shape_init(&out[i], row);
      if (st != SOV_OK) {
        char why[256];
        sov_shape_explain(why, sizeof why, row);
        throw sov::Error(st, "shapes[" + std::to_string(i) + "]: " + why);
      }
    }
    return out;
  }
  size_t i = 0;
  for (const py::handle &s : shapes) {
    if (!py::isinstance<Shape>(s))
      throw py::type_error("shapes[" + std::to_string(i) +
                           "]: a Shape expected (or an (m, 7) array of parameters)");
    out.push_back(s.cast<const Shape &>().shape);
    ++i;
  }
  return out;
}

// Indices from an integer array (negative ones become out of range).
std::vector<size_t> readIndices(const py::handle &value, const char *what) {
  const py::array a = py::array::ensure(value);
  if (!a || a.ndim() != 1) throw std::invalid_argument(std::string(what) + ": a 1-d array expected");
  if (a.dtype().kind() != 'i' && a.dtype().kind() != 'u' && a.size() > 0)
    throw std::invalid_argument(std::string(what) + ": integers expected");
  const auto v = py::array_t<int64_t, py::array::forcecast>::ensure(a);
  std::vector<size_t> out(static_cast<size_t>(v.size()));
  for (size_t k = 0; k < out.size(); ++k)
    out[k] = v.at(k) < 0 ? std::numeric_limits<size_t>::max() : static_cast<size_t>(v.at(k));
  return out;
}

// Poses of one side: an (n, 7) array of qw qx qy qz px py pz rows, an
// (n, 4, 4) or (n, 3, 4) array of homogeneous matrices, or a sequence of
// Pose. A row that is no pose gets its status in pre_status.
std::vector<sov_pose> readPoses(const py::handle &value, size_t n, std::vector<int> *pre_status,
                                const char *what) {
  std::vector<sov_pose> out(n);
  if (!py::isinstance<py::array>(value) && !py::isinstance<py::list>(value) &&
      !py::isinstance<py::tuple>(value))
    throw std::invalid_argument(std::string(what) + ": an array or a sequence of Pose expected");
  /* A sequence of Pose (an empty one for an empty batch, as a broad phase
     with no candidates gives). */
  if (!py::isinstance<py::array>(value) &&
      (py::len(value) == 0 || py::isinstance<Pose>(py::reinterpret_borrow<py::sequence>(value)[0]))) {
    if (py::len(value) != n) throw std::invalid_argument(std::string(what) + ": one pose per pair expected");
    size_t k = 0;
    for (const py::handle &p : value) {
      if (!py::isinstance<Pose>(p))
        throw py::type_error(std::string(what) + "[" + std::to_string(k) +
                             "]: a Pose expected (the sequence began with one)");
      out[k++] = p.cast<const Pose &>().pose;
    }
    return out;
  }
  const auto a = realArray(value, what);
  const bool quat = a && a.ndim() == 2 && a.shape(1) == 7;
  const bool mat = a && a.ndim() == 3 && (a.shape(1) == 4 || a.shape(1) == 3) && a.shape(2) == 4;
  if (!quat && !mat)
    throw std::invalid_argument(std::string(what) +
                                ": an (n, 7) array (qw qx qy qz px py pz), an (n, 4, 4) array or a "
                                "sequence of Pose expected");
  if (static_cast<size_t>(a.shape(0)) != n)
    throw std::invalid_argument(std::string(what) + ": one pose per pair expected");
  const size_t stride = static_cast<size_t>(a.size()) / (n ? n : 1);
  for (size_t k = 0; k < n; ++k) {
    const double *row = a.data() + stride * k;
    int st;
    if (quat) {
      st = sov_pose_from_quat(&out[k], row, row + 4);
    } else {
      const double R[9] = {row[0], row[1], row[2], row[4], row[5], row[6], row[8], row[9], row[10]};
      const double p[3] = {row[3], row[7], row[11]};
      st = sov_pose_from_matrix(&out[k], R, p);
      if (st == SOV_OK && a.shape(1) == 4 && !homogeneousLastRow(row + 12)) st = SOV_ERR_ROTATION;
    }
    if (st != SOV_OK && (*pre_status)[k] == SOV_OK) (*pre_status)[k] = st;
  }
  return out;
}

// Every input of a batch call, converted and checked for size.
Inputs readInputs(const py::handle &shapes, const py::handle &ia, const py::handle &ib,
                  const py::handle &pa, const py::handle &pb) {
  Inputs in;
  in.shapes = readShapes(shapes);
  in.ia = readIndices(ia, "index_a");
  in.ib = readIndices(ib, "index_b");
  if (in.ia.size() != in.ib.size())
    throw std::invalid_argument("index_a and index_b: one index per pair each expected");
  in.pre_status.assign(in.ia.size(), SOV_OK);
  in.XA = readPoses(pa, in.ia.size(), &in.pre_status, "poses_a");
  in.XB = readPoses(pb, in.ia.size(), &in.pre_status, "poses_b");
  for (size_t k = 0; k < in.ia.size(); ++k)
    if (in.pre_status[k] != SOV_OK) in.ia[k] = std::numeric_limits<size_t>::max();
  return in;
}

// The C batch over in (caches: NULL or one per pair).
sov_batch cBatch(Inputs &in, CacheArray *caches) {
  if (caches && caches->caches.size() != in.ia.size())
    throw std::invalid_argument("caches: a CacheArray of one cache per pair expected");
  sov_batch b;
  b.shapes = in.shapes.data();
  b.n_shapes = in.shapes.size();
  b.index_a = in.ia.data();
  b.index_b = in.ib.data();
  b.poses_a = in.XA.data();
  b.poses_b = in.XB.data();
  b.count = in.ia.size();
  b.caches = caches ? caches->caches.data() : nullptr;
  return b;
}

// The pose statuses in place of SOV_ERR_INDEX; returns the failed count and
// sets *first to the first failed pair.
size_t mergeStatuses(std::vector<int> *status, const Inputs &in, size_t *first) {
  size_t failed = 0;
  *first = status->size();
  for (size_t k = 0; k < status->size(); ++k) {
    if (in.pre_status[k] != SOV_OK) (*status)[k] = in.pre_status[k];
    if ((*status)[k] != SOV_OK && failed++ == 0) *first = k;
  }
  return failed;
}

// Raises superovoid.BatchError for the first failed pair, carrying result.
[[noreturn]] void raiseBatchError(int status, size_t index, size_t failed, const py::object &result) {
  py::object type = py::module_::import("superovoid._errors").attr("BatchError");
  const std::string msg = "pair " + std::to_string(index) + " (and " + std::to_string(failed - 1) +
                          " more): " + sov_status_string(status);
  py::object exc = type(status, msg, index, result);
  PyErr_SetObject(type.ptr(), exc.ptr());
  throw py::error_already_set();
}

// The thread count of a batch call: an integer from 0 (one per core) to
// the C int's largest; TypeError or ValueError naming threads otherwise.
int threadCount(const py::object &threads) {
  return integer(threads, "threads", 0, std::numeric_limits<int>::max());
}

// distance_batch.
py::object distanceBatch(const py::handle &shapes, const py::handle &ia, const py::handle &ib,
                         const py::handle &pa, const py::handle &pb, const Options *options,
                         CacheArray *caches, const py::object &threads, bool raise) {
  const int nthreads = threadCount(threads);
  Inputs in = readInputs(shapes, ia, ib, pa, pb);
  const sov_batch b = cBatch(in, caches);
  const size_t n = in.ia.size();
  std::vector<sov_result> out(n, sov_result{});
  std::vector<int> status(n, SOV_OK);
  sov_batch_report report{0, 0, 1};
  int st;
  {
    CacheLease lease(caches);
    py::gil_scoped_release release;
    // An empty batch still checks its options (out.data() may be NULL then).
    sov_result none;
    int none_status;
    st = sov_batch_distance(n ? out.data() : &none, n ? status.data() : &none_status, &report, &b,
                            optionsOf(options), nthreads);
  }
  if (st != SOV_OK && report.failed == 0) check(st, "distance_batch");  // refused call
  DistanceBatch r;
  const auto N = static_cast<py::ssize_t>(n);
  r.d = py::array_t<double>(N);
  r.residual = py::array_t<double>(N);
  r.n = py::array_t<double>({N, py::ssize_t{3}});
  r.p_a = py::array_t<double>({N, py::ssize_t{3}});
  r.p_b = py::array_t<double>({N, py::ssize_t{3}});
  r.iterations = py::array_t<int32_t>(N);
  r.method = py::array_t<int32_t>(N);
  r.status = py::array_t<int32_t>(N);
  size_t first;
  r.failed = mergeStatuses(&status, in, &first);
  r.threads = report.threads;
  for (size_t k = 0; k < n; ++k) {
    r.d.mutable_at(k) = out[k].d;
    r.residual.mutable_at(k) = out[k].residual;
    std::memcpy(r.n.mutable_data(k, 0), out[k].n, sizeof out[k].n);
    std::memcpy(r.p_a.mutable_data(k, 0), out[k].pA, sizeof out[k].pA);
    std::memcpy(r.p_b.mutable_data(k, 0), out[k].pB, sizeof out[k].pB);
    r.iterations.mutable_at(k) = out[k].iterations;
    r.method.mutable_at(k) = out[k].method;
    r.status.mutable_at(k) = status[k];
  }
  py::object result = py::cast(std::move(r));
  if (raise && first < n) raiseBatchError(status[first], first, result.cast<DistanceBatch &>().failed, result);
  return result;
}

// collide_batch.
py::object collideBatch(const py::handle &shapes, const py::handle &ia, const py::handle &ib,
                        const py::handle &pa, const py::handle &pb, const Options *options,
                        CacheArray *caches, const py::object &threads, bool raise) {
  const int nthreads = threadCount(threads);
  Inputs in = readInputs(shapes, ia, ib, pa, pb);
  const sov_batch b = cBatch(in, caches);
  const size_t n = in.ia.size();
  std::vector<int> colliding(n, 0), status(n, SOV_OK);
  sov_batch_report report{0, 0, 1};
  int st;
  {
    CacheLease lease(caches);
    py::gil_scoped_release release;
    int none, none_status;
    st = sov_batch_collide(n ? colliding.data() : &none, n ? status.data() : &none_status, &report,
                           &b, optionsOf(options), nthreads);
  }
  if (st != SOV_OK && report.failed == 0) check(st, "collide_batch");
  CollideBatch r;
  const auto N = static_cast<py::ssize_t>(n);
  r.colliding = py::array_t<bool>(N);
  r.status = py::array_t<int32_t>(N);
  size_t first;
  r.failed = mergeStatuses(&status, in, &first);
  r.threads = report.threads;
  for (size_t k = 0; k < n; ++k) {
    r.colliding.mutable_at(k) = colliding[k] != 0 && status[k] == SOV_OK;
    r.status.mutable_at(k) = status[k];
  }
  const size_t failed = r.failed;
  py::object result = py::cast(std::move(r));
  if (raise && first < n) raiseBatchError(status[first], first, failed, result);
  return result;
}

// Docstring shared by both batch functions' arguments.
const char *const kBatchArgs = R"(
shapes: a sequence of Shape, or an (m, 7) array of parameters (validated on every call,
  tens of microseconds a shape: pass Shape objects to validate once; an invalid row raises
  superovoid.Error naming it).
index_a, index_b: integer arrays (n,): pair k is shapes[index_a[k]] against shapes[index_b[k]].
poses_a, poses_b: the poses of A and B per pair: an (n, 7) array of rows qw qx qy qz px py pz
  (the battery files' order), an (n, 4, 4) or (n, 3, 4) array of homogeneous matrices, or a
  sequence of n Pose.
options: an Options for every pair (None: defaults).
caches: a CacheArray(n) (pair k warm-starts from and updates its k-th cache), or None (cold).
threads: an integer from 0 to 2147483647 (the C int's largest): 0 for one per core, n for at
  most n (never more than the pairs, nor 1024); another value raises ValueError (TypeError
  for a non-integer) naming threads. The GIL is released meanwhile.
check: raise superovoid.BatchError (status, message, index of the first failed pair, and
  .result, the whole answer) when a pair failed; False returns the statuses instead.
Every pair's answer equals the single-pair call's bit for bit, whatever the thread count.)";

// The docstrings of the batch functions (static: pybind11 keeps pointers).
const std::string &distanceDoc() {
  static const std::string doc =
      std::string("Signed distance of many pairs (sov_batch_distance); returns a DistanceBatch.\n") +
      kBatchArgs;
  return doc;
}
const std::string &collideDoc() {
  static const std::string doc =
      std::string("Overlap test of many pairs (sov_batch_collide); returns a CollideBatch.\n") +
      kBatchArgs;
  return doc;
}

}  // namespace

// CacheArray, the result types and the two batch functions.
void registerBatch(py::module_ &m) {
  py::class_<CacheArray>(m, "CacheArray", "One warm-start cache per pair of a batch.")
      .def(py::init<size_t>(), py::arg("count"))
      .def("__len__", [](const CacheArray &c) { return c.caches.size(); })
      .def("reset", [](CacheArray &c) {
        for (auto &x : c.caches) sov_cache_reset(&x);
      }, "Forget every cached answer.")
      .def("valid", [](const CacheArray &c) {
        py::array_t<bool> v(static_cast<py::ssize_t>(c.caches.size()));
        for (size_t k = 0; k < c.caches.size(); ++k) v.mutable_at(k) = sov_cache_valid(&c.caches[k]) != 0;
        return v;
      }, "Which caches hold an answer (bool array).");
  py::class_<DistanceBatch>(m, "DistanceBatch", R"(Answers of distance_batch, one row per pair:
d (n,), n (n, 3), p_a (n, 3), p_b (n, 3), iterations (n,), residual (n,), method (n,) codes
(index into METHODS), status (n,) C status codes (0: answered); threads used; failed count.)")
      .def_readonly("d", &DistanceBatch::d)
      .def_readonly("n", &DistanceBatch::n)
      .def_readonly("p_a", &DistanceBatch::p_a)
      .def_readonly("p_b", &DistanceBatch::p_b)
      .def_readonly("iterations", &DistanceBatch::iterations)
      .def_readonly("residual", &DistanceBatch::residual)
      .def_readonly("method", &DistanceBatch::method)
      .def_readonly("status", &DistanceBatch::status)
      .def_readonly("threads", &DistanceBatch::threads)
      .def_readonly("failed", &DistanceBatch::failed)
      .def("__len__", [](const DistanceBatch &r) { return r.d.size(); });
  py::class_<CollideBatch>(m, "CollideBatch", R"(Answers of collide_batch: colliding (n,) bool
(False where the pair failed), status (n,), threads used, failed count.)")
      .def_readonly("colliding", &CollideBatch::colliding)
      .def_readonly("status", &CollideBatch::status)
      .def_readonly("threads", &CollideBatch::threads)
      .def_readonly("failed", &CollideBatch::failed)
      .def("__len__", [](const CollideBatch &r) { return r.status.size(); });
  m.def("distance_batch", &distanceBatch, py::arg("shapes"), py::arg("index_a"), py::arg("index_b"),
        py::arg("poses_a"), py::arg("poses_b"), py::kw_only(), py::arg("options") = nullptr,
        py::arg("caches") = nullptr, py::arg("threads") = 0, py::arg("check") = true,
        distanceDoc().c_str());
  m.def("collide_batch", &collideBatch, py::arg("shapes"), py::arg("index_a"), py::arg("index_b"),
        py::arg("poses_a"), py::arg("poses_b"), py::kw_only(), py::arg("options") = nullptr,
        py::arg("caches") = nullptr, py::arg("threads") = 0, py::arg("check") = true,
        collideDoc().c_str());
  py::tuple methods(static_cast<size_t>(SOV_METHOD_COUNT));
  for (int i = 0; i < SOV_METHOD_COUNT; ++i) methods[i] = sov_method_name(static_cast<sov_method>(i));
  m.attr("METHODS") = methods;
}

}  // namespace sovpy
