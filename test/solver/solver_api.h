// The solver's entry points with the C API's defaults, for tests of the
// core that work with its own types (solver/types.h).
#ifndef SUPEROVOID_TEST_SOLVER_SOLVER_API_H
#define SUPEROVOID_TEST_SOLVER_SOLVER_API_H

extern "C" {
#include "solver/distance.h"
#include "solver/shape.h"
}

namespace sov_test {

// The pair of two posed bodies, for one call (it converts to the pointer
// the solver's functions take).
struct PairOf {
  sovc_pair pair;
  operator const sovc_pair *() const { return &pair; }
};

// A and B at their poses.
inline PairOf SolverPair(const sovc_shape *A, const sovc_pose *XA, const sovc_shape *B,
                         const sovc_pose *XB) {
  return PairOf{{A, XA, B, XB, 1}};
}

// Default options, as sov_options_default gives them.
inline sovc_options DefaultOptions() {
  sovc_options o;
  sovc_options_default(&o);
  return o;
}

// sovc_distance with options (nullptr: defaults) and an optional cache.
inline int Distance(sovc_result *r, const sovc_shape *A, const sovc_pose *XA,
                    const sovc_shape *B, const sovc_pose *XB, const sovc_options *options,
                    sovc_cache *cache) {
  const sovc_options defaults = DefaultOptions();
  return sovc_distance(r, SolverPair(A, XA, B, XB), options ? options : &defaults, cache);
}

// sovc_collide likewise.
inline int Collide(int *colliding, const sovc_shape *A, const sovc_pose *XA,
                   const sovc_shape *B, const sovc_pose *XB, const sovc_options *options,
                   sovc_cache *cache) {
  const sovc_options defaults = DefaultOptions();
  return sovc_collide(colliding, SolverPair(A, XA, B, XB), options ? options : &defaults, cache);
}

// F, gradient and Hessian as sov_shape_implicit reports them.
inline int Implicit(double *F, double g[3], double H[9], const sovc_shape *s, const double x[3]) {
  return sovc_implicit_checked(F, g, H, s, x) ? SOV_OK : SOV_ERR_RANGE;
}

}  // namespace sov_test

#endif
