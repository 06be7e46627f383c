/* Direction-space Newton on the support-function objective (SPEC). */
#include "solver/direction.h"

#include <math.h>
#include <string.h>

#include "solver/pose.h"
#include "solver/posed.h"
#include "solver/result.h"

/* Longest tangent step tried first (radians, to first order). */
static const double kMaxTangentStep = 1;

/* f(v) = h_A(v) + h_B(-v) with both support evaluations. */
static double objective(sovc_support_eval *a, sovc_support_eval *b, const sovc_pair *P,
                        const double v[3]) {
  const double mv[3] = {-v[0], -v[1], -v[2]};
  sovc_posed_support(a, P->A, P->XA, v);
  sovc_posed_support(b, P->B, P->XB, mv);
  return a->h + b->h;
}

/* D_A + D_B - f I on the tangent frame (see direction.h). */
void sovc_sphere_hessian(double m[3], const sovc_support_eval *a, const sovc_support_eval *b,
                         const sovc_frame *fr, double f) {
  double M[9], Mt[3], Mb[3];
  for (int i = 0; i < 9; ++i) M[i] = a->D[i] + b->D[i];
  sovc_rotate(Mt, M, fr->t);
  sovc_rotate(Mb, M, fr->b);
  m[0] = fr->t[0] * Mt[0] + fr->t[1] * Mt[1] + fr->t[2] * Mt[2] - f;
  m[1] = fr->t[0] * Mb[0] + fr->t[1] * Mb[1] + fr->t[2] * Mb[2];
  m[2] = fr->b[0] * Mb[0] + fr->b[1] * Mb[1] + fr->b[2] * Mb[2] - f;
}

/* Newton step in the tangent plane of v: (D_A + D_B - f I) s = -P (pA - pB),
 * with the Hessian shifted to positive definite when it is not. */
static int newton_step(double step[3], const sovc_support_eval *a, const sovc_support_eval *b,
                       const double v[3], double f) {
  double g[3], m[3];
  sovc_frame fr;
  sovc_frame_make(&fr, v);
  const double *t = fr.t, *u = fr.b;
  sovc_sphere_hessian(m, a, b, &fr, f);
  double m00 = m[0], m01 = m[1], m11 = m[2];
  for (int i = 0; i < 3; ++i) g[i] = a->p[i] - b->p[i];
  const double g0 = t[0] * g[0] + t[1] * g[1] + t[2] * g[2];
  const double g1 = u[0] * g[0] + u[1] * g[1] + u[2] * g[2];
  /* Smallest eigenvalue; shift so it is at least a fraction of the largest. */
  const double tr = m00 + m11, dt = m00 * m11 - m01 * m01;
  const double disc = sqrt(fmax(0, tr * tr / 4 - dt));
  const double lmin = tr / 2 - disc, lmax = tr / 2 + disc;
  const double floor_ = 1e-8 * fmax(fabs(lmax), 1e-300);
  if (lmin < floor_) {
    m00 += floor_ - lmin;
    m11 += floor_ - lmin;
  }
  const double det = m00 * m11 - m01 * m01;
  if (!(det > 0) || !isfinite(det)) return 0;
  const double s0 = -(m11 * g0 - m01 * g1) / det, s1 = -(m00 * g1 - m01 * g0) / det;
  for (int i = 0; i < 3; ++i) step[i] = s0 * t[i] + s1 * u[i];
  return 1;
}

/* Tangential part of pA - pB: the gradient of f on the sphere. */
static double gradient_norm(const sovc_support_eval *a, const sovc_support_eval *b,
                            const double v[3]) {
  double g[3] = {a->p[0] - b->p[0], a->p[1] - b->p[1], a->p[2] - b->p[2]};
  const double gv = g[0] * v[0] + g[1] * v[1] + g[2] * v[2];
  for (int i = 0; i < 3; ++i) g[i] -= gv * v[i];
  return sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
}

/* Unit vector of v + s. */
static void retract(double out[3], const double v[3], const double s[3]) {
  double w[3] = {v[0] + s[0], v[1] + s[1], v[2] + s[2]};
  const double n = 1 / sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  for (int i = 0; i < 3; ++i) out[i] = w[i] * n;
}

/* Fill result from the supports at unit v: n = v, d = -f. */
static int answer(sovc_result *res, const sovc_support_eval *a, const sovc_support_eval *b,
                  const double v[3], double f, double gap) {
  res->d = -f;
  for (int i = 0; i < 3; ++i) {
    res->n[i] = v[i];
    res->pA[i] = a->p[i];
    res->pB[i] = b->p[i];
  }
  res->residual = gap;
  res->method = SOVC_METHOD_AUTO;
  return SOV_OK;
}

/* Newton with Armijo backtracking on f. */
int sovc_solve_direction(sovc_result *res, const sovc_pair *P, const double v0[3], double tol,
                         int max_iterations) {
  sovc_support_eval a = {.z = NAN}, b = {.z = NAN}, ta, tb;
  double v[3], step[3], vt[3];
  retract(v, v0, (const double[3]){0, 0, 0});
  double f = objective(&a, &b, P, v);
  res->iterations = 0;
  double last_gn = INFINITY;
  for (int it = 0; it < max_iterations; ++it) {
    /* Error in d: for separated bodies |pB - pA| - |d| bounds it (quadratic
     * in the tangential gradient). For an overlap it does not: the error is
     * about half the Newton decrement g^T M^-1 g, large near a flat optimum
     * (small curvature M) even when the gap is tiny. Once the error is
     * small, iterate on while the gradient still shrinks fast (pointy
     * supports: it does, and the witnesses become consistent); stop when it
     * stalls (a flat face's support point is ill-determined, d is not: the
     * witnesses are then balanced by the caller). */
    const double gn = gradient_norm(&a, &b, v);
    const double gap = sqrt(f * f + gn * gn) - fabs(f);
    const double L = sovc_coordinate_size(a.p, b.p);
    const double mv[3] = {-v[0], -v[1], -v[2]};
    const int have_step = sovc_support_derivative(&a, P->A, P->XA, v) &&
                          sovc_support_derivative(&b, P->B, P->XB, mv) &&
                          newton_step(step, &a, &b, v, f);
    double slope = 0;
    for (int i = 0; have_step && i < 3; ++i) slope += step[i] * (a.p[i] - b.p[i]);
    const double err = f > 0 && have_step ? fmax(gap, -0.5 * slope) : gap;
    if (err < tol * L && (gn < tol * L || gn > 0.25 * last_gn || !have_step))
      return answer(res, &a, &b, v, f, err);
    last_gn = gn;
    if (!have_step) break;
    res->iterations = it + 1;
    /* A tangent step longer than kMaxTangentStep only turns v further
     * towards the step's own direction; where the curvature nearly vanishes
     * (edges, corners) Newton's step is 1e6 or more, and halving it down
     * from there cost 20 to 30 support pairs per iteration. */
    const double step_norm = sqrt(sovc_dot(step, step));
    double alpha = step_norm > kMaxTangentStep ? kMaxTangentStep / step_norm : 1, ft = INFINITY;
    for (int ls = 0; ls < 40; ++ls, alpha *= 0.5) {
      for (int i = 0; i < 3; ++i) vt[i] = alpha * step[i];
      retract(vt, v, vt);
      ta.z = a.z;
      tb.z = b.z;
      ft = objective(&ta, &tb, P, vt);
      if (ft <= f + 1e-4 * alpha * fmin(slope, 0)) break;
    }
    if (!(ft <= f)) {
      /* No descent left: converged in d if the error bound says so. */
      if (err < tol * L) return answer(res, &a, &b, v, f, err);
      break;
    }
    memcpy(v, vt, sizeof v);
    a = ta;
    b = tb;
    f = ft;
  }
  return SOV_ERR_NO_CONVERGENCE;
}
