/* The C API's continuous collision: argument checks, then solver/ccd.c. */
#include <math.h>
#include <string.h>

#include "c_api/api_check.h"
#include "c_api/storage.h"
#include "solver/ccd.h"
#include "solver/distance.h"
#include "solver/pose.h"
#include "superovoid/superovoid.h"

/* Defaults of sov_time_of_contact. */
enum { kDefaultMaxSteps = 10000 };
static const double kDefaultDistanceTolerance = 1e-6;

/* Defaults: 1e-6, no time tolerance, 10000 steps, default distance options. */
void sov_toc_options_default(sov_toc_options *options) {
  if (!options) return;
  options->distance_tolerance = kDefaultDistanceTolerance;
  options->time_tolerance = 0;
  options->max_steps = kDefaultMaxSteps;
  sov_options_default(&options->distance);
}

/* A motion as the solver takes it: both poses checked and made rotations
 * (sovc_pose_from_raw). */
static int motion_in(sovc_motion *m, const sov_motion *M) {
  if (!M) return SOV_ERR_NULL;
  sovc_pose X0, X1;
  int st = sovc_pose_from_raw(&X0, M->from.R, M->from.p);
  if (st == SOV_OK) st = sovc_pose_from_raw(&X1, M->to.R, M->to.p);
  if (st != SOV_OK) return st;
  /* Ends 2e308 apart: their difference, the motion's translation, overflows
   * (the pose at t = 0.5 came out infinite, with SOV_OK). */
  const double dp[3] = {M->to.p[0] - M->from.p[0], M->to.p[1] - M->from.p[1],
                        M->to.p[2] - M->from.p[2]};
  if (!sovc_all_finite(dp, 3)) return SOV_ERR_NONFINITE;
  sovc_motion_init(m, &X0, &X1);
  return SOV_OK;
}

/* Pose at t. */
int sov_motion_pose(sov_pose *pose, const sov_motion *motion, double t) {
  if (!pose) return SOV_ERR_NULL;
  sovc_motion m;
  const int st = motion_in(&m, motion);
  if (st != SOV_OK) return st;
  if (!isfinite(t)) return SOV_ERR_NONFINITE;
  sovc_pose X;
  sovc_motion_pose(&X, &m, t);
  /* A t far outside [0, 1] can carry the pose past the double range. */
  if (!sovc_all_finite(X.p, 3)) return SOV_ERR_NONFINITE;
  sovc_pose_to_public(pose, &X);
  return SOV_OK;
}

/* Tolerances finite and >= 0, a positive step cap, valid distance options. */
static int check_toc_options(const sov_toc_options *o) {
  if (!(o->distance_tolerance >= 0) || !isfinite(o->distance_tolerance)) return SOV_ERR_OPTION;
  if (!(o->time_tolerance >= 0) || !isfinite(o->time_tolerance)) return SOV_ERR_OPTION;
  if (o->max_steps < 1) return SOV_ERR_OPTION;
  return sovc_api_check_options(&o->distance);
}

/* The toc options as the solver's. */
static sovc_toc_options toc_options_from_public(const sov_toc_options *o) {
  sovc_toc_options out;
  out.distance_tolerance = o->distance_tolerance;
  out.time_tolerance = o->time_tolerance;
  out.max_steps = o->max_steps;
  out.distance = sovc_api_options(&o->distance);
  return out;
}

/* Shapes (sov_shape_get checks them), motions (into mA, mB) and options,
 * in order. */
static int check_toc_query(const sov_shape *A, const sov_motion *MA, const sov_shape *B,
                           const sov_motion *MB, const sov_toc_options *options, sovc_motion *mA,
                           sovc_motion *mB) {
  sov_shape_info info;
  int st = sov_shape_get(&info, A);
  if (st == SOV_OK) st = motion_in(mA, MA);
  if (st == SOV_OK) st = sov_shape_get(&info, B);
  if (st == SOV_OK) st = motion_in(mB, MB);
  if (st == SOV_OK && options) st = check_toc_options(options);
  return st;
}

/* The solver's answer as the public result. */
static void toc_result_to_public(sov_toc_result *out, const sovc_toc_result *r) {
  out->contact = r->contact;
  out->t = r->t;
  out->d = r->at.d;
  for (int i = 0; i < 3; ++i) {
    out->n[i] = r->at.n[i];
    out->pA[i] = r->at.pA[i];
    out->pB[i] = r->at.pB[i];
    out->point[i] = 0.5 * (r->at.pA[i] + r->at.pB[i]);
  }
  out->steps = r->steps;
  out->iterations = r->iterations;
  out->failures = r->failures;
}

/* Time of first contact. */
int sov_time_of_contact(sov_toc_result *result, const sov_shape *A, const sov_motion *MA,
                        const sov_shape *B, const sov_motion *MB, const sov_toc_options *options,
                        sov_cache *cache) {
  if (!result) return SOV_ERR_NULL;
  sovc_motion mA, mB;
  const int st = check_toc_query(A, MA, B, MB, options, &mA, &mB);
  if (st != SOV_OK) return st;
  sov_toc_options defaults;
  sov_toc_options_default(&defaults);
  const sovc_toc_options opt = toc_options_from_public(options ? options : &defaults);
  sovc_toc_result r;
  const int status = sovc_time_of_contact(&r, sovc_shape_of(A), &mA, sovc_shape_of(B), &mB,
                                          &opt, cache ? sovc_cache_of(cache) : NULL);
  toc_result_to_public(result, &r);
  return status;
}

/* The rounding floor of conservative advancement (solver/ccd.c's). */
int sov_toc_rounding_floor(double *allowance, double *contact, double scale, double tolerance) {
  if (!allowance && !contact) return SOV_ERR_NULL;
  if (!isfinite(scale) || !isfinite(tolerance)) return SOV_ERR_NONFINITE;
  if (scale < 0 || tolerance < 0) return SOV_ERR_OPTION;
  if (allowance) *allowance = sovc_gap_allowance(scale);
  if (contact) *contact = sovc_contact_distance(tolerance, scale);
  return SOV_OK;
}
