// Shapes, poses, options, caches and the single-pair queries: the C API of
// superovoid.h, one Python call per C call.
#include <pybind11/stl.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "common.h"
#include "superovoid/work.h"

namespace sovpy {

namespace {

// Seed names, in sov_seed's order.
const char *const kSeedNames[] = {"quadtree", "centers", "cache"};

// A validated shape from seven parameters.
Shape makeShape(const std::array<double, 7> &params) {
  Shape s{};
  s.params = params;
  const int st = sov_shape_init(&s.shape, params.data());
  if (st != SOV_OK) {
    char why[256];
    sov_shape_explain(why, sizeof why, params.data());
    throw sov::Error(st, std::string("invalid shape: ") + why);
  }
  return s;
}

// sov_shape_get of a shape.
sov_shape_info info(const Shape &s) {
  sov_shape_info i;
  check(sov_shape_get(&i, &s.shape), "shape");
  return i;
}

// A pose from a quaternion w x y z and a position.
Pose poseFromQuat(const py::handle &q, const py::handle &p) {
  const DoubleArray qa = realArray(q, "quaternion");
  if (!qa || qa.ndim() != 1 || qa.shape(0) != 4)
    throw std::invalid_argument("quaternion: 4 numbers w x y z expected");
  const double qv[4] = {qa.at(0), qa.at(1), qa.at(2), qa.at(3)};
  const std::array<double, 3> pv = read3(p, "position");
  Pose out{};
  check(sov_pose_from_quat(&out.pose, qv, pv.data()), "pose from quaternion");
  return out;
}

// A pose from a 3x3 rotation matrix and a position, or from a 4x4 / 3x4
// homogeneous matrix alone.
Pose poseFromMatrix(const py::handle &matrix, const py::object &p) {
  const DoubleArray R = realArray(matrix, "rotation");
  if (!R) throw std::invalid_argument("rotation: a 3x3 matrix expected (or a 4x4 matrix without p)");
  Pose out{};
  if (p.is_none()) {
    out.pose = poseFromHomogeneous(R);
    return out;
  }
  if (R.ndim() != 2 || R.shape(0) != 3 || R.shape(1) != 3)
    throw std::invalid_argument("rotation: a 3x3 matrix expected (or a 4x4 matrix without p)");
  const std::array<double, 3> pv = read3(p, "position");
  check(sov_pose_from_matrix(&out.pose, R.data(), pv.data()), "pose from matrix");
  return out;
}

// The pose as a 4x4 homogeneous matrix.
py::array_t<double> homogeneous(const Pose &X) {
  py::array_t<double> T({4, 4});
  auto t = T.mutable_unchecked<2>();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) t(i, j) = X.pose.R[3 * i + j];
    t(i, 3) = X.pose.p[i];
    t(3, i) = 0;
  }
  t(3, 3) = 1;
  return T;
}

// The seed named name.
sov_seed seedFromName(const std::string &name) {
  for (int i = 0; i < 3; ++i)
    if (name == kSeedNames[i]) return static_cast<sov_seed>(i);
  throw sov::Error(SOV_ERR_OPTION, "unknown seed '" + name + "' (quadtree, centers, cache)");
}

// The method named name.
sov_method methodFromName(const std::string &name) {
  sov_method m;
  if (sov_method_from_name(&m, name.c_str()) != SOV_OK)
    throw sov::Error(SOV_ERR_OPTION,
                     "unknown method '" + name + "' (auto, implicit, parametric, ntb)");
  return m;
}

// A real number (int, float or numpy scalar; not a string, which pybind11's
// cast rejected with a RuntimeError naming no argument): TypeError otherwise.
double realNumber(const py::object &value, const char *what) {
  if (py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value))
    throw py::type_error(std::string(what) + ": a real number expected, not a string");
  const double v = PyFloat_AsDouble(value.ptr());
  if (v == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    throw py::type_error(std::string(what) + ": a real number expected");
  }
  return v;
}

// Options from keyword values (defaults for those not given).
Options makeOptions(const std::string &method, const std::string &seed, const py::object &tolerance,
                    const py::object &max_iterations, bool certify) {
  Options o{};
  sov_options_default(&o.options);
  o.options.method = methodFromName(method);
  o.options.seed = seedFromName(seed);
  if (!tolerance.is_none()) o.options.tolerance = realNumber(tolerance, "tolerance");
  if (!max_iterations.is_none())
    o.options.max_iterations =
        integer(max_iterations, "max_iterations", std::numeric_limits<int>::min(),
                std::numeric_limits<int>::max());
  o.options.certify = certify ? 1 : 0;
  return o;
}

// Signed distance of one pair.
sov_result distance(const Shape &A, const Pose &XA, const Shape &B, const Pose &XB,
                    const Options *options, Cache *cache) {
  const sov_options o = sov::withThreadWork(optionsOf(options));
  sov_result r{};
  check(
      sov_distance(&r, &A.shape, &XA.pose, &B.shape, &XB.pose, &o, cache ? &cache->cache : nullptr),
      "distance");
  return r;
}

// Overlap test of one pair.
bool collide(const Shape &A, const Pose &XA, const Shape &B, const Pose &XB,
             const Options *options, Cache *cache) {
  const sov_options o = sov::withThreadWork(optionsOf(options));
  int colliding = 0;
  check(sov_collide(&colliding, &A.shape, &XA.pose, &B.shape, &XB.pose, &o,
                    cache ? &cache->cache : nullptr),
        "collide");
  return colliding != 0;
}

// "Shape(a1, a2, a3, eps1, eps2, taper_x, taper_y)".
std::string shapeRepr(const Shape &s) {
  std::string out = "Shape(";
  for (int i = 0; i < 7; ++i) out += (i ? ", " : "") + py::repr(py::float_(s.params[i])).cast<std::string>();
  return out + ")";
}

// The Shape class.
void registerShape(py::module_ &m) {
  py::class_<Shape>(m, "Shape", R"(A validated superovoid (sov_shape_init).

Shape(a1, a2, a3, eps1, eps2, taper_x=0, taper_y=0) or Shape(params) with those seven
numbers (or the first five) in that order (SPEC: eps1 shapes the xy cross-section, eps2 the z profile).
Raises superovoid.Error (status SOV_ERR_SIZE, ..._EXPONENT, ..._TAPER, ..._NONCONVEX, ...)
with sov_shape_explain's reason for invalid parameters.)")
      .def(py::init([](double a1, double a2, double a3, double e1, double e2, double tx, double ty) {
             return makeShape({a1, a2, a3, e1, e2, tx, ty});
           }),
           py::arg("a1"), py::arg("a2"), py::arg("a3"), py::arg("eps1"), py::arg("eps2"),
           py::arg("taper_x") = 0.0, py::arg("taper_y") = 0.0)
      .def(py::init([](const py::object &params) {
             const DoubleArray a = realArray(params, "params");
             if (!a || a.ndim() != 1 || (a.shape(0) != 5 && a.shape(0) != 7))
               throw std::invalid_argument("params: 5 or 7 numbers a1 a2 a3 eps1 eps2 [taper_x taper_y]");
             const double *p = a.data();
             const bool tapered = a.shape(0) == 7;
             return makeShape({p[0], p[1], p[2], p[3], p[4], tapered ? p[5] : 0.0, tapered ? p[6] : 0.0});
           }),
           py::arg("params"))
      .def_property_readonly("params", [](const Shape &s) { return py::tuple(py::cast(s.params)); },
                             "The seven parameters a1 a2 a3 eps1 eps2 taper_x taper_y.")
      .def_property_readonly("radius", [](const Shape &s) { return info(s).radius; },
                             "Bounding sphere radius about the local origin.")
      .def_property_readonly("aabb", [](const Shape &s) {
             const sov_shape_info i = info(s);
             return py::make_tuple(vec3(i.aabb_lo), vec3(i.aabb_hi));
           }, "Exact local bounding box (lo, hi).")
      .def_property_readonly("dent", [](const Shape &s) { return info(s).dent; },
                             "Depth of the deepest dent below the convex hull, relative to the width.")
      .def("volume", [](const Shape &s) {
             double v;
             check(sov_shape_volume(&v, &s.shape), "volume");
             return v;
           }, "Volume of the body.")
      .def("mass", [](const Shape &s) {
             double v, com[3], I[9];
             check(sov_shape_mass(&v, com, I, &s.shape), "mass");
             py::array_t<double> inertia({3, 3});
             std::memcpy(inertia.mutable_data(), I, sizeof I);
             return py::make_tuple(v, vec3(com), inertia);
           }, "(volume, centre of mass, inertia about the origin) for unit density.")
      .def("support", [](const Shape &s, const py::handle &dir) {
             const std::array<double, 3> d = read3(dir, "direction");
             double x[3], h;
             check(sov_shape_support(x, &h, &s.shape, d.data()), "support");
             return py::make_tuple(vec3(x), h);
           }, py::arg("direction"), "(support point, h) along a local direction.")
      .def("implicit", [](const Shape &s, const py::handle &x) {
             const std::array<double, 3> p = read3(x, "point");
             double F, g[3], H[9];
             check(sov_shape_implicit(&F, g, H, &s.shape, p.data()), "implicit");
             py::array_t<double> hess({3, 3});
             std::memcpy(hess.mutable_data(), H, sizeof H);
             return py::make_tuple(F, vec3(g), hess);
           }, py::arg("point"), "(F, gradient, Hessian) of the SPEC's implicit function at a local point.")
      .def("point", [](const Shape &s, double phi1, double phi2) {
             double x[3], n[3];
             check(sov_shape_point(x, nullptr, nullptr, n, &s.shape, phi1, phi2), "point");
             return py::make_tuple(vec3(x), vec3(n));
           }, py::arg("phi1"), py::arg("phi2"), "(surface point, outward unit normal) at the angles.")
      .def("tessellate", [](const Shape &s, int n_lat, int n_lon) {
             size_t nv, nt;
             check(sov_shape_tessellation_size(&nv, &nt, n_lat, n_lon), "tessellate");
             py::array_t<double> v({static_cast<py::ssize_t>(nv), py::ssize_t{3}});
             py::array_t<int> t({static_cast<py::ssize_t>(nt), py::ssize_t{3}});
             check(sov_shape_tessellate(v.mutable_data(), 3 * nv, t.mutable_data(), 3 * nt, &s.shape,
                                        n_lat, n_lon),
                   "tessellate");
             return py::make_tuple(v, t);
           }, py::arg("n_lat") = 16, py::arg("n_lon") = 32,
           "(vertices (n, 3), triangles (m, 3)): a latitude-longitude mesh of surface points.")
      .def_static("explain", [](const std::array<double, 7> &params) {
             char buf[256];
             const int st = sov_shape_explain(buf, sizeof buf, params.data());
             return py::make_tuple(st, std::string(buf));
           }, py::arg("params"), "(status, reason) for seven parameters, valid or not.")
      .def_static("max_taper_scale", [](const std::array<double, 7> &params) {
             double s;
             check(sov_shape_max_taper_scale(&s, params.data()), "max_taper_scale");
             return s;
           }, py::arg("params"), "Largest s in [0, 1] with the tapers scaled by s convex.")
      .def("__repr__", &shapeRepr)
      .def(py::pickle([](const Shape &s) { return py::make_tuple(s.params); },
                      [](const py::tuple &t) { return makeShape(t[0].cast<std::array<double, 7>>()); }));
}

// The Pose class.
void registerPose(py::module_ &m) {
  py::class_<Pose>(m, "Pose", R"(A rigid pose: world point = R @ local + p.

Pose() is the identity; Pose(position, quaternion=(1, 0, 0, 0)) takes a unit quaternion
w x y z (norm within 1e-6); Pose.from_quat, Pose.from_matrix (3x3 R and p, or a 4x4
homogeneous matrix). Invalid rotations raise superovoid.Error (SOV_ERR_QUATERNION,
SOV_ERR_ROTATION, SOV_ERR_NONFINITE).)")
      .def(py::init([](const py::object &p, const py::object &q) {
             return poseFromQuat(q.is_none() ? py::object(py::make_tuple(1.0, 0.0, 0.0, 0.0)) : q,
                                 p.is_none() ? py::object(py::make_tuple(0.0, 0.0, 0.0)) : p);
           }),
           py::arg("position") = py::none(), py::arg("quaternion") = py::none())
      .def_static("from_quat", &poseFromQuat, py::arg("quaternion"), py::arg("position"),
                  "Pose from a unit quaternion w x y z and a position.")
      .def_static("from_matrix", &poseFromMatrix, py::arg("R"), py::arg("position") = py::none(),
                  "Pose from a 3x3 rotation matrix and a position, or a 4x4 homogeneous matrix "
                  "(its last row 0 0 0 1, else ERR_ROTATION).")
      .def_property_readonly("R", [](const Pose &X) {
             py::array_t<double> R({3, 3});
             std::memcpy(R.mutable_data(), X.pose.R, sizeof X.pose.R);
             return R;
           }, "Rotation matrix (3x3).")
      .def_property_readonly("p", [](const Pose &X) { return vec3(X.pose.p); }, "Position.")
      .def("matrix", &homogeneous, "The 4x4 homogeneous matrix [R p; 0 1].")
      .def("__repr__", [](const Pose &X) {
             return "Pose(R=" + py::repr(py::cast(X).attr("R").attr("tolist")()).cast<std::string>() +
                    ", p=" + py::repr(py::cast(X).attr("p").attr("tolist")()).cast<std::string>() + ")";
           })
      .def(py::pickle([](const Pose &X) { return py::make_tuple(homogeneous(X)); },
                      [](const py::tuple &t) {
                        const DoubleArray T = realArray(t[0], "pose state");
                        if (!T) throw std::invalid_argument("pose state: a 4x4 matrix expected");
                        Pose X{};
                        X.pose = poseFromHomogeneous(T);  // checked
                        // Its own bits back: a query takes a rotation to
                        // rounding as it is (superovoid.h, sov_pose).
                        const auto t4 = T.unchecked<2>();
                        for (int i = 0; i < 3; ++i) {
                          for (int j = 0; j < 3; ++j) X.pose.R[3 * i + j] = t4(i, j);
                          X.pose.p[i] = t4(i, 3);
                        }
                        return X;
                      }));
}

// Options, Cache and Result.
void registerQueryTypes(py::module_ &m) {
  py::class_<Options>(m, "Options", R"(Query options (sov_options).

Options(method="auto", seed="quadtree", tolerance=None, max_iterations=None, certify=True):
method "auto" (default), "implicit", "parametric" or "ntb"; seed (study methods) "quadtree",
"centers" or "cache"; None keeps the C default (tolerance 1e-11, 50 iterations).)")
      .def(py::init(&makeOptions), py::arg("method") = "auto", py::arg("seed") = "quadtree",
           py::arg("tolerance") = py::none(), py::arg("max_iterations") = py::none(),
           py::arg("certify") = true)
      .def_property_readonly("method", [](const Options &o) { return std::string(sov_method_name(o.options.method)); })
      .def_property_readonly("seed", [](const Options &o) { return std::string(kSeedNames[o.options.seed]); })
      .def_property_readonly("tolerance", [](const Options &o) { return o.options.tolerance; })
      .def_property_readonly("max_iterations", [](const Options &o) { return o.options.max_iterations; })
      .def_property_readonly("certify", [](const Options &o) { return o.options.certify != 0; });

  py::class_<Cache>(m, "Cache", R"(A warm-start cache (sov_cache) for one pair: pass it to every query of
that pair; the next query starts from the previous answer.)")
      .def(py::init([] {
        Cache c;
        sov_cache_reset(&c.cache);
        return c;
      }))
      .def("reset", [](Cache &c) { sov_cache_reset(&c.cache); }, "Forget the cached answer.")
      .def_property_readonly("valid", [](const Cache &c) { return sov_cache_valid(&c.cache) != 0; },
                             "True when the cache holds an answer.")
      .def("set", [](Cache &c, const Pose &XA, const Pose &XB, const py::handle &pA, const py::handle &pB) {
             const std::array<double, 3> a = read3(pA, "point_a"), b = read3(pB, "point_b");
             check(sov_cache_set(&c.cache, &XA.pose, &XB.pose, a.data(), b.data()), "cache set");
           }, py::arg("pose_a"), py::arg("pose_b"), py::arg("point_a"), py::arg("point_b"),
           "Seed the cache from world points on (or near) A and B.");

  py::class_<sov_result>(m, "Result", R"(Answer of a distance query (sov_result).

d: signed distance (> 0 apart, < 0 overlap: minus the penetration depth); n: unit normal
from A towards B; p_a, p_b: witness points (world), p_b - p_a = d n; iterations; residual;
method: the method that answered ("auto", ...).)")
      .def_property_readonly("d", [](const sov_result &r) { return r.d; })
      .def_property_readonly("n", [](const sov_result &r) { return vec3(r.n); })
      .def_property_readonly("p_a", [](const sov_result &r) { return vec3(r.pA); })
      .def_property_readonly("p_b", [](const sov_result &r) { return vec3(r.pB); })
      .def_property_readonly("iterations", [](const sov_result &r) { return r.iterations; })
      .def_property_readonly("residual", [](const sov_result &r) { return r.residual; })
      .def_property_readonly("method", [](const sov_result &r) {
        const char *name = sov_method_name(r.method);
        return std::string(name ? name : "?");
      })
      .def("__repr__", [](const sov_result &r) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "Result(d=%.17g, n=[%.17g, %.17g, %.17g], method='%s')", r.d,
                      r.n[0], r.n[1], r.n[2], sov_method_name(r.method) ? sov_method_name(r.method) : "?");
        return std::string(buf);
      });
}

}  // namespace

// A new float64 array of shape {3}.
py::array_t<double> vec3(const double v[3]) {
  py::array_t<double> a(3);
  std::memcpy(a.mutable_data(), v, 3 * sizeof(double));
  return a;
}

// See common.h.
DoubleArray realArray(const py::handle &value, const char *what) {
  const py::array a = py::array::ensure(value);
  const char kind = a ? a.dtype().kind() : 'f';
  if (a && a.size() > 0 && kind != 'i' && kind != 'u' && kind != 'f')
    throw std::invalid_argument(std::string(what) + ": real numbers expected, not dtype " +
                                std::string(py::str(a.dtype())));
  return DoubleArray::ensure(a);
}

// Three numbers from a sequence or array.
std::array<double, 3> read3(const py::handle &value, const char *what) {
  const DoubleArray a = realArray(value, what);
  if (!a || a.ndim() != 1 || a.shape(0) != 3)
    throw std::invalid_argument(std::string(what) + ": 3 numbers expected");
  return {a.at(0), a.at(1), a.at(2)};
}

// An int (anything with __index__: not 1.5, not None) from lo to hi:
// TypeError naming what otherwise, ValueError naming what and the range
// outside it.
int integer(const py::object &value, const char *what, int lo, int hi) {
  const std::string range = std::string(what) + ": an integer from " + std::to_string(lo) + " to " +
                            std::to_string(hi) + " expected";
  PyObject *index = PyNumber_Index(value.ptr());
  if (!index) {
    PyErr_Clear();
    throw py::type_error(range + ", not " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  }
  const py::object v = py::reinterpret_steal<py::object>(index);
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (overflow || x < lo || x > hi)
    throw std::invalid_argument(range + ", not " + std::string(py::str(v)));
  return static_cast<int>(x);
}

// A pose from a homogeneous matrix.
sov_pose poseFromHomogeneous(const DoubleArray &T) {
  if (T.ndim() != 2 || (T.shape(0) != 3 && T.shape(0) != 4) || T.shape(1) != 4)
    throw std::invalid_argument("a 4x4 or 3x4 homogeneous matrix expected");
  const auto t = T.unchecked<2>();
  double R[9], p[3];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) R[3 * i + j] = t(i, j);
    p[i] = t(i, 3);
  }
  if (T.shape(0) == 4) {
    const double last[4] = {t(3, 0), t(3, 1), t(3, 2), t(3, 3)};
    if (!homogeneousLastRow(last))
      throw sov::Error(SOV_ERR_ROTATION, "pose from matrix: the last row of a 4x4 matrix must be "
                                         "0 0 0 1 (within 1e-6): is it transposed?");
  }
  sov_pose X;
  check(sov_pose_from_matrix(&X, R, p), "pose from matrix");
  return X;
}

// 1 if a 4x4 matrix's last row is 0 0 0 1 within 1e-6 (the rotation's own
// tolerance): a transposed transform has its translation there, and was
// once read as a pose at the origin.
bool homogeneousLastRow(const double row[4]) {
  return std::fabs(row[0]) <= 1e-6 && std::fabs(row[1]) <= 1e-6 && std::fabs(row[2]) <= 1e-6 &&
         std::fabs(row[3] - 1) <= 1e-6;
}

// Everything of superovoid.h but the batches.
void registerCore(py::module_ &m) {
  m.attr("__version__") = sov_version();
  m.def("version", &sov_version, "The C library's version, MAJOR.MINOR.PATCH.");
  registerShape(m);
  registerPose(m);
  registerQueryTypes(m);
  m.def("distance", &distance, py::arg("a"), py::arg("pose_a"), py::arg("b"), py::arg("pose_b"),
        py::arg("options") = nullptr, py::arg("cache") = nullptr,
        R"(Signed distance between shape a at pose_a and shape b at pose_b (sov_distance).

options: an Options (None: defaults); cache: a Cache for warm starts (None: cold).
Returns a Result; raises superovoid.Error with the C status (e.g. SOV_ERR_NO_CONVERGENCE).)");
  m.def("collide", &collide, py::arg("a"), py::arg("pose_a"), py::arg("b"), py::arg("pose_b"),
        py::arg("options") = nullptr, py::arg("cache") = nullptr,
        "True when the bodies touch or overlap (d <= 0; sov_collide, exits early).");
  m.def("work_size", &sov_work_size, "Bytes of work memory one query's global search uses.");
}

}  // namespace sovpy
