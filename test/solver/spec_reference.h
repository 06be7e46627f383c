// The solver tests' independent reference: SPEC formulas written out again
// here, apart from the library, so that a test compares the library with
// the SPEC and not with itself. Nothing here calls the solver except PoseQ,
// which takes its rotation from sovc_quat_to_matrix. The implicit F is the
// formula as it stands: no freezing of the tapers outside |z| <= a3.
#ifndef SUPEROVOID_TEST_SOLVER_SPEC_REFERENCE_H
#define SUPEROVOID_TEST_SOLVER_SPEC_REFERENCE_H

#include <cmath>

extern "C" {
#include "solver/pose.h"
#include "superovoid/superovoid.h"
}

namespace sov_spec {

constexpr double kPi = 3.14159265358979323846;

// SPEC "Shape" parameters a1 a2 a3 eps1 eps2 tx ty as given (unlike sovc_shape_init: no checks).
inline sovc_shape MakeShape(double a1, double a2, double a3, double e1, double e2, double tx,
                           double ty) {
  sovc_shape s{};
  s.a[0] = a1, s.a[1] = a2, s.a[2] = a3;
  s.eps1 = e1, s.eps2 = e2;
  s.taper[0] = tx, s.taper[1] = ty;
  return s;
}

// The same from params[7] in SPEC order (a1 a2 a3 eps1 eps2 tx ty), also unchecked.
inline sovc_shape MakeShape(const double p[7]) {
  return MakeShape(p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
}

// SPEC signed power sign(x) |x|^g (apart from sovc_spow).
inline double Spow(double x, double g) { return x < 0 ? -std::pow(-x, g) : std::pow(x, g); }

// SPEC parametric surface point x(phi1, phi2), tapers 1 + t z / a3 (apart from sovc_param_point).
inline void Param(double x[3], const sovc_shape& s, double p1, double p2) {
  const double z = s.a[2] * Spow(std::sin(p2), s.eps2);
  const double cz = Spow(std::cos(p2), s.eps2);
  x[0] = s.a[0] * (1 + s.taper[0] * z / s.a[2]) * Spow(std::cos(p1), s.eps1) * cz;
  x[1] = s.a[1] * (1 + s.taper[1] * z / s.a[2]) * Spow(std::sin(p1), s.eps1) * cz;
  x[2] = z;
}

// SPEC "Shape" implicit F and (g not null) its gradient, in long double (apart from sovc_implicit).
inline void SpecImplicitLong(long double* F, long double g[3], const sovc_shape& s,
                             const double x[3]) {
  const long double a1 = s.a[0], a2 = s.a[1], a3 = s.a[2];
  const long double z = x[2] / a3, kx = 1 + s.taper[0] * z, ky = 1 + s.taper[1] * z;
  const long double X = std::fabs(x[0] / (a1 * kx)), Y = std::fabs(x[1] / (a2 * ky));
  const long double p = 2.0L / s.eps1, m = (long double)s.eps1 / s.eps2;
  const long double S = std::pow(X, p) + std::pow(Y, p);
  *F = std::pow(S, m) + std::pow(std::fabs(z), 2.0L / s.eps2) - 1;
  if (g == nullptr) return;
  const long double WS = S > 0 ? m * std::pow(S, m - 1) : 0;
  const long double sx = x[0] < 0 ? -1 : 1, sy = x[1] < 0 ? -1 : 1, sz = z < 0 ? -1 : 1;
  g[0] = WS * p * std::pow(X, p - 1) * sx / (a1 * kx);
  g[1] = WS * p * std::pow(Y, p - 1) * sy / (a2 * ky);
  g[2] = WS * (-p * std::pow(X, p) * s.taper[0] / (a3 * kx) -
               p * std::pow(Y, p) * s.taper[1] / (a3 * ky)) +
         (2.0L / s.eps2) * std::pow(std::fabs(z), 2.0L / s.eps2 - 1) * sz / a3;
}

// SPEC "Shape" implicit F of SpecImplicitLong, rounded to double once at the end.
inline double SpecF(const sovc_shape& s, const double x[3]) {
  long double F;
  SpecImplicitLong(&F, nullptr, s, x);
  return static_cast<double>(F);
}

// SPEC pose world = R local + p from a quaternion w x y z (R by sovc_quat_to_matrix) and p.
inline sovc_pose PoseQ(double qw, double qx, double qy, double qz, double px, double py,
                      double pz) {
  sovc_pose X{};
  const double q[4] = {qw, qx, qy, qz};
  sovc_quat_to_matrix(X.R, q);
  X.p[0] = px, X.p[1] = py, X.p[2] = pz;
  return X;
}

// Euclidean length |v|, written out.
inline double Norm(const double v[3]) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

// Euclidean distance |a - b|, written out.
inline double Dist(const double a[3], const double b[3]) {
  const double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return Norm(d);
}

}  // namespace sov_spec

#endif
