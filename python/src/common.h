// What the files of the Python module share: the parts' registration
// functions, the wrapped C types, and conversions between numpy arrays and
// the C API's double[3] / sov_pose. No math: every number comes from the C
// API or the C++ layers.
#ifndef SUPEROVOID_PYTHON_COMMON_H
#define SUPEROVOID_PYTHON_COMMON_H

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <superovoid/error.h>
#include <superovoid/superovoid.h>

#include <array>
#include <string>

namespace sovpy {

namespace py = pybind11;

// A C-contiguous float64 numpy array.
using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// A validated shape (sov_shape_init) and its seven parameters.
struct Shape {
  sov_shape shape;
  std::array<double, 7> params;
};

// A rigid pose: world = R local + p.
struct Pose {
  sov_pose pose;
};

// Query options (sov_options without work memory: each call attaches its
// thread's, superovoid/work.h).
struct Options {
  sov_options options;
};

// The C options of an optional Options.
inline const sov_options *optionsOf(const Options *o) {
  return o ? &o->options : nullptr;
}

// A warm-start cache.
struct Cache {
  sov_cache cache;
};

// Throws sov::Error(status, "<context>: <message>") unless status is SOV_OK
// (the module's translator raises it as superovoid.Error).
void check(int status, const std::string &context);

// A new float64 array of shape {3} holding v.
py::array_t<double> vec3(const double v[3]);
// value as a C-contiguous array of doubles (null when it makes no array);
// throws std::invalid_argument (ValueError) naming what when its elements
// are not real numbers, which forcecast would take (imaginary parts
// dropped, strings parsed).
DoubleArray realArray(const py::handle &value, const char *what);
// The three numbers of a sequence or array of length 3; throws
// std::invalid_argument (ValueError) naming what for another length or
// numbers that are not real.
std::array<double, 3> read3(const py::handle &value, const char *what);
// An int (anything with __index__) from lo to hi; throws py::type_error
// (TypeError) naming what for another type, std::invalid_argument
// (ValueError) naming what and the range outside it.
int integer(const py::object &value, const char *what, int lo, int hi);
// A pose from a 4x4 or 3x4 homogeneous matrix [R | p] (a 4x4's last row
// 0 0 0 1, else SOV_ERR_ROTATION).
sov_pose poseFromHomogeneous(const DoubleArray &T);
// 1 if the last row of a 4x4 matrix is 0 0 0 1 within 1e-6.
bool homogeneousLastRow(const double row[4]);

// Registration of each part of the module.
void registerErrors(py::module_ &m);
void registerCore(py::module_ &m);
void registerBatch(py::module_ &m);
void registerScene(py::module_ &m);
void registerFit(py::module_ &m);

}  // namespace sovpy

#endif  // SUPEROVOID_PYTHON_COMMON_H
