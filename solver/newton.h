/* One damped-Newton driver for every chart: the default method's position,
 * normal, mixed and angle charts and the study's three schemes. A chart
 * says how to evaluate its unknowns, when an iterate is an answer, how to
 * form a step and which trial point of the line search to take; the driver
 * owns the loop. */
#ifndef SOLVER_NEWTON_H
#define SOLVER_NEWTON_H

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
int sovc_newton_armijo(void *ctx, const sovc_newton_iterate *t, const sovc_newton_iterate *x,
                       double alpha);

/* Every full step: the study's undamped schemes. */
int sovc_newton_full_step(void *ctx, const sovc_newton_iterate *t, const sovc_newton_iterate *x,
                          double alpha);

/* Stalled where the line search ended without any decrease. */
int sovc_newton_decreased(void *ctx, const sovc_newton_iterate *t, const sovc_newton_iterate *x);

/* Newton from the evaluated iterate x (t: room for trials). Returns SOV_OK
 * (an answer), SOVC_NEWTON_FINISHED (the step hook's own finish),
 * SOV_ERR_NO_CONVERGENCE or the step hook's failure status; *out is the
 * iterate it ended on (x or t), *iterations the steps counted. */
int sovc_newton_run(sovc_newton_iterate **out, int *iterations, const sovc_newton_chart *c,
                    void *ctx, sovc_newton_iterate *x, sovc_newton_iterate *t);

#endif
