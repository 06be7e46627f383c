/* Certificate that a local overlap answer is the global one: inner balls
 * of both bodies tangent at the witnesses (see inner_ball.c). */
#ifndef SOLVER_INNER_BALL_H
#define SOLVER_INNER_BALL_H

#include "solver/types.h"

/* Ranges [Hlo, Hhi] (row-major) of the entries of the Hessian of the
 * SPEC's F over the local box [lo, hi], by interval arithmetic (infinite
 * where F is not twice differentiable: pointy tips and edges); 0 where the
 * taper factors vanish in the box. */
int sovc_hessian_ranges(double Hlo[9], double Hhi[9], const sovc_shape *S, const double lo[3],
                        const double hi[3]);

/* Upper bound of the largest eigenvalue of the Hessian of the SPEC's F over
 * the local box [lo, hi]; INFINITY where F is not twice differentiable
 * there (pointy tips and edges) or the taper factors vanish. */
double sovc_hessian_bound(const sovc_shape *S, const double lo[3], const double hi[3]);

/* 1 if the ball of radius r tangent at local surface point x (its centre
 * r inside along the normal) is proved to lie in the body. */
int sovc_inner_ball_fits(const sovc_shape *S, const double x[3], double r);

/* Nearly the largest radius in [lo, hi) of such a ball at x, given that lo
 * fits and hi does not, after the given number of bisections; lo where x
 * has no usable normal. */
double sovc_inner_ball_bisect(const sovc_shape *S, const double x[3], double lo, double hi,
                              int bisections);

/* 1 if r (d < 0, witnesses on their surfaces) is proved to be the largest
 * value of the objective within tol; 0 if the balls that fit do not prove
 * it (the answer may still be right). */
int sovc_inner_balls_certify(const sovc_result *r, const sovc_pair *P, double tol);

/* sovc_inner_balls_certify, and where it proves r also balls for a warm
 * start's cache (*kept = 1): grown from the proof's, they fit anywhere
 * in a box around them (see sovc_cache_ball), so that
 * sovc_kept_balls_certify may prove the next answer of the pair moved a
 * little without a new Hessian bound. prev (NULL if none) are the balls
 * the cache held before: how far the balls moved since, the box allows
 * again where the bound still fits. */
int sovc_inner_balls_certify_keep(sovc_cache_ball keep[2], int *kept, const sovc_result *r,
                                  const sovc_pair *P, double tol, const sovc_cache_ball prev[2]);

/* 1 if the kept balls of a cache (A's, B's), tangent at r's witnesses
 * (d < 0, on their surfaces), fit in their boxes and prove r within tol
 * as sovc_inner_balls_certify does; 0 if they do not prove it. */
int sovc_kept_balls_certify(const sovc_cache_ball kept[2], const sovc_result *r, const sovc_pair *P,
                            double tol);

/* 1 if r (d < 0, witnesses on their surfaces) is proved to be the largest
 * value of the objective within tol over a cap of directions around r's
 * normal n: every unit v with v . n >= *cos_cap has
 * -(h_A(v) + h_B(-v)) <= d + tol. Disks tangent at the witnesses, in the
 * planes through n, that lie in the bodies over the cap and whose radii sum
 * to the depth in every tangent direction give the bound; caps are tried
 * from about 30 degrees down to 0.3; 0 if none is proved. */
int sovc_proved_cap(double *cos_cap, const sovc_result *r, const sovc_pair *P, double tol);

/* Radius (at most rmax) of the disks tangent at local surface point x, in
 * the planes of its normal m and t = cos(psi) l1 + sin(psi) l2 (l1, l2 a
 * unit tangent basis) for psi within half of the given psi, whose points
 * x + r (u - m) for unit u in that plane within theta of m are proved to
 * lie in the body; 0 if none is. The cap proof's building block. */
double sovc_cap_disk_radius(const sovc_shape *S, const double x[3], const double l1[3],
                            const double l2[3], double rmax, double theta, double psi,
                            double half);

#endif
