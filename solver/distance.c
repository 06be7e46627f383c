/* Method dispatch: the default method, and the study's schemes with their
 * initial guesses (quadtree, centre line, or the caller's cache). */
#include "solver/distance.h"

#include <math.h>
#include <stddef.h>

#include "solver/auto_method.h"
#include "solver/boxes.h"
#include "solver/common_point.h"
#include "solver/direction.h"
#include "solver/pair.h"
#include "solver/pose.h"
#include "solver/posed.h"
#include "solver/result.h"
#include "solver/shape.h"
#include "solver/study.h"
#include "solver/support.h"
#include "solver/warm.h"

/* A solver's status for its answer: overflow (centres near 1e300 apart) is
 * a failure, never an answer; an answer goes into the cache. */
static int deliver(int st, const sovc_result *res, const sovc_pair *P, sovc_cache *cache,
                   const sovc_warm *warm) {
  if (st == SOV_OK && !(isfinite(res->d) && isfinite(res->pA[0] + res->pA[1] + res->pA[2]) &&
                        isfinite(res->pB[0] + res->pB[1] + res->pB[2])))
    st = SOV_ERR_NO_CONVERGENCE;
  if (st == SOV_OK && cache) sovc_cache_store(cache, res, P, warm);
  return st;
}

/* The default method, tolerance 1e-11, 50 iterations, certified study
 * methods from the quadtree seed. */
void sovc_options_default(sovc_options *opt) {
  opt->method = SOVC_METHOD_AUTO;
  opt->seed = SOVC_SEED_QUADTREE;
  opt->tolerance = 1e-11;
  opt->max_iterations = 50;
  opt->certify = 1;
  opt->work = NULL;
}

/* A method: the default one or one of the study's, its warm-start state
 * (the default's only) given. */
typedef int (*method_solve)(sovc_result *res, const sovc_pair *P, const sovc_options *opt,
                            const sovc_cache *cache, sovc_warm *warm);

/* The study's schemes keep nothing for a warm start. */
static int study_method(sovc_result *res, const sovc_pair *P, const sovc_options *opt,
                        const sovc_cache *cache, sovc_warm *warm) {
  (void)warm;
  return sovc_solve_study(res, P, opt, cache);
}

/* The methods by sovc_method. */
static const method_solve kMethods[SOVC_METHOD_COUNT] = {[SOVC_METHOD_AUTO] = sovc_solve_auto,
                                                         [SOVC_METHOD_IMPLICIT] = study_method,
                                                         [SOVC_METHOD_PARAMETRIC] = study_method,
                                                         [SOVC_METHOD_NTB] = study_method};

/* Dispatch on options->method. */
int sovc_distance(sovc_result *res, const sovc_pair *caller, const sovc_options *opt,
                  sovc_cache *cache) {
  sovc_normal_pair N;
  sovc_pair_normalize(&N, caller);
  const sovc_pair *P = &N.pair;
  if (cache) sovc_cache_admit(cache);
  sovc_warm storage;
  sovc_warm *warm =
      opt->method == SOVC_METHOD_AUTO ? sovc_warm_init(&storage, cache, P->A, P->B) : NULL;
  const int st = deliver(kMethods[opt->method](res, P, opt, cache, warm), res, P, cache, warm);
  sovc_result_restore(res, &N);
  return st;
}

/* A lower bound on the support value along local direction u: the largest
 * projection of the six ends of the semi-axes, points of the body's surface
 * (its tapers scale x and y about the axis, and vanish at z = 0). */
static double axis_ends_support(const sovc_shape *S, const double u[3]) {
  return fmax(fmax(S->a[0] * fabs(u[0]), S->a[1] * fabs(u[1])), S->a[2] * fabs(u[2]));
}

/* 1 if the plane normal to world direction v (not necessarily unit)
 * separates the bodies: -(h_A(v) + h_B(-v)) > 0, decided by bounds on the
 * supports where they suffice (a clear overlap along v by the semi-axes'
 * ends first, which costs no powers; then a clear gap, or overlap),
 * else by the support of the body whose bounds lie further apart, with the
 * other's bounds, and only then by both supports. */
static int separating(const sovc_pair *P, const double v[3]) {
  double vlA[3], vlB[3], x[3], lowA, lowB, mv[3] = {-v[0], -v[1], -v[2]};
  const double off = v[0] * (P->XB->p[0] - P->XA->p[0]) + v[1] * (P->XB->p[1] - P->XA->p[1]) +
                     v[2] * (P->XB->p[2] - P->XA->p[2]);
  sovc_rotate_t(vlA, P->XA->R, v);
  sovc_rotate_t(vlB, P->XB->R, mv);
  if (off - axis_ends_support(P->A, vlA) - axis_ends_support(P->B, vlB) <= 0) return 0;
  const double hiA = sovc_support_bound(&lowA, P->A, vlA);
  const double hiB = sovc_support_bound(&lowB, P->B, vlB);
  if (off - hiA - hiB > 0) return 1;
  if (off - lowA - lowB <= 0) return 0;
  /* Settle the wider bracket first: with the other's bounds it often decides. */
  const int a_first = hiA - lowA >= hiB - lowB;
  const sovc_shape *first = a_first ? P->A : P->B, *second = a_first ? P->B : P->A;
  const double *vf = a_first ? vlA : vlB, *vs = a_first ? vlB : vlA;
  const double hi2 = a_first ? hiB : hiA, low2 = a_first ? lowB : lowA;
  const double h1 = sovc_support(x, first, vf, NAN);
  if (off - h1 - hi2 > 0) return 1;
  if (off - h1 - low2 <= 0) return 0;
  return off - h1 - sovc_support(x, second, vs, NAN) > 0;
}

/* Overlap proof from a local answer with d <= 0: a point inside both
 * bodies (pA inside B, pB inside A, or their midpoint inside both). */
static int common_point(const sovc_result *r, const sovc_pair *P) {
  const double m[3] = {0.5 * (r->pA[0] + r->pB[0]), 0.5 * (r->pA[1] + r->pB[1]),
                       0.5 * (r->pA[2] + r->pB[2])};
  return sovc_posed_inside(P->B, P->XB, r->pA) || sovc_posed_inside(P->A, P->XA, r->pB) ||
         sovc_pair_inside(P, m);
}

/* Verdicts on a chart's iterates (verdict_at). */
enum { kApart = 1, kOverlap = 2 };
/* Seed-point normal-chart steps a collide query tries for a verdict before
 * the local stage (which goes on from where they ended). */
enum { kVerdictSteps = 5 };
/* Steps of the common-point search before them (sovc_common_point_verdict;
 * most pairs it decides take a few). */
enum { kCommonPointSteps = 14 };

/* A collide's verdict, the pair it is about, and the iterate that proved
 * it (direction, points) for the cache. */
typedef struct collide_verdict {
  const sovc_pair *P;
  int said;
  double v[3], pA[3], pB[3];
} collide_verdict;

/* A body's point p moved towards its centre c by kInward of the way: a
 * point on its surface is then inside it beyond F's rounding. */
static const double kInward = 1e-12;

/* 1 if overlapping points pA of A and pB of B give a point inside both:
 * their midpoint, or either point moved slightly inwards. The latter
 * decides where that point lies on a kink of its body (an exponent near 2:
 * a tip or a ridge, the support over a cone of directions), which an
 * iterate reaches, at the deepest point of a shallow overlap, well before
 * its direction converges. */
static int overlap_point(const sovc_pair *P, const double pA[3], const double pB[3]) {
  const double m[3] = {0.5 * (pA[0] + pB[0]), 0.5 * (pA[1] + pB[1]), 0.5 * (pA[2] + pB[2])};
  if (sovc_pair_inside(P, m)) return 1;
  double q[3];
  for (int i = 0; i < 3; ++i) q[i] = pA[i] + kInward * (P->XA->p[i] - pA[i]);
  if (sovc_pair_inside(P, q)) return 1;
  for (int i = 0; i < 3; ++i) q[i] = pB[i] + kInward * (P->XB->p[i] - pB[i]);
  return sovc_pair_inside(P, q);
}

/* A proof at one iterate of a chart (sovc_verdict's decide; ctx: a
 * collide_verdict, which keeps it): where the points lie apart along v,
 * the plane normal to v if it separates the bodies; where they overlap,
 * a point inside both (overlap_point). Both proofs hold whatever the
 * iterate's error: it only decides how soon one is found. */
static int verdict_at(void *ctx, const double v[3], const double pA[3], const double pB[3],
                      double f) {
  collide_verdict *c = ctx;
  const sovc_pair *P = c->P;
  if (f < 0)
    c->said = separating(P, v) ? kApart : 0;
  else
    c->said = overlap_point(P, pA, pB) ? kOverlap : 0;
  if (c->said)
    for (int i = 0; i < 3; ++i) c->v[i] = v[i], c->pA[i] = pA[i], c->pB[i] = pB[i];
  return c->said;
}

/* The verdict at the cache's answer (its points carried by the bodies'
 * motion since): along a smooth motion the last query's proof mostly holds
 * again. mid: the points' midpoint, a start for the common-point search. */
static int cached_verdict(collide_verdict *c, const sovc_cache *cache, double mid[3]) {
  double v[3], pA[3], pB[3];
  sovc_cache_answer(cache, c->P, pA, pB, v);
  const double dp[3] = {pA[0] - pB[0], pA[1] - pB[1], pA[2] - pB[2]};
  for (int i = 0; i < 3; ++i) mid[i] = 0.5 * (pA[i] + pB[i]);
  return verdict_at(c, v, pA, pB, sovc_dot(v, dp));
}

/* The searches for a proof before the local stage: the common point from
 * start (NULL: its own; except between ellipsoids, whose direction steps
 * have closed-form supports and decide sooner), then seed-point
 * normal-chart steps from the direction it left in v (else the core
 * direction v holds), which leave v refined for the local stage. */
static int search_verdict(double v[3], const sovc_pair *P, const double *start,
                          const sovc_verdict *verdict) {
  if (!(sovc_is_ellipsoid(P->A) && sovc_is_ellipsoid(P->B)) &&
      sovc_common_point_verdict(v, P, start, kCommonPointSteps, verdict))
    return 1;
  return sovc_direction_verdict(v, P, kVerdictSteps, verdict);
}

/* A collide's answer: *colliding from the verdict, whose proof (direction
 * and points) goes into the cache (if any, and if finite) for the next
 * query. */
static int answer_with(int *colliding, const collide_verdict *c, sovc_cache *cache) {
  *colliding = c->said == kOverlap;
  sovc_result r;
  sovc_result_set(&r, c->pA, c->pB, c->v);
  deliver(SOV_OK, &r, c->P, cache, NULL);
  return SOV_OK;
}

/* Early exits: bounding spheres, bounding boxes and separating planes
 * prove "apart", a centre inside the other body or a point of the centre
 * line inside both proves "overlap"; then the searches for a proof
 * (search_verdict); then one local solve: a positive d proves "apart", a
 * common point "overlap"; only what remains goes on to the rest of the
 * distance (the default method continues from its local solve). */
int sovc_collide(int *colliding, const sovc_pair *caller, const sovc_options *opt,
                 sovc_cache *cache) {
  sovc_normal_pair N;
  sovc_pair_normalize(&N, caller);
  const sovc_pair *P = &N.pair;
  /* A study method seeded from the cache needs an answer there, as its
   * distance does: refused alike, whether an early exit decides or not. */
  if (opt->method != SOVC_METHOD_AUTO && opt->seed == SOVC_SEED_CACHE) {
    if (cache) sovc_cache_admit(cache);
    if (!(cache && cache->valid)) return SOV_ERR_OPTION;
  }
  double c[3] = {P->XB->p[0] - P->XA->p[0], P->XB->p[1] - P->XA->p[1], P->XB->p[2] - P->XA->p[2]};
  const double cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
  const double rr = P->A->radius + P->B->radius;
  *colliding = 0;
  if (cc > rr * rr) return SOV_OK;
  if (sovc_boxes_apart(P->A->aabb_lo, P->A->aabb_hi, P->XA, P->B->aabb_lo, P->B->aabb_hi, P->XB))
    return SOV_OK;
  if (cache) sovc_cache_admit(cache);
  collide_verdict answer = {.P = P};
  double cached_mid[3];
  const double *start = cache && cache->valid ? cached_mid : NULL;
  if (start && cached_verdict(&answer, cache, cached_mid))
    return *colliding = answer.said == kOverlap, SOV_OK;
  double v[3];
  sovc_core_direction(v, P);
  if (cc > 0 && separating(P, v)) return SOV_OK;
  *colliding = 1;
  if (sovc_centre_line_overlap(P)) return SOV_OK;
  const sovc_verdict verdict = {verdict_at, &answer};
  if (opt->method == SOVC_METHOD_AUTO && search_verdict(v, P, start, &verdict))
    return answer_with(colliding, &answer, cache);
  sovc_result r;
  int st;
  if (opt->method == SOVC_METHOD_AUTO) {
    /* The centre line proved nothing above: the local stage need not try it again. */
    sovc_warm storage;
    sovc_warm *warm = sovc_warm_init(&storage, cache, P->A, P->B);
    /* Its charts stop at the first proof. */
    const int local = sovc_solve_auto_local(&r, P, opt, cache, v, 0, &verdict, warm);
    if (local == SOVC_DECIDED) return answer_with(colliding, &answer, cache);
    const int have = local == SOV_OK;
    if (have && (r.d > 0 || common_point(&r, P))) {
      *colliding = r.d <= 0;
      deliver(SOV_OK, &r, P, cache, warm); /* a finite answer only, as a distance's */
      return SOV_OK;
    }
    /* The rest of the distance, not all of it again, to its first proof. */
    int said = 0;
    st = sovc_solve_auto_finish(&r, have, P, opt, warm, &said);
    if (st == SOVC_DECIDED) return *colliding = said, SOV_OK;
    st = deliver(st, &r, P, cache, warm);
  } else {
    st = sovc_distance(&r, caller, opt, cache);
  }
  if (st != SOV_OK) return st;
  *colliding = r.d <= 0;
  return SOV_OK;
}
