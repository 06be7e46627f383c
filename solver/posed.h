/* A shape at a pose, evaluated in world coordinates: the building blocks
 * every Newton formulation shares (implicit value and derivatives, support
 * point and its derivative, a Householder tangent frame). */
#ifndef SOLVER_POSED_H
#define SOLVER_POSED_H

#include "solver/types.h"

/* Implicit F (or normalised G) at a world point, world gradient, unit
 * outward normal, |gradient| and (optionally) the Hessian, local (Hl) and
 * world (H). */
typedef struct sovc_implicit_eval {
  double f, g[3], H[9], Hl[9], n[3], gnorm, inv_gnorm; /* inv_gnorm 0 where gnorm is */
  double gl[3];                                        /* g in the body's frame */
} sovc_implicit_eval;

/* want_hessian of sovc_posed_implicit: none, local and world, or local
 * only (world later by sovc_posed_hessian, when a Newton step needs it:
 * not at the point that turns out converged). */
enum { SOVC_NO_HESSIAN = 0, SOVC_WORLD_HESSIAN = 1, SOVC_LOCAL_HESSIAN = 2 };

/* Evaluate e at world point p; normalized selects G over F. */
void sovc_posed_implicit(sovc_implicit_eval *e, const sovc_shape *S,
                         const sovc_pose *X, const double p[3], int normalized,
                         int want_hessian);

/* e as a SOVC_LOCAL_HESSIAN evaluation of the raw F at the world point p
 * of a cached evaluation c (sovc_cache), without evaluating F again. */
void sovc_posed_from_cache(sovc_implicit_eval *e, double p[3], const sovc_cache_eval *c,
                           const sovc_pose *X);

/* The raw F's evaluation e at world point p (with its local Hessian), in
 * the body's frame for a cache. */
void sovc_posed_to_cache(sovc_cache_eval *c, const sovc_implicit_eval *e, const sovc_pose *X,
                         const double p[3]);

/* e->H = R e->Hl R^T: the world Hessian after a SOVC_LOCAL_HESSIAN
 * evaluation. */
void sovc_posed_hessian(sovc_implicit_eval *e, const sovc_pose *X);

/* Distance of world point p from the posed body's surface to first order:
 * |G| / |grad G| with the normalised implicit function (INFINITY where the
 * gradient vanishes). */
double sovc_off_surface(const sovc_shape *S, const sovc_pose *X, const double p[3]);

/* Where the line p + s dir (s >= 0, unit dir) leaves the posed body;
 * p itself if p is not inside. reach: the exit is known to lie at s <=
 * reach (INFINITY: not known; the bisection then goes to the last bit of
 * s, else to the coordinates' rounding). */
void sovc_exit_point(double out[3], const sovc_shape *S, const sovc_pose *X, const double p[3],
                     const double dir[3], double reach);

/* 1 if world point p is strictly inside the posed body (F < 0). */
int sovc_posed_inside(const sovc_shape *S, const sovc_pose *X, const double p[3]);

/* Row vector out = u^T dn/dp = u^T (I - n n^T) H / |g| (needs the Hessian). */
void sovc_dnormal(double out[3], const sovc_implicit_eval *e, const double u[3]);

/* Support point p (world) and h = v . p for unit world direction v; z is the
 * support's z / a3, read as a hint on entry (NAN for none), set on exit. */
typedef struct sovc_support_eval {
  double p[3], h, D[9], z;
} sovc_support_eval;

/* Fill p, h, z of e for direction v. */
void sovc_posed_support(sovc_support_eval *e, const sovc_shape *S,
                        const sovc_pose *X, const double v[3]);

/* Fill e->D = dp/dv (world, tangent to v) by the implicit function theorem:
 * |grad F| T (T^T H T)^-1 T^T at the support point. Returns 0 where the
 * tangential Hessian is not positive definite (flat point). */
int sovc_support_derivative(sovc_support_eval *e, const sovc_shape *S,
                            const sovc_pose *X, const double v[3]);

/* Householder tangent frame of a unit normal n: with k = argmax |n_k|,
 * Q = I - beta w w^T, w = n + sigma e_k maps e_k to -sigma n; t = Q e_i,
 * b = Q e_j (i, j the other axes) span the tangent plane. */
typedef struct sovc_frame {
  int k, i, j;
  double sigma, beta, t[3], b[3];
} sovc_frame;

/* Frame of unit n. */
void sovc_frame_make(sovc_frame *F, const double n[3]);

/* Row vector out = v^T dq/dn for q = t (which = 0) or b (which = 1), with
 * the frame's axis held fixed. */
void sovc_frame_dvec(double out[3], const sovc_frame *F, const double n[3],
                     int which, const double v[3]);

#endif
