/* One damped-Newton driver for every chart: the default method's position,
 * normal, mixed and angle charts and the study's three schemes. A chart
 * says how to evaluate its unknowns, when an iterate is an answer, how to
 * form a step and which trial point of the line search to take; the driver
 * owns the loop. */
#ifndef SOLVER_NEWTON_H
#define SOLVER_NEWTON_H

#include <math.h>
#include <stddef.h>

#include "solver/types.h"

/* Step halvings a chart's backtracking line search tries before the chart
 * gives up. A Newton step that needs more makes almost no progress (on the
 * stress battery the steps accepted after more halvings moved the iterate
 * by about 1e-4 of the body's size), and the default method does better
 * handing over to its next chart than grinding on. The position chart,
 * the first and cheapest, gets a few more: with 5 it failed on 3 % more
 * pairs, and the stress battery's median rose by 5 %. */
enum { SOVC_CHART_HALVINGS = 5, SOVC_POSITION_CHART_HALVINGS = 8 };

/* A chart hook: inlined into its solve by sovc_newton_run. */
#define SOVC_HOOK __attribute__((always_inline))

/* Most unknowns of a chart (the position chart's two points). */
enum { SOVC_NEWTON_MAX_UNKNOWNS = 6 };

/* What every chart's iterate starts with: its unknowns, the merit the line
 * search compares (a residual norm, or the objective of the normal chart)
 * and the step length by which the driver reached it (0 for the start). A
 * chart's own iterate type has this as its first member. */
typedef struct sovc_newton_iterate {
  double x[SOVC_NEWTON_MAX_UNKNOWNS];
  double merit;
  double alpha;
} sovc_newton_iterate;

/* Answers of a chart's hooks (besides sov_status values). */
enum {
  SOVC_NEWTON_GO = 1,      /* go on */
  SOVC_NEWTON_STOP = 2,    /* stop, not converged */
  SOVC_NEWTON_DONE = 3,    /* stop: the current iterate is the answer */
  SOVC_NEWTON_FINISHED = 4 /* stop: the chart finished from the step itself */
};

/* A caller's verdict on a chart's iterates (a collide's: the bodies proved
 * apart or overlapping), asked where the caller gives one: decide(ctx, v,
 * pA, pB, f) with unit world direction v from A towards B, points pA of A
 * and pB of B, f = v . (pA - pB). Nonzero ends the chart, which returns
 * SOVC_DECIDED; decide keeps its answer in ctx. */
typedef struct sovc_verdict {
  int (*decide)(void *ctx, const double v[3], const double pA[3], const double pB[3], double f);
  void *ctx;
} sovc_verdict;

/* A chart's status where the caller's verdict decided (not a sov_status:
 * no answer, nothing wrong). */
enum { SOVC_DECIDED = 2 };

/* A chart: its unknowns, the policies of its line search, and its hooks,
 * each given the chart's context. */
typedef struct sovc_newton_chart {
  int n;              /* unknowns */
  int max_iterations; /* Newton steps at most */
  int halvings;       /* line-search trials per step (1: full steps) */
  double max_step;    /* longest first trial step (INFINITY: none) */
  int finite_merit;   /* 1: stop once the merit is not finite */
  int final_test;     /* 1: test the last iterate when the steps run out */
  /* Evaluate t at t->x; from is the iterate the step starts from (NULL for
   * a start), for hints. May adjust t->x (wrap, normalise). Returns the
   * merit. */
  double (*evaluate)(void *ctx, sovc_newton_iterate *t, const sovc_newton_iterate *from);
  /* SOVC_NEWTON_DONE if x is an answer, else SOVC_NEWTON_GO. */
  int (*test)(void *ctx, sovc_newton_iterate *x);
  /* The Newton step from x (it: the step's index), counting it in
   * *iterations when taken: SOV_OK to take it, SOVC_NEWTON_STOP,
   * SOVC_NEWTON_FINISHED, or a failure status to return. */
  int (*step)(void *ctx, sovc_newton_iterate *x, double *step, int it, int *iterations);
  /* 1 if trial t (step length alpha from x) ends the line search. */
  int (*accept)(void *ctx, const sovc_newton_iterate *t, const sovc_newton_iterate *x,
                double alpha);
  /* After the line search: SOVC_NEWTON_GO to move to t, SOVC_NEWTON_STOP,
   * or SOVC_NEWTON_DONE if x is nevertheless an answer. */
  int (*stalled)(void *ctx, const sovc_newton_iterate *t, const sovc_newton_iterate *x);
} sovc_newton_chart;

/* Armijo's sufficient decrease of a residual norm: accept t when its merit
 * is at most (1 - 1e-4 alpha) times x's. */
static inline int sovc_newton_armijo(void *ctx, const sovc_newton_iterate *t,
                                     const sovc_newton_iterate *x, double alpha);

/* Every full step: the study's undamped schemes. */
static inline int sovc_newton_full_step(void *ctx, const sovc_newton_iterate *t,
                                        const sovc_newton_iterate *x, double alpha);

/* Stalled where the line search ended without any decrease. */
static inline int sovc_newton_decreased(void *ctx, const sovc_newton_iterate *t,
                                        const sovc_newton_iterate *x);

/* Newton from the evaluated iterate x (t: room for trials). Returns SOV_OK
 * (an answer), SOVC_NEWTON_FINISHED (the step hook's own finish),
 * SOV_ERR_NO_CONVERGENCE or the step hook's failure status; *out is the
 * iterate it ended on (x or t), *iterations the steps counted. Inlined into
 * each chart's solve (always_inline, in this header): with the chart a
 * constant there, the compiler calls (and inlines) its hooks directly, and
 * the loop costs what each chart's own loop did (called through pointers,
 * the position chart ran 28 % more instructions). */
static inline int sovc_newton_run(sovc_newton_iterate **out, int *iterations,
                                  const sovc_newton_chart *c, void *ctx, sovc_newton_iterate *x,
                                  sovc_newton_iterate *t);

/* ---- definitions of the inline driver and hooks ---- */

/* First trial step length: 1, or less where the step is longer than the
 * chart's longest. */
static inline double sovc_newton_first_alpha(const sovc_newton_chart *c, const double *step) {
  if (!isfinite(c->max_step)) return 1;
  double s = 0;
  for (int i = 0; i < c->n; ++i) s += step[i] * step[i];
  const double norm = sqrt(s);
  return norm > c->max_step ? c->max_step / norm : 1;
}

/* Backtracking line search from x along step into t; returns the length of
 * the last trial. */
static inline double sovc_newton_line_search(const sovc_newton_chart *c, void *ctx,
                                             sovc_newton_iterate *t, const sovc_newton_iterate *x,
                                             const double *step) {
  double alpha = sovc_newton_first_alpha(c, step);
  for (int ls = 0; ls < c->halvings; ++ls, alpha *= 0.5) {
    for (int i = 0; i < c->n; ++i) t->x[i] = x->x[i] + alpha * step[i];
    t->merit = c->evaluate(ctx, t, x);
    if (c->accept(ctx, t, x, alpha)) break;
  }
  return alpha;
}

/* See above. */
static inline int sovc_newton_armijo(void *ctx, const sovc_newton_iterate *t,
                                     const sovc_newton_iterate *x, double alpha) {
  (void)ctx;
  return t->merit <= (1 - 1e-4 * alpha) * x->merit;
}

/* See above. */
static inline int sovc_newton_full_step(void *ctx, const sovc_newton_iterate *t,
                                        const sovc_newton_iterate *x, double alpha) {
  (void)ctx, (void)t, (void)x, (void)alpha;
  return 1;
}

/* See above. */
static inline int sovc_newton_decreased(void *ctx, const sovc_newton_iterate *t,
                                        const sovc_newton_iterate *x) {
  (void)ctx;
  return t->merit < x->merit ? SOVC_NEWTON_GO : SOVC_NEWTON_STOP;
}

/* See above. */
static inline __attribute__((always_inline)) int sovc_newton_run(sovc_newton_iterate **out,
                                                                 int *iterations,
                                                                 const sovc_newton_chart *c,
                                                                 void *ctx, sovc_newton_iterate *x,
                                                                 sovc_newton_iterate *t) {
  double step[SOVC_NEWTON_MAX_UNKNOWNS];
  *iterations = 0;
  *out = x;
  for (int it = 0; it < c->max_iterations && (!c->finite_merit || isfinite(x->merit)); ++it) {
    if (c->test(ctx, x) == SOVC_NEWTON_DONE) return *out = x, SOV_OK;
    const int st = c->step(ctx, x, step, it, iterations);
    if (st == SOVC_NEWTON_FINISHED) return *out = x, st;
    if (st == SOVC_NEWTON_STOP) break;
    if (st != SOV_OK) return *out = x, st;
    t->alpha = sovc_newton_line_search(c, ctx, t, x, step);
    const int next = c->stalled(ctx, t, x);
    if (next == SOVC_NEWTON_DONE) return *out = x, SOV_OK;
    if (next == SOVC_NEWTON_STOP) break;
    sovc_newton_iterate *swap = x;
    x = t;
    t = swap;
    *out = x;
  }
  if (c->final_test && (!c->finite_merit || isfinite(x->merit)) &&
      c->test(ctx, x) == SOVC_NEWTON_DONE)
    return SOV_OK;
  return SOV_ERR_NO_CONVERGENCE;
}

#endif
