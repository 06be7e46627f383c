/* superovoid: signed distance, witness points and contact normal between
 * superovoids (tapered superellipsoids). The one stable public C header.
 *
 * Conventions (see SPEC.md in the project documentation):
 *  - shape parameters a1 a2 a3 eps1 eps2 taper_x taper_y; eps1 shapes the xy
 *    cross-section, eps2 the z profile;
 *  - world point = R * local + p, R row-major 3x3, quaternions w x y z;
 *  - d > 0 distance, d < 0 minus the penetration depth; n points from A to B;
 *    pB - pA = d n.
 * Every function returning int returns a sov_status: 0 on success, a negative
 * value naming the problem otherwise. Nothing here prints, aborts or allocates
 * on the query path, and there is no global mutable state. */
#ifndef SUPEROVOID_SUPEROVOID_H
#define SUPEROVOID_SUPEROVOID_H

#include <stddef.h>

#include "superovoid/status.h"

#if defined(_WIN32)
#  if defined(SOV_BUILDING_LIBRARY)
#    define SOV_API __declspec(dllexport)
#  else
#    define SOV_API __declspec(dllimport)
#  endif
#else
#  define SOV_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define SOV_VERSION_MAJOR 0
#define SOV_VERSION_MINOR 1
#define SOV_VERSION_PATCH 0


/* Methods. AUTO is the default: the fastest way to the SPEC's answer, with
 * fallbacks. The others reproduce the benchmark study's schemes. */
typedef enum sov_method {
  SOV_METHOD_AUTO = 0,       /* seeded damped Newton + certificate + fallback */
  SOV_METHOD_IMPLICIT = 1,   /* study Eq. 15: 6x6 common-normal system in x */
  SOV_METHOD_PARAMETRIC = 2, /* study Eq. 18: 4x4 system in the angles */
  SOV_METHOD_NTB = 3,        /* angles as unknowns, implicit n/t/b equations */
  SOV_METHOD_COUNT = 4
} sov_method;

/* Initial guess for the study methods (AUTO ignores it unless WARM). */
typedef enum sov_seed {
  SOV_SEED_QUADTREE = 0, /* parametric quadtree: 6 levels, 16 pairs a level */
  SOV_SEED_CENTERS = 1,  /* support points along the centre-to-centre line */
  SOV_SEED_CACHE = 2     /* the caller's sov_cache (warm start or octree) */
} sov_seed;

/* A validated shape: opaque, fixed-size storage that sov_shape_init fills
 * and sov_shape_get reads (its parameters, bounds and dent).
 * Copy it freely; its layout is not part of the API. */
typedef struct sov_shape {
  double opaque_[32];
} sov_shape;

/* A rigid pose: world = R * local + p, R row-major. Fill it with
 * sov_pose_from_quat or sov_pose_from_matrix, or by hand: a query checks a
 * hand-filled R as sov_pose_from_matrix does (SOV_ERR_ROTATION beyond
 * 1e-6), takes it bit for bit where it is a rotation to rounding (every
 * entry of R R^T and det R within 64 ulps of a rotation's), and otherwise
 * poses the nearest rotation, as sov_pose_from_matrix would (a
 * float-precision matrix poses the body it means). */
typedef struct sov_pose {
  double R[9];
  double p[3];
} sov_pose;

/* Query options; fill with sov_options_default and change what you need. */
typedef struct sov_options {
  sov_method method;   /* default SOV_METHOD_AUTO */
  sov_seed seed;       /* study methods: default SOV_SEED_QUADTREE */
  double tolerance;    /* residual tolerance relative to the pair's size s,
                          default 1e-11. Every query is solved in a frame
                          centred on A and scaled by s: the sum of both
                          bodies' bounding radii rounded down to a power of
                          two (1 when a semi-axis over it would leave
                          [1e-280, 1e280]). The study methods stop below
                          tolerance s (or the rounding floor
                          64 eps s max(1, |coordinate / s|) when that is
                          larger) and report that residual;
                          AUTO's internal solves stop below tolerance s
                          max(1, |coordinate / s|) (coordinates from A's
                          centre) and its answer is checked against its own
                          bounds */
  int max_iterations;  /* Newton iteration cap per solve, default 50; AUTO
                          caps its first two charts (position, then normal)
                          at min(this, 16) and each other chart at
                          min(this, 12), and hands over to the next chart */
  int certify;         /* study methods: check an overlap answer against the
                          global search and return SOV_ERR_SPURIOUS when it
                          is not the SPEC's (default 1; 0 times the bare
                          scheme, as the study ran it) */
  void *work;          /* work memory of the global search that overlaps
                          the local stage leaves unproved may need (AUTO, or
                          a study method's certificate): at least
                          sov_work_size() bytes, any alignment, used by one
                          query at a time (no query calls back into another:
                          a thread may keep one for all its queries, as the
                          C++ layers do). Default NULL: such a query takes
                          it from its own stack instead */
  size_t work_size;    /* bytes at work (SOV_ERR_BUFFER if work is given and
                          this is below sov_work_size()) */
} sov_options;

/* Result of a distance query. */
typedef struct sov_result {
  double d;           /* signed distance: > 0 apart, < 0 overlap */
  double n[3];        /* unit normal from A towards B */
  double pA[3];       /* witness point on A (world) */
  double pB[3];       /* witness point on B (world); pB - pA = d n */
  int iterations;     /* Newton iterations spent (all stages) */
  double residual;    /* final residual norm of the answering method; AUTO
                         takes a last Newton step without evaluating its
                         end when, from a residual within 1e3 of the
                         tolerance, the steps' and residuals' quadratic
                         convergence puts the error after it below 1e-2 of
                         the tolerance, and reports that prediction */
  sov_method method;  /* method that produced the answer */
} sov_result;

/* Warm-start cache owned by the caller: opaque, fixed-size storage in which
 * sov_distance and sov_collide keep their answer (in each body's frame) and
 * what the default method computed for it, for the next query of the same
 * pair. Zero it or call sov_cache_reset before first use. Its layout is not
 * part of the API; contents that are not a cache's (junk, a torn copy) are
 * detected and ignored, never trusted. */
typedef struct sov_cache {
  double opaque_[128];
} sov_cache;

/* Library version as "MAJOR.MINOR.PATCH". */
SOV_API const char *sov_version(void);

/* Static English message for a status code. */
SOV_API const char *sov_status_string(int status);

/* Name of a method ("auto", "implicit", "parametric", "ntb"), or NULL. */
SOV_API const char *sov_method_name(sov_method method);

/* Parse a method name; SOV_ERR_OPTION if unknown. */
SOV_API int sov_method_from_name(sov_method *method, const char *name);

/* Validate params[7] = a1 a2 a3 eps1 eps2 taper_x taper_y and fill shape.
 * Beyond the SPEC's range, sizes whose bounding box or squared bounding
 * radius overflows or underflows (semi-axes beyond about 1.3e154, or all
 * three below about 1e-162), or whose reciprocal overflows (subnormal
 * sizes), are refused (SOV_ERR_NONFINITE, SOV_ERR_SIZE): no query could
 * use them. */
SOV_API int sov_shape_init(sov_shape *shape, const double params[7]);

/* What a shape holds for callers to read: its validated parameters and
 * what sov_shape_init derived from them. */
typedef struct sov_shape_info {
  double params[7];  /* a1 a2 a3 eps1 eps2 taper_x taper_y; an exponent below
                        DBL_MIN reads as DBL_MIN (the same body in double
                        arithmetic) */
  double radius;     /* bounding sphere radius about the local origin */
  double aabb_lo[3]; /* local axis-aligned bounding box (exact) */
  double aabb_hi[3];
  double dent;       /* depth of the body's deepest dent below its convex
                        hull, relative to its width: 0 for an exactly convex
                        body; sov_shape_init accepts at most 1e-6 (tapered
                        bodies with eps2 < 1 and unequal tapers dent
                        slightly). Answers are exact for the convex hull. */
} sov_shape_info;

/* Fill info from a shape that sov_shape_init filled. */
SOV_API int sov_shape_get(sov_shape_info *info, const sov_shape *shape);

/* Write why params[7] are valid or not (parameter, bound, and for a dented
 * body how far the tapers must shrink) into buf; returns the same status as
 * sov_shape_init, or SOV_ERR_BUFFER (nothing written) for size 0. */
SOV_API int sov_shape_explain(char *buf, size_t size, const double params[7]);

/* Scale s in [0, 1] at the edge of acceptance: the tapers scaled by s give
 * a body that sov_shape_init accepts, and a scale in (s, s (1 + 1e-9)] one
 * that it refuses (SOV_ERR_NONCONVEX); 1 if the given tapers are accepted.
 * Found by narrowing a bracket (secant steps on the log of the dent,
 * safeguarded by bisection): the dent grows with the tapers, but where it is
 * not exactly monotone a larger accepted scale may exist. Parameters that
 * sov_shape_init refuses for another reason (a size, an exponent) give its
 * status, whatever the tapers. */
SOV_API int sov_shape_max_taper_scale(double *scale, const double params[7]);

/* Implicit function F (SPEC), its gradient and Hessian (row-major) at a local
 * point; grad or hess may be NULL. Far outside, a value past the double range
 * is +-inf (F +inf), and a true 0 stays 0. SOV_ERR_RANGE where a value's sign
 * is lost there too (the outputs are then not meaningful): points so far out,
 * in units of the semi-axes, that the chain rule's own factors overflow (1e302
 * against a semi-axis of 1e-5), or exponents near 0 (eps 1e-7 at x = 1e300).
 * F alone always has its sign. */
SOV_API int sov_shape_implicit(double *F, double grad[3], double hess[9],
                               const sov_shape *shape, const double x[3]);

/* Parametric surface point, tangents dx/dphi1, dx/dphi2 and outward unit
 * normal at (phi1, phi2); tangent and normal outputs may be NULL. */
SOV_API int sov_shape_point(double x[3], double t1[3], double t2[3],
                            double n[3], const sov_shape *shape, double phi1,
                            double phi2);

/* Support point x (local) maximising dir . x, and h = dir . x. */
SOV_API int sov_shape_support(double x[3], double *h, const sov_shape *shape,
                              const double dir[3]);

/* Surface mesh: a latitude-longitude grid of sov_shape_point with n_lat >= 2
 * latitude bands and n_lon >= 3 longitude segments, each pole one vertex.
 * It has n_lon (n_lat - 1) + 2 vertices and 2 n_lon (n_lat - 1) triangles,
 * counter-clockwise seen from outside. Its vertices lie on the surface, so
 * for a convex body the mesh lies inside it. sov_shape_tessellation_size
 * gives the counts; sov_shape_tessellate writes 3 n_vertices coordinates
 * (local frame) and 3 n_triangles vertex indices, or returns SOV_ERR_BUFFER
 * (writing nothing) when a capacity, counted in doubles and ints, is short. */
SOV_API int sov_shape_tessellation_size(size_t *n_vertices, size_t *n_triangles,
                                        int n_lat, int n_lon);
SOV_API int sov_shape_tessellate(double *vertices, size_t vertex_capacity,
                                 int *triangles, size_t triangle_capacity,
                                 const sov_shape *shape, int n_lat, int n_lon);

/* Volume of the body. */
SOV_API int sov_shape_volume(double *volume, const sov_shape *shape);

/* Mass properties of the uniform body of unit density, local frame: volume,
 * centre of mass com (on the z axis: tapers move it), and the inertia
 * tensor about the local origin, row-major (diagonal: the integral of
 * |r|^2 I - r r^T, FCL's convention). com or inertia may be NULL.
 * SOV_ERR_RANGE if a requested value overflows (the inertia of bodies
 * about 1e62 and more across: it grows as size^5); values below the double
 * range are 0 (sizes near 1e-200). */
SOV_API int sov_shape_mass(double *volume, double com[3], double inertia[9],
                           const sov_shape *shape);

/* Pose from a unit quaternion w x y z (norm within 1e-6) and a position. */
SOV_API int sov_pose_from_quat(sov_pose *pose, const double q[4],
                               const double p[3]);

/* Pose from a row-major rotation matrix R. Accepted when every entry of
 * R R^T is within 1e-6 of the identity's and |det R - 1| <= 1e-6 (else
 * SOV_ERR_ROTATION; SOV_ERR_NONFINITE for NaN or infinity); an accepted R
 * is replaced by the nearest rotation (its polar factor, orthonormal to
 * rounding), so a float-precision matrix poses the body it means. */
SOV_API int sov_pose_from_matrix(sov_pose *pose, const double R[9],
                                 const double p[3]);

/* Default options. */
SOV_API void sov_options_default(sov_options *options);

/* Bytes of work memory the global search uses (sov_options.work), which
 * also holds sov_support_penetration_work's polytope: about 177 KB, the
 * same on every call. */
SOV_API size_t sov_work_size(void);

/* Forget a warm-start cache. */
SOV_API void sov_cache_reset(sov_cache *cache);

/* 1 if cache holds an answer (a query's or sov_cache_set's), else 0. */
SOV_API int sov_cache_valid(const sov_cache *cache);

/* Seed a cache from world points on (or near) A and B, e.g. octree cells. */
SOV_API int sov_cache_set(sov_cache *cache, const sov_pose *XA,
                          const sov_pose *XB, const double pA[3],
                          const double pB[3]);

/* Signed distance between posed shapes A and B (SPEC). options may be NULL
 * (defaults); cache may be NULL (cold). With a cache the query starts from
 * the cached answer and stores the new one. No heap use. Stack: at most
 * 32 KB with options->work given (20.8 KB measured over the test subsets),
 * and about 177 KB more without it for a query that reaches the global
 * search (at most 208 KB in all; test HardeningStack.*): mind threads
 * created with small stacks. The C++ layers and the Python module pass
 * each thread's own work memory (cxx/include/superovoid/work.h). */
SOV_API int sov_distance(sov_result *result, const sov_shape *A,
                         const sov_pose *XA, const sov_shape *B,
                         const sov_pose *XB, const sov_options *options,
                         sov_cache *cache);

/* Boolean overlap test that exits early: *colliding = 1 when d <= 0
 * (within the distance's accuracy of touching, 1e-11 of the size by default,
 * the sign of a d that is only that accurate). options and cache as for
 * sov_distance. With a cache it first tries the cached answer's proof at
 * these poses (a separating plane along its normal, or one of its points,
 * or their midpoint, inside both bodies), and keeps the proof it finds
 * (direction and points; a later sov_distance starts from them) for the
 * next query of the pair. A study method seeded from the cache
 * (SOV_SEED_CACHE) without a cached answer is SOV_ERR_OPTION, as for
 * sov_distance, even where the test would exit early. */
SOV_API int sov_collide(int *colliding, const sov_shape *A, const sov_pose *XA,
                        const sov_shape *B, const sov_pose *XB,
                        const sov_options *options, sov_cache *cache);

/* *apart = 1 when the box [lo_a, hi_a] posed by XA and the box [lo_b, hi_b]
 * posed by XB are proved disjoint by a separating axis (a face normal of
 * either, or the cross product of an edge of each), with a margin for
 * rounding; 0 when they may overlap. Bodies inside disjoint boxes are
 * apart: sov_collide tries the shapes' local bounding boxes
 * (sov_shape_info) this way, and the FCL layer the boxes of FCL primitives
 * before libccd. Errors: SOV_ERR_NULL, SOV_ERR_NONFINITE (a bound or pose),
 * SOV_ERR_ROTATION (as sov_pose_from_matrix), SOV_ERR_SIZE (lo above hi). */
SOV_API int sov_boxes_apart(int *apart, const double lo_a[3], const double hi_a[3],
                            const sov_pose *XA, const double lo_b[3],
                            const double hi_b[3], const sov_pose *XB);

/* A convex body known by its support function: support(body, dir, x)
 * writes the point x of the body farthest along dir (world frame; dir is
 * non-zero, not necessarily unit). */
typedef void (*sov_support_fn)(const void *body, const double dir[3], double x[3]);

/* Penetration of two convex bodies given by support functions, for pairs
 * that are not two superovoids (the FCL layer's superovoid against a box,
 * cylinder, cone, capsule or convex polytope): EPA on A - B from 14 support
 * directions, in fixed memory (its 85 KB polytope on the stack: 94 KB
 * measured for the call), at most about 500
 * supports. *overlapping = 1: result->d = -depth with depth within
 * result->residual (at most tolerance, a length raised to 64 ulps of the
 * bodies' size) of the true penetration depth, never deeper, n from A
 * towards B, pB - pA = d n, iterations the supports taken. *overlapping =
 * 0: a support value proves the bodies apart, or touching to 1e-14 of their
 * size; result->n is then a separating direction and nothing else is set
 * (ask a distance method). Errors: SOV_ERR_NULL, SOV_ERR_OPTION (tolerance
 * not finite and positive), SOV_ERR_NONFINITE (a support point not finite),
 * SOV_ERR_NO_CONVERGENCE: a flat difference (nothing set), or no room left
 * before the tolerance (its 512 vertices, or rounding; curved against
 * curved gains about a digit per 70 vertices): where the bracket reached
 * is within 1e-6 of the bodies' size, *overlapping and result are then set
 * as above with it, result->residual above the tolerance (nothing is set
 * for a wider one: a ring of optima). */
SOV_API int sov_support_penetration(sov_result *result, int *overlapping, sov_support_fn support_a,
                                    const void *a, sov_support_fn support_b, const void *b,
                                    double tolerance);

/* sov_support_penetration with its polytope in the caller's work memory
 * instead of on the stack (7.5 KB of stack measured with supports by
 * sov_shape_support, against 94 KB without work memory): work holds at least
 * sov_work_size() bytes, any alignment, the same buffer a thread gives
 * sov_options.work (the supports must not run a query on it: their own
 * sov_distance, say). work NULL: as sov_support_penetration. The same
 * answers; SOV_ERR_BUFFER if work is given and work_size is below
 * sov_work_size(). */
SOV_API int sov_support_penetration_work(sov_result *result, int *overlapping,
                                         sov_support_fn support_a, const void *a,
                                         sov_support_fn support_b, const void *b, double tolerance,
                                         void *work, size_t work_size);

/* Distance of two convex bodies given by support functions (the FCL
 * layer's pairs of primitives, and superovoids against them, where libccd's
 * GJK stops early between flat faces): GJK on A - B, at most 256 supports,
 * stopped when the simplex's distance |x| is within tolerance (a length,
 * raised to 64 ulps of the bodies' size, and for bodies closer than their
 * size to the rounding of x's direction: an ulp of size^2 / |x|) of the
 * lower bound min over A - B of x . y / |x|. *overlapping = 0: result->d
 * is the distance of two points pA of A and pB of B (convex combinations
 * of support points), within result->residual above the true distance,
 * n = (pB - pA) / d, iterations the supports taken. *overlapping = 1: the origin lies in a
 * simplex of A - B, or within rounding of one (touching): nothing else is
 * set (ask sov_support_penetration). Errors: SOV_ERR_NULL, SOV_ERR_OPTION
 * (tolerance not finite and positive), SOV_ERR_NONFINITE (a support point
 * not finite), SOV_ERR_NO_CONVERGENCE: the supports ran out or stopped
 * gaining to rounding before the tolerance; result then holds the bracket
 * reached (residual above the tolerance). start: a direction from A
 * towards B to begin along, such as an earlier answer's n (NULL: +x);
 * near the answer's n the first supports lie near its witnesses. */
SOV_API int sov_support_distance(sov_result *result, int *overlapping, sov_support_fn support_a,
                                 const void *a, sov_support_fn support_b, const void *b,
                                 const double start[3], double tolerance);

/* Overlap test of two convex bodies given by support functions (the FCL
 * layer's superovoid against a primitive, without contacts): the GJK of
 * sov_support_distance stopped at its first proof. *colliding = 0 where a
 * support value along the simplex's point proves a separating plane, 1
 * where the origin lies in a simplex of A - B or within rounding of one
 * (touching counts as colliding). Errors: SOV_ERR_NULL, SOV_ERR_NONFINITE
 * (a support point not finite), SOV_ERR_NO_CONVERGENCE (the 256 supports
 * ran out or stopped gaining to rounding before a proof: bodies within
 * rounding of touching; *colliding is not set). start as for
 * sov_support_distance (NULL: +x); the line between the bodies' centres
 * is a good one. */
SOV_API int sov_support_collide(int *colliding, sov_support_fn support_a, const void *a,
                                sov_support_fn support_b, const void *b, const double start[3]);

/* ---------------------------------------------------------------- batches
 * Many pair queries in one call, on threads the call creates and joins
 * (POSIX threads; nothing outlives the call, and the library keeps no state
 * between calls). Pair k is shapes[index_a[k]] at poses_a[k] against
 * shapes[index_b[k]] at poses_b[k], answered exactly as sov_distance (or
 * sov_collide) answers it alone: same bits, whatever the thread count. */

/* The pairs of a batch, all arrays owned by the caller. */
typedef struct sov_batch {
  const sov_shape *shapes;  /* n_shapes shapes from sov_shape_init */
  size_t n_shapes;
  const size_t *index_a;    /* count indices into shapes: body A of pair k */
  const size_t *index_b;    /* count indices: body B of pair k */
  const sov_pose *poses_a;  /* count poses of A */
  const sov_pose *poses_b;  /* count poses of B */
  size_t count;             /* number of pairs */
  sov_cache *caches;        /* NULL (cold), or count caches: pair k starts
                               from caches[k] and stores its answer there,
                               as sov_distance does; each cache belongs to
                               one pair (no cache twice in a batch) */
} sov_batch;

/* What a batch call did (optional output). */
typedef struct sov_batch_report {
  size_t failed;       /* pairs whose status is not SOV_OK */
  size_t first_failed; /* the lowest such index (count when none failed) */
  int threads;         /* threads that answered pairs, the calling one
                          included */
} sov_batch_report;

/* Signed distance of every pair of batch: results[k] and statuses[k] are
 * what sov_distance(&results[k], ..., options, cache) returns for pair k
 * (results[k] left as sov_distance leaves it when it fails), and
 * SOV_ERR_INDEX where a shape index is out of range. threads: 0 for one per
 * online core, n for at most n (never more than count, nor 1024); the
 * calling thread answers pairs too. report may be NULL.
 * Returns SOV_OK when every pair answered, else the status of the
 * lowest-indexed pair that did not (statuses say which, report counts
 * them). Before any pair it refuses the call, writing nothing, with
 * SOV_ERR_NULL (results, statuses or batch NULL; an array NULL with count
 * or n_shapes > 0), SOV_ERR_OPTION (threads < 0, or options out of range)
 * or SOV_ERR_BUFFER (options->work too small).
 * Memory: options->work, when given, serves the calling thread; every
 * thread the call creates (and the calling one when options->work is NULL)
 * gets work memory of its own (sov_work_size()), and each created thread a
 * 1 MiB stack. That work memory and the threads' bookkeeping are one heap
 * block allocated and freed by the call (none when threads ends up 1 and
 * options->work is given, or count is 0). Where a thread cannot be had, its pairs go to the threads that
 * could (report->threads tells); without the block, the calling thread
 * answers every pair with options as given (work NULL: on its stack). The
 * answers are the same either way. */
SOV_API int sov_batch_distance(sov_result *results, int *statuses,
                               sov_batch_report *report,
                               const sov_batch *batch,
                               const sov_options *options, int threads);

/* Overlap test of every pair of batch, as sov_collide: colliding[k] = 1
 * when pair k's d <= 0; statuses, report, threads and memory as in
 * sov_batch_distance (colliding for results). */
SOV_API int sov_batch_collide(int *colliding, int *statuses,
                              sov_batch_report *report, const sov_batch *batch,
                              const sov_options *options, int threads);

/* ---- Continuous collision: time of first contact ---------------------- */

/* A body's motion over t in [0, 1], from pose `from` to pose `to`: the
 * local origin moves on the straight line, the rotation turns at a constant
 * rate about a fixed world axis by the shortest arc (slerp; FCL's
 * CCDM_LINEAR InterpMotion). Rotations of exactly half a turn take the axis
 * of the rotation's quaternion as Shepperd's method computes it. */
typedef struct sov_motion {
  sov_pose from; /* pose at t = 0 */
  sov_pose to;   /* pose at t = 1 */
} sov_motion;

/* Options of sov_time_of_contact; fill with sov_toc_options_default. */
typedef struct sov_toc_options {
  double distance_tolerance; /* contact once the signed distance is at most
                                this (length units, >= 0; default 1e-6,
                                absolute: set it below the bodies' size
                                for bodies near or under a micron), or at
                                most the rounding floor where that is
                                larger (sov_time_of_contact) */
  double time_tolerance;     /* also contact once the next certified step
                                is shorter than this (>= 0; default 0:
                                never; FCL's conservative advancement stops
                                at its toc_err, 1e-4, this way) */
  int max_steps;             /* distance queries at most (> 0; default
                                10000): SOV_ERR_NO_CONVERGENCE beyond */
  sov_options distance;      /* options of every distance query (default:
                                sov_options_default; work memory here is
                                used by every step) */
} sov_toc_options;

/* Answer of sov_time_of_contact. */
typedef struct sov_toc_result {
  int contact;      /* 1: contact at t; 0: no contact in [0, 1] */
  double t;         /* contact: the time of contact, never after the
                       first time the bodies touch, and they are apart on
                       [0, t); no contact: 1. On failure (negative status):
                       the bodies are proved apart on [0, t) */
  double d;         /* signed distance at t (contact: <= distance_tolerance
                       or the rounding floor, or the distance where
                       time_tolerance stopped; < 0 only when they overlap
                       at t = 0; NaN, as n and the points, when the overlap
                       at t = 0 is sov_collide's proof); the last step's
                       distance otherwise */
  double n[3];      /* unit normal from A towards B at that time */
  double pA[3];     /* witness points at that time, pB - pA = d n */
  double pB[3];
  double point[3];  /* contact point: (pA + pB) / 2 */
  int steps;        /* distance queries made */
  int iterations;   /* Newton iterations over all of them */
  int failures;     /* distance queries that failed and were stepped over
                       on the previous normal's certified gap */
} sov_toc_result;

/* Defaults: distance tolerance 1e-6, no time tolerance, 10000 steps,
 * sov_options_default for the distance queries. */
SOV_API void sov_toc_options_default(sov_toc_options *options);

/* The pose at time t (any finite t; 0 and 1 give the motion's ends to
 * rounding) of a motion whose poses are rotations. SOV_ERR_NONFINITE, pose
 * untouched, where the motion's translation (to.p - from.p) or the pose at
 * t overflows; sov_time_of_contact refuses such motions too. */
SOV_API int sov_motion_pose(sov_pose *pose, const sov_motion *motion, double t);

/* Time of first contact of A moving by MA and B moving by MB over
 * t in [0, 1]: conservative advancement on the certified signed distance
 * (Mirtich 2000). At each step the distance d and normal n at time t are
 * sov_distance's (warm-started from the previous step); every point of a
 * body lies within its bounding radius r of its origin, so the gap along
 * the fixed n shrinks at most at n . (vA - vB) + |n x wA| rA + |n x wB| rB
 * (v: translation, w: angle times axis of the motions), and the bodies
 * cannot touch before t + g / that bound, g the gap along n from the exact
 * support maps. The step ends at the first t with d <= max(
 * distance_tolerance, 128 DBL_EPSILON (|pA| + |pB| + rA + rB)) (contact at
 * t; the second term, the rounding floor with p the bodies' origins at t,
 * is where the gap's rounding allowance leaves no step to prove: 2.8e-14
 * per unit of scale), past t = 1 (no contact), or when a step would be
 * shorter than time_tolerance (contact at t, d above the distance
 * tolerance). Overlapping or touching at t = 0 gives contact at t = 0;
 * where sov_distance fails there (identical bodies at one pose) and
 * sov_collide proves the overlap, d, n and the points are NaN. The reported t
 * is never later than the first contact; when the bodies do touch at t*,
 * t* - t is about d / (their closing speed at t*).
 * cache (may be NULL) warm-starts the first query and keeps the last
 * answer. Errors: SOV_ERR_NULL, bad shapes and poses as sov_distance,
 * SOV_ERR_OPTION for a negative or non-finite tolerance, max_steps < 1 or
 * bad distance options; SOV_ERR_NO_CONVERGENCE after max_steps (bodies
 * spinning close to each other take many steps: the rotation term counts
 * the whole radius), or a distance query's failure where the previous
 * normal proves no step; result->t then says how far [0, t) is proved
 * free. No heap; stack: sov_distance's and under 2 KB more (a cache of its
 * own when none is given). */
SOV_API int sov_time_of_contact(sov_toc_result *result, const sov_shape *A,
                                const sov_motion *MA, const sov_shape *B,
                                const sov_motion *MB,
                                const sov_toc_options *options,
                                sov_cache *cache);

/* The rounding floor of sov_time_of_contact, for callers that advance
 * bodies of their own (the FCL layer's continuous collision):
 * *allowance = 64 DBL_EPSILON scale, what rounding can take off a support
 * gap computed from numbers of size scale (the bodies' positions and
 * sizes), and *contact = max(tolerance, 2 *allowance), the distance at or
 * below which the bodies count as touching (closer than that, the gap less
 * its allowance proves no step). sov_time_of_contact takes scale =
 * |pA| + |pB| + rA + rB (origins and bounding radii at t). Either output
 * may be NULL. Errors: SOV_ERR_NULL (both NULL), SOV_ERR_NONFINITE (scale
 * or tolerance NaN or infinite), SOV_ERR_OPTION (either negative). */
SOV_API int sov_toc_rounding_floor(double *allowance, double *contact, double scale,
                                   double tolerance);

#ifdef __cplusplus
}
#endif

#endif /* SUPEROVOID_SUPEROVOID_H */
