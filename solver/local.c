/* The default method's local stage (see local.h). Any common-normal pair
 * (nB = -nA, pB - pA = d nA) gives a lower bound d <= d_true, because pA
 * and pB are support points of convex bodies; an answer is accepted only
 * where it is such a pair of the bodies' own surfaces. */
#include "solver/local.h"

#include <math.h>
#include <string.h>

#include "solver/chart.h"
#include "solver/direction.h"
#include "solver/inner_ball.h"
#include "solver/mixed.h"
#include "solver/pair.h"
#include "solver/pose.h"
#include "solver/posed.h"
#include "solver/result.h"
#include "solver/support.h"

/* A position chart's first step longer than this share of the smaller
 * body's radius marks a start outside its basin; the direction is then
 * refined by at most kRefineIterations seed-point normal-chart steps. */
static const double kFarStart = 0.5;
enum { kRefineIterations = 6 };

/* Newton steps of the position chart polishing another chart's answer
 * (it starts at the solution: one or two steps converge). */
enum { kPolishIterations = 3 };

/* Each chart of the default method gets at most this many Newton steps: a
 * chart that converges does so in about 10, and one that has not by then
 * hands over to the next chart instead of spending the full cap. The
 * position chart, the first and cheapest, gets a few more: on the stress
 * battery's separated pairs 16 steps converge from the first start on
 * 3.6 % more of them than 12 (20: 4.6 %), sparing them the other charts
 * (their mean time fell by 6 %, their 85th percentile from 13 to 8.6 us).
 * The normal chart, second, gets as many: on the stress battery 92 % of its
 * answers come within 12 steps and 96 % within 16 (24 steps ran no faster
 * in interleaved runs). */
enum { kChartIterations = 12, kPositionChartIterations = 16 };

/* The fallback charts a polish of the global search tries: the normal chart
 * alone. A polish starts from a face of the polytope near an optimum, where
 * the position or normal chart converges, or from one where no chart does:
 * on 300 pairs of each of sov_bench_degenerate's families the mixed and
 * angle charts rescued 675 of 14,142 polishes, while the 1,017 that failed
 * spent 24 of their 46 iterations in them. Without them those families'
 * queries over 1 ms fell by 10 to 17 % (one pose, 1e-12 apart) and the
 * contact battery's slowest from 877 to 628 us, the answers as right; the
 * position chart alone saved more there but cost the batteries' tails
 * (benchmarks/RESULTS.md). */
enum { kPolishCharts = 1 };

/* Second-order test of an overlap answer: a local maximum of the objective
 * -(h_A(v) + h_B(-v)) on the sphere needs D_A + D_B + d I >= 0 on the
 * tangent plane (D: support-map derivatives, the bodies' radii of
 * curvature; study-method helpers use the same condition). The charts that
 * solve the first-order equations can land on saddles; the direction chart
 * (a descent method) does not. A flat witness (infinite radius) passes. */
static int local_maximum(const sovc_result *r, const sovc_pair *P) {
  sovc_support_eval a, b;
  const double mn[3] = {-r->n[0], -r->n[1], -r->n[2]};
  memcpy(a.p, r->pA, sizeof a.p);
  memcpy(b.p, r->pB, sizeof b.p);
  if (!sovc_support_derivative(&a, P->A, P->XA, r->n) ||
      !sovc_support_derivative(&b, P->B, P->XB, mn))
    return 1;
  sovc_frame fr;
  sovc_frame_make(&fr, r->n);
  double m[3];
  sovc_sphere_hessian(m, &a, &b, &fr, -r->d);
  const double m00 = m[0], m01 = m[1], m11 = m[2];
  const double slack = 1e-9 * (fabs(m00) + fabs(m11) + fabs(r->d) + 1);
  return m00 >= -slack && m11 >= -slack &&
         m00 * m11 - m01 * m01 >= -slack * (fabs(m00) + fabs(m11));
}

/* 1 if the cache's kept inner balls prove overlap answer r (see
 * inner_ball.h); remembers its witnesses so that the certificate is not
 * sought again. */
static int kept_balls_prove(const sovc_result *r, const sovc_pair *P, sovc_warm *warm) {
  if (!warm || !warm->balls || !sovc_kept_balls_certify(warm->balls, r, P, sovc_value_tolerance(r)))
    return 0;
  memcpy(warm->proved_pA, r->pA, sizeof warm->proved_pA);
  memcpy(warm->proved_pB, r->pB, sizeof warm->proved_pB);
  warm->have_proved = 1;
  return 1;
}

/* acceptable()'s verdict on an answer rejected only because a dented
 * body's witness is not its support point (its hull lies further out). */
enum { kOffHull = -1 };

/* Balance a chart's answer's witnesses and accept it if it converged, did
 * not end uphill of its start (maximising the objective from v must not
 * finish below its value at v: else it reached a saddle or another basin's
 * far side), its d is the objective at its n (its witnesses are support
 * points), both witnesses lie on their surfaces, and an overlap answer is
 * a local maximum of the objective or proved global by the cache's kept
 * inner balls. Supports are searched only on bodies
 * with a dent that can matter: on a convex body a surface point's tangent
 * plane supports it, so converged common-normal witnesses are support
 * points (SPEC); inside a tolerated dent they need not be. Dents within
 * SOVC_DENT_NEGLECT are skipped: the support search neglects them too, so
 * it would only find the witness's own local maximum from the witness's
 * height. Returns 1 (accepted), 0, or kOffHull. */
static int acceptable(int st, sovc_result *r, double lb0, const sovc_pair *P, sovc_warm *warm) {
  if (st != SOV_OK) return 0;
  const double tol = sovc_value_tolerance(r);
  if (r->d < lb0 - tol) return 0;
  if (fabs(sovc_hull_gap(r, P)) > tol) return kOffHull;
  if (sovc_balance_witnesses(r, P, tol) &&
      !(sovc_off_surface(P->A, P->XA, r->pA) <= tol && sovc_off_surface(P->B, P->XB, r->pB) <= tol))
    return 0;
  return r->d >= 0 || kept_balls_prove(r, P, warm) || local_maximum(r, P);
}

/* 1 if both of r's witnesses lie on their surfaces within the value
 * tolerance (or a dented body's allowance). acceptable() checks this only
 * for witnesses that balancing moved: the position chart's residual holds
 * both bodies' F at 0, while a fallback chart's stopping rule need not
 * (the angle chart's parametric points of a tapered near-diamond, eps1 =
 * 2 - 1e-9, where its blend power is 1e9, came out at the body's centre
 * with a "converged" residual). */
static int on_surfaces(const sovc_result *r, const sovc_pair *P) {
  const double tol = sovc_value_tolerance(r);
  return sovc_off_surface(P->A, P->XA, r->pA) <= tol + P->A->dent * P->A->radius &&
         sovc_off_surface(P->B, P->XB, r->pB) <= tol + P->B->dent * P->B->radius;
}

/* Where the fallback charts start: the pair, the direction and support
 * points of the local stage's start, the tolerance and the iteration caps
 * (the normal chart's, the others'). */
typedef struct chart_start {
  const sovc_pair *P;
  const sovc_local_start *at;
  double tolerance;
  int normal_cap, cap;
  const sovc_newton_config *cfg; /* for its verdict */
} chart_start;

/* A chart after the position chart: Newton from s into r. */
typedef int (*fallback_chart)(sovc_result *r, const chart_start *s);

/* The normal chart from the start's direction. */
static int normal_chart(sovc_result *r, const chart_start *s) {
  return sovc_solve_direction(r, s->P, s->at->v, s->tolerance, s->normal_cap, s->cfg->verdict);
}

/* A by its surface point, B by its support map. */
static int mixed_chart_ab(sovc_result *r, const chart_start *s) {
  return sovc_solve_mixed(r, s->P, s->at->pA, s->tolerance, s->cap);
}

/* B by its surface point, A by its support map. */
static int mixed_chart_ba(sovc_result *r, const chart_start *s) {
  const sovc_pair swapped = {s->P->B, s->P->XB, s->P->A, s->P->XA, s->P->scale};
  const int st = sovc_solve_mixed(r, &swapped, s->at->pB, s->tolerance, s->cap);
  if (st == SOV_OK) sovc_result_swap(r);
  return st;
}

/* The balanced angle charts of both bodies. */
static int angle_chart(sovc_result *r, const chart_start *s) {
  return sovc_solve_chart(r, s->P, s->at->pA, s->at->pB, s->tolerance, s->cap);
}

/* The charts tried after the position chart, in order. The normal chart
 * comes second: of the stress battery's separated pairs that the position
 * chart leaves, it settles 823 of 884 (after the mixed charts, 176 of the
 * 209 they left), and a descent method does not stop on saddles. */
static const fallback_chart kFallbackCharts[] = {normal_chart, mixed_chart_ab, mixed_chart_ba,
                                                 angle_chart};
enum { kFallbackChartCount = sizeof kFallbackCharts / sizeof kFallbackCharts[0] };

/* An answer of another chart polished by the position chart: theirs stop
 * on their own rows (the normal chart's on support maps from a few search
 * steps), which can leave n off by 1e-8 where d is exact. A polish that
 * fails or ends lower leaves the chart's answer. Adds its iterations to
 * *spent. */
static void polish_answer(sovc_result *r, int *spent, const sovc_pair *P,
                          const sovc_newton_config *cfg, sovc_warm *warm) {
  sovc_result p;
  sovc_newton_config polish = *cfg;
  if (polish.max_iterations > kPolishIterations) polish.max_iterations = kPolishIterations;
  polish.verdict = NULL; /* the chart's answer is at hand */
  const int pst =
      sovc_solve_implicit_warm(&p, P, r->pA, r->pB, &polish, NULL, warm ? warm->last : NULL);
  *spent += p.iterations;
  const int polished = acceptable(pst, &p, r->d - sovc_value_tolerance(r), P, warm) == 1;
  if (polished) *r = p;
  if (warm) warm->have_last = polished;
}

/* The position chart from at, unless its first Newton step would move a
 * witness by more than kFarStart of the smaller body's radius: that start
 * lies outside its basin (near contact the core direction is 22 degrees
 * off the normal at the median, and the chart then spent 8 halved steps
 * on its first one), so the direction is refined on seed points first
 * (sovc_refine_direction) and *at points to that start. Warm starts from a
 * cache's evaluations run as they are. Adds iterations to *spent. */
static int position_chart(sovc_result *r, int *spent, const sovc_pair *P,
                          const sovc_local_start **at, sovc_local_start *refined,
                          const sovc_newton_config *cfg, sovc_warm *warm) {
  const sovc_cache_eval *start = warm ? warm->start : NULL;
  sovc_cache_eval *last = warm ? warm->last : NULL;
  sovc_newton_config first = *cfg;
  if (!start) first.max_first_step = kFarStart * fmin(P->A->radius, P->B->radius);
  int st = sovc_solve_implicit_warm(r, P, (*at)->pA, (*at)->pB, &first, start, last);
  *spent += r->iterations;
  if (st != SOVC_FAR_START) return st;
  *refined = **at;
  sovc_refine_direction(refined->v, P, kRefineIterations);
  sovc_support_seeds(refined->pA, refined->pB, P, refined->v);
  *at = refined;
  st = sovc_solve_implicit_warm(r, P, refined->pA, refined->pB, cfg, NULL, last);
  *spent += r->iterations;
  return st;
}

/* The position chart, then (see kFallbackCharts) the others, until one
 * gives an acceptable answer (see local.h). */
int sovc_solve_local(sovc_result *best, int *have, const sovc_pair *P, const sovc_local_start *at,
                     const sovc_newton_config *cfg, int overlap_to_search, sovc_warm *warm) {
  sovc_result r;
  sovc_local_start refined;
  int spent = 0;
  int st = position_chart(&r, &spent, P, &at, &refined, cfg, warm);
  if (st == SOVC_DECIDED) {
    best->iterations += spent;
    return st;
  }
  const int verdict = acceptable(st, &r, at->lb, P, warm);
  const int precise = verdict == 1;
  int ok = precise;
  if (warm) warm->have_last = precise;
  /* The surfaces' common-normal pair the position chart found lies in a
   * dent, inside the hull: the SPEC's answer is on the hull's bridge across
   * it, where the support map jumps and every other chart creeps (the
   * fitted UR5 links of issue 29: 16 halved normal-chart steps, then the
   * mixed and angle charts, 3.7 ms). The polytope search settles it. */
  if (verdict == kOffHull) {
    best->iterations += spent;
    return SOV_ERR_NO_CONVERGENCE;
  }
  /* An overlap answer of the slower charts would still go to the search
   * unless inner balls proved it, and on the stress battery they mostly
   * do not (1 in 8); the search's polytope seeds the charts better than
   * the first start did (overlaps' median 51 -> 44 us). */
  if (!ok && overlap_to_search && sovc_centre_line_overlap(P)) {
    best->iterations += spent;
    return SOV_ERR_NO_CONVERGENCE;
  }
  const int cap = cfg->max_iterations < kChartIterations ? cfg->max_iterations : kChartIterations;
  const chart_start s = {P, at, cfg->tolerance, cfg->max_iterations, cap, cfg};
  const int charts = at->polish ? kPolishCharts : kFallbackChartCount;
  for (int k = 0; !ok && k < charts; ++k) {
    st = kFallbackCharts[k](&r, &s);
    spent += r.iterations;
    if (st == SOVC_DECIDED) {
      best->iterations += spent;
      return st;
    }
    ok = acceptable(st, &r, at->lb, P, warm) == 1 && on_surfaces(&r, P);
  }
  if (!ok) {
    best->iterations += spent;
    return st == SOV_OK ? SOV_ERR_SPURIOUS : st;
  }
  if (!precise) polish_answer(&r, &spent, P, cfg, warm);
  r.iterations = spent;
  sovc_keep_best(best, have, &r);
  return SOV_OK;
}

/* Newton configuration of the default method's charts. */
sovc_newton_config sovc_chart_config(const sovc_options *opt) {
  const int cap = opt->max_iterations < kPositionChartIterations ? opt->max_iterations
                                                                 : kPositionChartIterations;
  const sovc_newton_config cfg = {0, 1, opt->tolerance, cap, 0, 0, NULL};
  return cfg;
}

/* The global search's polish: the local stage from its start, descending
 * from lb, with no warm start. */
static int search_polish(const void *ctx, sovc_result *r, int *got, const double v[3],
                         const double pA[3], const double pB[3], double lb) {
  const sovc_local_polisher *p = ctx;
  sovc_local_start at = {.lb = lb, .polish = 1};
  memcpy(at.v, v, sizeof at.v);
  memcpy(at.pA, pA, sizeof at.pA);
  memcpy(at.pB, pB, sizeof at.pB);
  return sovc_solve_local(r, got, p->P, &at, p->cfg, 0, NULL);
}

/* See local.h. */
sovc_search_config sovc_local_search_config(sovc_local_polisher *polisher, const sovc_pair *P,
                                            const sovc_newton_config *cfg, void *work) {
  polisher->P = P;
  polisher->cfg = cfg;
  const sovc_search_config out = {search_polish, polisher, cfg->tolerance, work, NULL};
  return out;
}
