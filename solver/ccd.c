/* Continuous collision by conservative advancement on the certified signed
 * distance (ccd.h). */
#include "solver/ccd.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "solver/distance.h"
#include "solver/pose.h"
#include "solver/support.h"

/* |a|. */
static double norm3(const double a[3]) { return sqrt(sovc_dot(a, a)); }

/* C = A B of row-major 3x3 matrices (C may not alias A or B). */
static void matmul3(double C[9], const double A[9], const double B[9]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

/* Unit quaternion w x y z of a rotation matrix with w >= 0: Shepperd's
 * method, which divides by the largest of 4w^2, 4x^2, 4y^2, 4z^2 and so
 * stays accurate at half a turn, where w is 0. */
static void quat_of_matrix(double q[4], const double R[9]) {
  const double tr = R[0] + R[4] + R[8];
  if (tr >= R[0] && tr >= R[4] && tr >= R[8]) {
    const double s = 2 * sqrt(fmax(tr + 1, 0));
    q[0] = s / 4, q[1] = (R[7] - R[5]) / s, q[2] = (R[2] - R[6]) / s, q[3] = (R[3] - R[1]) / s;
  } else if (R[0] >= R[4] && R[0] >= R[8]) {
    const double s = 2 * sqrt(fmax(1 + R[0] - R[4] - R[8], 0));
    q[0] = (R[7] - R[5]) / s, q[1] = s / 4, q[2] = (R[1] + R[3]) / s, q[3] = (R[2] + R[6]) / s;
  } else if (R[4] >= R[8]) {
    const double s = 2 * sqrt(fmax(1 + R[4] - R[0] - R[8], 0));
    q[0] = (R[2] - R[6]) / s, q[1] = (R[1] + R[3]) / s, q[2] = s / 4, q[3] = (R[5] + R[7]) / s;
  } else {
    const double s = 2 * sqrt(fmax(1 + R[8] - R[0] - R[4], 0));
    q[0] = (R[3] - R[1]) / s, q[1] = (R[2] + R[6]) / s, q[2] = (R[5] + R[7]) / s, q[3] = s / 4;
  }
  if (q[0] < 0)
    for (int i = 0; i < 4; ++i) q[i] = -q[i];
}

/* Rotation matrix by angle about the unit axis (Rodrigues). */
static void axis_angle_matrix(double R[9], const double u[3], double angle) {
  const double c = cos(angle), s = sin(angle), k = 1 - c;
  R[0] = c + k * u[0] * u[0], R[1] = k * u[0] * u[1] - s * u[2], R[2] = k * u[0] * u[2] + s * u[1];
  R[3] = k * u[0] * u[1] + s * u[2], R[4] = c + k * u[1] * u[1], R[5] = k * u[1] * u[2] - s * u[0];
  R[6] = k * u[0] * u[2] - s * u[1], R[7] = k * u[1] * u[2] + s * u[0], R[8] = c + k * u[2] * u[2];
}

/* Linear translation; the rotation R1 R0^T as an axis and an angle in
 * [0, pi], from its quaternion (w >= 0: the shortest arc, so that poses
 * given as q and -q, the same rotation, give no turn at all). */
void sovc_motion_init(sovc_motion *m, const sovc_pose *X0, const sovc_pose *X1) {
  m->start = *X0;
  double Rt[9], D[9], q[4];
  for (int i = 0; i < 3; ++i) {
    m->v[i] = X1->p[i] - X0->p[i];
    for (int j = 0; j < 3; ++j) Rt[3 * i + j] = X0->R[3 * j + i];
  }
  matmul3(D, X1->R, Rt);
  quat_of_matrix(q, D);
  const double s = norm3(q + 1);
  m->angle = 2 * atan2(s, q[0]);
  if (s > 0) {
    for (int i = 0; i < 3; ++i) m->axis[i] = q[1 + i] / s;
  } else {
    m->axis[0] = 1, m->axis[1] = 0, m->axis[2] = 0;
    m->angle = 0;
  }
}

/* Rot(axis, t angle) R0 and p0 + t v. */
void sovc_motion_pose(sovc_pose *X, const sovc_motion *m, double t) {
  for (int i = 0; i < 3; ++i) X->p[i] = m->start.p[i] + t * m->v[i];
  if (m->angle == 0) {
    memcpy(X->R, m->start.R, sizeof X->R);
    return;
  }
  double D[9];
  axis_angle_matrix(D, m->axis, t * m->angle);
  matmul3(X->R, D, m->start.R);
}

/* |n . (w x y)| = |y . (n x w)| <= |n x w| |y| for a point y of a body
 * relative to its origin, and the origin moves along n at n . v: the
 * support of A along n grows at most at n . vA + |n x wA| rA, that of B
 * along -n at -n . vB + |n x wB| rB (the motions' v and w are constant). */
double sovc_motion_bound(const sovc_motion *mA, double rA, const sovc_motion *mB, double rB,
                         const double n[3]) {
  double c[3];
  double mu = sovc_dot(n, mA->v) - sovc_dot(n, mB->v);
  sovc_cross(c, n, mA->axis);
  mu += norm3(c) * mA->angle * rA;
  sovc_cross(c, n, mB->axis);
  mu += norm3(c) * mB->angle * rB;
  return mu;
}

/* n . (pB - pA) minus the local supports of A along n and of B along -n. */
double sovc_support_gap(const sovc_pair *P, const double n[3]) {
  double lA[3], lB[3], x[3], mn[3] = {-n[0], -n[1], -n[2]};
  sovc_rotate_t(lA, P->XA->R, n);
  sovc_rotate_t(lB, P->XB->R, mn);
  const double off = n[0] * (P->XB->p[0] - P->XA->p[0]) + n[1] * (P->XB->p[1] - P->XA->p[1]) +
                     n[2] * (P->XB->p[2] - P->XA->p[2]);
  return off - sovc_support(x, P->A, lA, NAN) - sovc_support(x, P->B, lB, NAN);
}

/* Rounding allowance on a support gap computed from numbers of size scale
 * (the positions and the bodies' sizes): a few ulps of the largest term. */
double sovc_gap_allowance(double scale) {
  return 64 * DBL_EPSILON * scale;
}

/* The distance at which bodies count as touching: the tolerance asked for,
 * or twice the gap's rounding allowance where that is larger (closer than
 * that, the certified gap, less its allowance, proves no step). */
double sovc_contact_distance(double tolerance, double scale) {
  return fmax(tolerance, 2 * sovc_gap_allowance(scale));
}

/* Size of the numbers in a support gap of the bodies of P. */
static double gap_scale(const sovc_pair *P) {
  return norm3(P->XA->p) + norm3(P->XB->p) + P->A->radius + P->B->radius;
}

/* Rounding allowance on a support gap of the bodies of P. */
static double gap_slack(const sovc_pair *P) {
  return sovc_gap_allowance(gap_scale(P));
}

/* The distance at which the bodies of P count as touching. */
static double contact_distance(const sovc_toc_options *o, const sovc_pair *P) {
  return sovc_contact_distance(o->distance_tolerance, gap_scale(P));
}

/* The advancement's fixed inputs and running state. */
typedef struct ccd_run {
  const sovc_shape *A, *B;
  const sovc_motion *mA, *mB;
  const sovc_toc_options *o;
  sovc_cache *cache;
  double n[3];  /* normal of the last answer */
  int have_n;   /* n holds one */
} ccd_run;

/* Outcome of one step of the advancement. */
enum { kStepOn = 0, kStepContact = 1, kStepFree = 2 };

/* A certified lower bound on the distance at the poses of P from a
 * distance answer (st == SOV_OK) or, when the query failed, from the last
 * answer's normal; NaN when neither certifies anything. */
static double certified_lower(ccd_run *run, const sovc_pair *P, const sovc_result *res, int st) {
  double lower;
  if (st == SOV_OK) {
    memcpy(run->n, res->n, sizeof run->n);
    run->have_n = 1;
    lower = fmin(res->d, sovc_support_gap(P, res->n));
  } else {
    if (!run->have_n) return NAN;
    lower = sovc_support_gap(P, run->n);
  }
  lower -= gap_slack(P);
  return lower > 0 ? lower : NAN;
}

/* True when the boolean test proves the bodies of P overlapping where the
 * distance failed (identical bodies at one pose): r->at then says that no
 * depth, normal or witness is known (NaN). */
static int overlap_proved(sovc_toc_result *r, const sovc_pair *P, const sovc_options *o) {
  int colliding = 0;
  if (sovc_collide(&colliding, P, o, NULL) != SOV_OK || !colliding) return 0;
  r->at.d = NAN;
  for (int i = 0; i < 3; ++i) r->at.n[i] = r->at.pA[i] = r->at.pB[i] = NAN;
  return 1;
}

/* One distance query at time r->t and the advancement it allows: contact,
 * free to t = 1, on to a later r->t, or a failure status (negative). */
static int advance(sovc_toc_result *r, ccd_run *run) {
  sovc_pose XA, XB;
  sovc_motion_pose(&XA, run->mA, r->t);
  sovc_motion_pose(&XB, run->mB, r->t);
  const sovc_pair P = {run->A, &XA, run->B, &XB, 1};
  sovc_result res = r->at;
  const int st = sovc_distance(&res, &P, &run->o->distance, run->cache);
  ++r->steps;
  if (st == SOV_OK) {
    r->at = res;
    r->iterations += res.iterations;
    if (res.d <= contact_distance(run->o, &P)) return kStepContact;
  } else if (!run->have_n && overlap_proved(r, &P, &run->o->distance)) {
    return kStepContact;
  }
  const double lower = certified_lower(run, &P, &res, st);
  if (isnan(lower)) return st != SOV_OK ? st : SOV_ERR_NO_CONVERGENCE;
  if (st != SOV_OK) ++r->failures;
  const double mu = sovc_motion_bound(run->mA, run->A->radius, run->mB, run->B->radius, run->n);
  if (!(mu > 0)) return kStepFree; /* the gap along n never shrinks */
  const double step = lower / mu;
  if (r->t >= 1 || step > 1 - r->t) return kStepFree;
  if (step < run->o->time_tolerance) return st == SOV_OK ? kStepContact : st;
  r->t += step;
  return kStepOn;
}

/* Conservative advancement: every step certified by advance, until
 * contact, t = 1 or max_steps. */
int sovc_time_of_contact(sovc_toc_result *r, const sovc_shape *A, const sovc_motion *mA,
                         const sovc_shape *B, const sovc_motion *mB, const sovc_toc_options *o,
                         sovc_cache *cache) {
  sovc_cache local;
  if (!cache) {
    memset(&local, 0, sizeof local);
    cache = &local;
  }
  ccd_run run = {A, B, mA, mB, o, cache, {0, 0, 0}, 0};
  memset(r, 0, sizeof *r);
  r->t = 0;
  while (r->steps < o->max_steps) {
    const int s = advance(r, &run);
    if (s == kStepContact) {
      r->contact = 1;
      return SOV_OK;
    }
    if (s == kStepFree) {
      r->t = 1;
      return SOV_OK;
    }
    if (s < 0) return s;
  }
  return SOV_ERR_NO_CONVERGENCE;
}
