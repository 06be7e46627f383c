/* The solver's own types: shapes, poses, options, answers and warm-start
 * caches as the core computes with them. The C API (c_api/) converts its
 * public structs to and from these; the core includes no public header but
 * the status codes. */
#ifndef SOLVER_TYPES_H
#define SOLVER_TYPES_H

#include "superovoid/status.h"

/* A validated shape with derived quantities (sovc_shape_init). */
typedef struct sovc_shape {
  double a[3];         /* semi-axes a1 a2 a3 */
  double eps1;         /* cross-section exponent (xy); below DBL_MIN stored
                          as DBL_MIN, the same body in double arithmetic */
  double eps2;         /* profile exponent (z); likewise */
  double taper[2];     /* taper_x taper_y */
  double radius;       /* bounding sphere radius about the local origin */
  double aabb_lo[3];   /* local axis-aligned bounding box */
  double aabb_hi[3];
  double dent;         /* depth of the deepest dent below the convex hull,
                          relative to the width (0: exactly convex) */
  double dent_zone[2]; /* z / a3 range where slices may dent */
} sovc_shape;

/* A rigid pose: world = R * local + p, R row-major. */
typedef struct sovc_pose {
  double R[9];
  double p[3];
} sovc_pose;

/* The two posed bodies of a query, A and B. Their lengths are the
 * caller's divided by scale (a power of two; 1 for the caller's own pair,
 * see sovc_pair_normalize). */
typedef struct sovc_pair {
  const sovc_shape *A;
  const sovc_pose *XA;
  const sovc_shape *B;
  const sovc_pose *XB;
  double scale;
} sovc_pair;

/* Methods: the default, then the benchmark study's three schemes. */
typedef enum sovc_method {
  SOVC_METHOD_AUTO = 0,
  SOVC_METHOD_IMPLICIT = 1,
  SOVC_METHOD_PARAMETRIC = 2,
  SOVC_METHOD_NTB = 3,
  SOVC_METHOD_COUNT = 4
} sovc_method;

/* Initial guesses of the study's schemes. */
typedef enum sovc_seed {
  SOVC_SEED_QUADTREE = 0,
  SOVC_SEED_CENTERS = 1,
  SOVC_SEED_CACHE = 2
} sovc_seed;

/* Query options, validated by the C API. */
typedef struct sovc_options {
  sovc_method method;
  sovc_seed seed;
  double tolerance;   /* residual tolerance, length units */
  int max_iterations; /* Newton iteration cap per solve */
  int certify;        /* study methods: check overlap answers globally */
  void *work;         /* the global search's work memory (sovc_search_work_size()
                         bytes, double-aligned), or NULL for the stack */
} sovc_options;

/* An answer: d, unit n from A to B, witnesses with pB - pA = d n. */
typedef struct sovc_result {
  double d;
  double n[3];
  double pA[3];
  double pB[3];
  int iterations;
  double residual;
  sovc_method method;
} sovc_result;

/* One body's implicit function F at a point of its own frame: value,
 * gradient and Hessian (xx xy xz yy yz zz). */
typedef struct sovc_cache_eval {
  double x[3];
  double f;
  double g[3];
  double H[6];
} sovc_cache_eval;

/* A ball inside one body, in its own frame: a ball of the given radius
 * tangent at any surface point fits in the body if its bounding box lies in
 * the box lo..hi and radius * bound is at most |grad F| there (bound: a
 * bound of F's Hessian over the box). */
typedef struct sovc_cache_ball {
  double lo[3], hi[3];
  double bound;
  double radius;
} sovc_cache_ball;

/* Warm-start cache: the previous answer in each body's frame, and the
 * default method's evaluations and inner balls for shapes with the
 * parameters they were computed for. The doubles come first, as one run
 * of words for the checksum (warm.c). */
typedef struct sovc_cache {
  double pA_local[3];      /* witness point on A, A's frame */
  double pB_local[3];      /* witness point on B, B's frame */
  double nA_local[3];      /* normal n, A's frame */
  double params[14];       /* A's then B's a1 a2 a3 eps1 eps2 taper_x taper_y */
  sovc_cache_eval eval[2]; /* A, B */
  sovc_cache_ball ball[2]; /* A, B */
  int valid;               /* holds an answer */
  int evaluated;           /* eval holds F where the answer's solve ended */
  int certified;           /* ball holds an overlap answer's inner balls */
  int unused;              /* 0 (no padding: every byte is defined) */
  unsigned long long check; /* checksum of everything above */
} sovc_cache;

#endif
