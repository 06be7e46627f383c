/* The stable C API: argument checks, then the solver core. */
#include "superovoid/superovoid.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "c_api/api_check.h"
#include "c_api/storage.h"
#include "solver/bounds.h"
#include "solver/boxes.h"
#include "solver/convexity.h"
#include "solver/distance.h"
#include "solver/global.h"
#include "solver/parametric.h"
#include "solver/pose.h"
#include "solver/shape.h"
#include "solver/shape_init.h"
#include "solver/support.h"
#include "solver/support_epa.h"
#include "solver/support_gjk.h"
#include "solver/warm.h"

#define SOV_PI 3.14159265358979323846

#define SOV_STR2(x) #x
#define SOV_STR(x) SOV_STR2(x)

_Static_assert(sizeof(sovc_shape_storage) <= sizeof(sov_shape), "sov_shape too small");
_Static_assert(_Alignof(sovc_shape_storage) <= _Alignof(sov_shape), "sov_shape misaligned");
_Static_assert(sizeof(sovc_cache) <= sizeof(sov_cache), "sov_cache too small");
_Static_assert(_Alignof(sovc_cache) <= _Alignof(sov_cache), "sov_cache misaligned");
_Static_assert((int)SOV_METHOD_COUNT == (int)SOVC_METHOD_COUNT, "method enums differ");
_Static_assert((int)SOV_SEED_CACHE == (int)SOVC_SEED_CACHE, "seed enums differ");

static const char *const kMethodNames[SOV_METHOD_COUNT] = {"auto", "implicit",
                                                           "parametric", "ntb"};

/* "MAJOR.MINOR.PATCH". */
const char *sov_version(void) {
  return SOV_STR(SOV_VERSION_MAJOR) "." SOV_STR(SOV_VERSION_MINOR) "." SOV_STR(SOV_VERSION_PATCH);
}

/* Static message per status. */
const char *sov_status_string(int status) {
  switch (status) {
    case SOV_OK: return "success";
    case SOV_ERR_NULL: return "a required pointer argument is NULL";
    case SOV_ERR_NONFINITE: return "an input number is NaN or infinite";
    case SOV_ERR_SIZE: return "a semi-axis (a1, a2, a3) is not positive";
    case SOV_ERR_EXPONENT: return "an exponent (eps1, eps2) is outside (0, 2)";
    case SOV_ERR_TAPER: return "a taper (taper_x, taper_y) has magnitude >= 1";
    case SOV_ERR_NONCONVEX: return "the tapers make the body non-convex (see sov_shape_explain)";
    case SOV_ERR_QUATERNION: return "the quaternion is not unit within 1e-6";
    case SOV_ERR_ROTATION: return "the matrix is not a rotation within 1e-6";
    case SOV_ERR_OPTION: return "an option is out of range or unusable";
    case SOV_ERR_NO_CONVERGENCE: return "the method did not converge to the tolerance";
    case SOV_ERR_SINGULAR: return "the Newton system was singular";
    case SOV_ERR_BUFFER: return "an output buffer is too small";
    case SOV_ERR_SPURIOUS: return "the method converged to a common-normal pair that is not the answer";
    case SOV_ERR_RANGE: return "a result is past the double range";
    case SOV_ERR_UNINITIALIZED: return "the shape was not filled by sov_shape_init";
    case SOV_ERR_INDEX: return "a shape index is past the end of the batch's shapes";
    default: return "unknown status";
  }
}

/* Method name or NULL. */
const char *sov_method_name(sov_method method) {
  return (int)method >= 0 && method < SOV_METHOD_COUNT ? kMethodNames[method] : NULL;
}

/* Method from its name. */
int sov_method_from_name(sov_method *method, const char *name) {
  if (!method || !name) return SOV_ERR_NULL;
  for (int i = 0; i < SOV_METHOD_COUNT; ++i)
    if (strcmp(name, kMethodNames[i]) == 0) {
      *method = (sov_method)i;
      return SOV_OK;
    }
  return SOV_ERR_OPTION;
}

/* A result as the solver receives it: the caller's, so that what the
 * solver leaves unwritten keeps its value. */
static sovc_result result_from_public(const sov_result *r) {
  sovc_result out;
  out.d = r->d;
  memcpy(out.n, r->n, sizeof out.n);
  memcpy(out.pA, r->pA, sizeof out.pA);
  memcpy(out.pB, r->pB, sizeof out.pB);
  out.iterations = r->iterations;
  out.residual = r->residual;
  out.method = (sovc_method)r->method;
  return out;
}

/* Cheap re-check of a shape (full validation is sov_shape_init): storage
 * that sov_shape_init filled, with parameters still in range. */
static int check_shape(const sov_shape *shape) {
  if (!shape) return SOV_ERR_NULL;
  if (((const sovc_shape_storage *)(const void *)shape->opaque_)->tag != SOVC_SHAPE_TAG)
    return SOV_ERR_UNINITIALIZED;
  const sovc_shape *s = sovc_shape_of(shape);
  const double v[7] = {s->a[0], s->a[1], s->a[2], s->eps1, s->eps2, s->taper[0], s->taper[1]};
  if (!sovc_all_finite(v, 7) || !isfinite(s->radius)) return SOV_ERR_NONFINITE;
  if (!(v[0] > 0 && v[1] > 0 && v[2] > 0 && s->radius > 0)) return SOV_ERR_SIZE;
  if (!(v[3] > 0 && v[3] < 2 && v[4] > 0 && v[4] < 2)) return SOV_ERR_EXPONENT;
  if (!(fabs(v[5]) < 1 && fabs(v[6]) < 1)) return SOV_ERR_TAPER;
  return SOV_OK;
}

/* A caller's pose as the solver takes it: checked, and made a rotation to
 * rounding where it is not one (sovc_pose_from_raw). */
static int pose_in(sovc_pose *out, const sov_pose *X) {
  if (!X) return SOV_ERR_NULL;
  return sovc_pose_from_raw(out, X->R, X->p);
}

/* The support EPA's polytope storage (in work memory or on a stack
 * frame). */
typedef SOVC_POLYTOPE_STORAGE(SOVC_EPA_MAX_VERTS) epa_storage;

/* Alignment of the work memory within the caller's bytes. */
enum { kWorkAlign = 16 };

/* The caller's work memory from its first kWorkAlign-aligned byte (NULL:
 * none). */
static void *aligned_work(void *work) {
  if (!work) return NULL;
  const uintptr_t a = (uintptr_t)work;
  return (unsigned char *)work + (kWorkAlign - a % kWorkAlign) % kWorkAlign;
}

/* Options as the solver receives them (validated by check_options). */
static sovc_options options_from_public(const sov_options *o) {
  const sovc_options out = {(sovc_method)o->method, (sovc_seed)o->seed, o->tolerance,
                            o->max_iterations,      o->certify,         aligned_work(o->work)};
  return out;
}

/* Options in range, work memory (if any) large enough. */
static int check_options(const sov_options *o) {
  if (o->work && o->work_size < sov_work_size()) return SOV_ERR_BUFFER;
  if ((int)o->method < 0 || o->method >= SOV_METHOD_COUNT) return SOV_ERR_OPTION;
  if ((int)o->seed < 0 || o->seed > SOV_SEED_CACHE) return SOV_ERR_OPTION;
  if (!(o->tolerance > 0) || !isfinite(o->tolerance)) return SOV_ERR_OPTION;
  if (o->certify != 0 && o->certify != 1) return SOV_ERR_OPTION;
  return o->max_iterations > 0 ? SOV_OK : SOV_ERR_OPTION;
}

/* Validate and fill a shape. */
int sov_shape_init(sov_shape *shape, const double params[7]) {
  if (!shape || !params) return SOV_ERR_NULL;
  sovc_shape s;
  const int st = sovc_shape_init(&s, params);
  if (st != SOV_OK) return st;
  sovc_shape_storage *out = sovc_shape_storage_of(shape);
  memset(shape, 0, sizeof *shape);
  out->tag = SOVC_SHAPE_TAG;
  out->shape = s;
  return SOV_OK;
}

/* What callers may read of a shape. */
int sov_shape_get(sov_shape_info *info, const sov_shape *shape) {
  if (!info) return SOV_ERR_NULL;
  const int st = check_shape(shape);
  if (st != SOV_OK) return st;
  const sovc_shape *s = sovc_shape_of(shape);
  const double p[7] = {s->a[0], s->a[1], s->a[2], s->eps1, s->eps2, s->taper[0], s->taper[1]};
  memcpy(info->params, p, sizeof p);
  info->radius = s->radius;
  memcpy(info->aabb_lo, s->aabb_lo, sizeof s->aabb_lo);
  memcpy(info->aabb_hi, s->aabb_hi, sizeof s->aabb_hi);
  info->dent = s->dent;
  return SOV_OK;
}

/* Explain validity into buf. */
int sov_shape_explain(char *buf, size_t size, const double params[7]) {
  if (!buf || !params) return SOV_ERR_NULL;
  if (size == 0) return SOV_ERR_BUFFER;
  return sovc_shape_init_explain(NULL, buf, size, params);
}

/* Largest convex taper scale. */
int sov_shape_max_taper_scale(double *scale, const double params[7]) {
  if (!scale || !params) return SOV_ERR_NULL;
  /* Every check of sov_shape_init: sizes that no taper makes acceptable
   * (a1 = 1e-310) once passed as scale 1. */
  int st = sovc_shape_init_explain(NULL, NULL, 0, params);
  if (st == SOV_OK) return *scale = 1.0, SOV_OK;
  if (st != SOV_ERR_NONCONVEX) return st;
  const double s = sovc_max_taper_scale(params);
  /* The convexity check came first: the scaled body still meets the
   * others, or says which it fails. */
  const double scaled[7] = {params[0], params[1],     params[2],    params[3],
                            params[4], params[5] * s, params[6] * s};
  st = sovc_shape_init_explain(NULL, NULL, 0, scaled);
  if (st != SOV_OK) return st;
  *scale = s;
  return SOV_OK;
}

/* F, gradient, Hessian at a local point. */
int sov_shape_implicit(double *F, double grad[3], double hess[9],
                       const sov_shape *shape, const double x[3]) {
  if (!F || !x) return SOV_ERR_NULL;
  const int st = check_shape(shape);
  if (st != SOV_OK) return st;
  if (!sovc_all_finite(x, 3)) return SOV_ERR_NONFINITE;
  return sovc_implicit_checked(F, grad, hess, sovc_shape_of(shape), x) ? SOV_OK : SOV_ERR_RANGE;
}

/* Parametric point, tangents and normal. */
int sov_shape_point(double x[3], double t1[3], double t2[3], double n[3],
                    const sov_shape *shape, double phi1, double phi2) {
  if (!x) return SOV_ERR_NULL;
  const int st = check_shape(shape);
  if (st != SOV_OK) return st;
  if (!isfinite(phi1) || !isfinite(phi2)) return SOV_ERR_NONFINITE;
  sovc_surface_point s;
  sovc_param_point(&s, sovc_shape_of(shape), phi1, phi2);
  memcpy(x, s.x, sizeof s.x);
  if (t1) memcpy(t1, s.t1, sizeof s.t1);
  if (t2) memcpy(t2, s.t2, sizeof s.t2);
  if (n) memcpy(n, s.n, sizeof s.n);
  return SOV_OK;
}

/* Support point in a local direction. */
int sov_shape_support(double x[3], double *h, const sov_shape *shape,
                      const double dir[3]) {
  if (!x || !h || !dir) return SOV_ERR_NULL;
  const int st = check_shape(shape);
  if (st != SOV_OK) return st;
  if (!sovc_all_finite(dir, 3)) return SOV_ERR_NONFINITE;
  if (dir[0] == 0 && dir[1] == 0 && dir[2] == 0) return SOV_ERR_OPTION;
  /* The search runs on the unit direction: scaled by its largest entry
   * first, so that subnormal (c_api_fuzz: 5e-324) or huge directions keep
   * their digits; h scales back. */
  const double m = fmax(fabs(dir[0]), fmax(fabs(dir[1]), fabs(dir[2])));
  double u[3] = {dir[0] / m, dir[1] / m, dir[2] / m};
  const double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  for (int i = 0; i < 3; ++i) u[i] /= len;
  *h = sovc_support(x, sovc_shape_of(shape), u, NAN) * len * m;
  return SOV_OK;
}

/* Grid sizes; the limit keeps every index within an int. */
int sov_shape_tessellation_size(size_t *n_vertices, size_t *n_triangles, int n_lat,
                                int n_lon) {
  if (!n_vertices || !n_triangles) return SOV_ERR_NULL;
  if (n_lat < 2 || n_lon < 3 || n_lat > 1 << 14 || n_lon > 1 << 14) return SOV_ERR_OPTION;
  *n_vertices = (size_t)n_lon * (size_t)(n_lat - 1) + 2;
  *n_triangles = 2 * (size_t)n_lon * (size_t)(n_lat - 1);
  return SOV_OK;
}

/* Vertex 0 is the south pole, then n_lat - 1 rings of n_lon vertices from
 * south to north, then the north pole. */
int sov_shape_tessellate(double *vertices, size_t vertex_capacity, int *triangles,
                         size_t triangle_capacity, const sov_shape *shape, int n_lat,
                         int n_lon) {
  if (!vertices || !triangles) return SOV_ERR_NULL;
  size_t nv, nt;
  int st = sov_shape_tessellation_size(&nv, &nt, n_lat, n_lon);
  if (st != SOV_OK) return st;
  st = check_shape(shape);
  if (st != SOV_OK) return st;
  if (vertex_capacity < 3 * nv || triangle_capacity < 3 * nt) return SOV_ERR_BUFFER;
  const sovc_shape *s = sovc_shape_of(shape);
  const double dlon = 2 * SOV_PI / n_lon, dlat = SOV_PI / n_lat;
  double *v = vertices;
  sovc_param_position(v, s, 0, -SOV_PI / 2);
  v += 3;
  for (int i = 1; i < n_lat; ++i) {
    for (int j = 0; j < n_lon; ++j, v += 3) {
      sovc_param_position(v, s, -SOV_PI + dlon * j, -SOV_PI / 2 + dlat * i);
    }
  }
  sovc_param_position(v, s, 0, SOV_PI / 2);
  const int north = (int)nv - 1;
  int *t = triangles;
#define SOV_RING(i, j) (1 + ((i) - 1) * n_lon + ((j) % n_lon))
#define SOV_TRI(a, b, c) (t[0] = (a), t[1] = (b), t[2] = (c), t += 3)
  for (int j = 0; j < n_lon; ++j) {
    SOV_TRI(0, SOV_RING(1, j + 1), SOV_RING(1, j));
    for (int i = 1; i + 1 < n_lat; ++i) {
      SOV_TRI(SOV_RING(i, j), SOV_RING(i, j + 1), SOV_RING(i + 1, j + 1));
      SOV_TRI(SOV_RING(i, j), SOV_RING(i + 1, j + 1), SOV_RING(i + 1, j));
    }
    SOV_TRI(SOV_RING(n_lat - 1, j), SOV_RING(n_lat - 1, j + 1), north);
  }
#undef SOV_TRI
#undef SOV_RING
  return SOV_OK;
}

/* Volume. */
int sov_shape_volume(double *volume, const sov_shape *shape) {
  if (!volume) return SOV_ERR_NULL;
  const int st = check_shape(shape);
  if (st != SOV_OK) return st;
  *volume = sovc_shape_volume(sovc_shape_of(shape));
  return SOV_OK;
}

/* Volume, centre of mass and inertia about the origin from the volume and
 * the means over it. */
int sov_shape_mass(double *volume, double com[3], double inertia[9], const sov_shape *shape) {
  if (!volume) return SOV_ERR_NULL;
  const int st = check_shape(shape);
  if (st != SOV_OK) return st;
  double m[5];
  sovc_shape_moments(m, sovc_shape_of(shape));
  *volume = m[0];
  if (com) com[0] = com[1] = 0, com[2] = m[1];
  if (inertia) {
    for (int i = 0; i < 9; ++i) inertia[i] = 0;
    inertia[0] = m[0] * (m[3] + m[4]);
    inertia[4] = m[0] * (m[2] + m[4]);
    inertia[8] = m[0] * (m[2] + m[3]);
  }
  /* Bodies of size 1e62 and more: the inertia, a^2 V, overflows. */
  const int finite = isfinite(*volume) && (!com || sovc_all_finite(com, 3)) &&
                     (!inertia || sovc_all_finite(inertia, 9));
  return finite ? SOV_OK : SOV_ERR_RANGE;
}

/* Pose from a unit quaternion. */
int sov_pose_from_quat(sov_pose *pose, const double q[4], const double p[3]) {
  if (!pose || !q || !p) return SOV_ERR_NULL;
  sovc_pose X;
  const int st = sovc_pose_from_quat(&X, q, p);
  if (st == SOV_OK) sovc_pose_to_public(pose, &X);
  return st;
}

/* Pose from a rotation matrix. */
int sov_pose_from_matrix(sov_pose *pose, const double R[9], const double p[3]) {
  if (!pose || !R || !p) return SOV_ERR_NULL;
  sovc_pose X;
  const int st = sovc_pose_from_matrix(&X, R, p);
  if (st == SOV_OK) sovc_pose_to_public(pose, &X);
  return st;
}

/* Defaults: auto method, quadtree seed for the study methods. */
void sov_options_default(sov_options *options) {
  if (!options) return;
  sovc_options d;
  sovc_options_default(&d);
  options->method = (sov_method)d.method;
  options->seed = (sov_seed)d.seed;
  options->tolerance = d.tolerance;
  options->max_iterations = d.max_iterations;
  options->certify = d.certify;
  options->work = NULL;
  options->work_size = 0;
}

/* The larger of the search's and the EPA's bytes, and room to align
 * them. */
size_t sov_work_size(void) {
  const size_t search = sovc_search_work_size();
  return (search > sizeof(epa_storage) ? search : sizeof(epa_storage)) + kWorkAlign;
}

/* Forget the cached answer. */
void sov_cache_reset(sov_cache *cache) {
  if (cache) memset(cache, 0, sizeof *cache);
}

/* Cache from world points (e.g. an octree's nearest cells). */
int sov_cache_set(sov_cache *cache, const sov_pose *XA, const sov_pose *XB,
                  const double pA[3], const double pB[3]) {
  if (!cache || !pA || !pB) return SOV_ERR_NULL;
  sovc_pose xa, xb;
  int st = pose_in(&xa, XA);
  if (st == SOV_OK) st = pose_in(&xb, XB);
  if (st != SOV_OK) return st;
  if (!sovc_all_finite(pA, 3) || !sovc_all_finite(pB, 3)) return SOV_ERR_NONFINITE;
  sovc_cache_set(sovc_cache_of(cache), &xa, &xb, pA, pB);
  return SOV_OK;
}

/* Whether the cache holds an answer. */
int sov_cache_valid(const sov_cache *cache) {
  return cache && sovc_cache_intact((const sovc_cache *)(const void *)cache->opaque_);
}

/* All query arguments, in order; the poses as the solver takes them into
 * xa, xb. */
static int check_query(const sov_shape *A, const sov_pose *XA, const sov_shape *B,
                       const sov_pose *XB, const sov_options *options, sovc_pose *xa,
                       sovc_pose *xb) {
  int st = check_shape(A);
  if (st == SOV_OK) st = pose_in(xa, XA);
  if (st == SOV_OK) st = check_shape(B);
  if (st == SOV_OK) st = pose_in(xb, XB);
  if (st == SOV_OK && options) st = check_options(options);
  return st;
}

/* Signed distance. */
int sov_distance(sov_result *result, const sov_shape *A, const sov_pose *XA,
                 const sov_shape *B, const sov_pose *XB,
                 const sov_options *options, sov_cache *cache) {
  if (!result) return SOV_ERR_NULL;
  sovc_pose xa, xb;
  const int st = check_query(A, XA, B, XB, options, &xa, &xb);
  if (st != SOV_OK) return st;
  sovc_options opt;
  if (options)
    opt = options_from_public(options);
  else
    sovc_options_default(&opt);
  sovc_result r = result_from_public(result);
  const sovc_pair P = {sovc_shape_of(A), &xa, sovc_shape_of(B), &xb, 1};
  const int status = sovc_distance(&r, &P, &opt, cache ? sovc_cache_of(cache) : NULL);
  sovc_result_to_public(result, &r);
  return status;
}

/* Boolean collision. */
int sov_collide(int *colliding, const sov_shape *A, const sov_pose *XA,
                const sov_shape *B, const sov_pose *XB,
                const sov_options *options, sov_cache *cache) {
  if (!colliding) return SOV_ERR_NULL;
  sovc_pose xa, xb;
  const int st = check_query(A, XA, B, XB, options, &xa, &xb);
  if (st != SOV_OK) return st;
  sovc_options opt;
  if (options)
    opt = options_from_public(options);
  else
    sovc_options_default(&opt);
  const sovc_pair P = {sovc_shape_of(A), &xa, sovc_shape_of(B), &xb, 1};
  return sovc_collide(colliding, &P, &opt, cache ? sovc_cache_of(cache) : NULL);
}

/* A box's bounds: finite, lo <= hi. */
static int check_box(const double lo[3], const double hi[3]) {
  if (!lo || !hi) return SOV_ERR_NULL;
  if (!sovc_all_finite(lo, 3) || !sovc_all_finite(hi, 3)) return SOV_ERR_NONFINITE;
  for (int i = 0; i < 3; ++i)
    if (lo[i] > hi[i]) return SOV_ERR_SIZE;
  return SOV_OK;
}

/* Separating-axis proof for two posed boxes. */
int sov_boxes_apart(int *apart, const double lo_a[3], const double hi_a[3], const sov_pose *XA,
                    const double lo_b[3], const double hi_b[3], const sov_pose *XB) {
  if (!apart) return SOV_ERR_NULL;
  sovc_pose xa, xb;
  int st = check_box(lo_a, hi_a);
  if (st == SOV_OK) st = pose_in(&xa, XA);
  if (st == SOV_OK) st = check_box(lo_b, hi_b);
  if (st == SOV_OK) st = pose_in(&xb, XB);
  if (st != SOV_OK) return st;
  *apart = sovc_boxes_apart(lo_a, hi_a, &xa, lo_b, hi_b, &xb);
  return SOV_OK;
}

/* The arguments of the support-function queries: outputs and callbacks
 * given, the tolerance finite and positive. */
static int check_support_query(const sov_result *result, const int *overlapping,
                               sov_support_fn support_a, sov_support_fn support_b,
                               double tolerance) {
  if (!result || !overlapping || !support_a || !support_b) return SOV_ERR_NULL;
  if (!(tolerance > 0) || !isfinite(tolerance)) return SOV_ERR_OPTION;
  return SOV_OK;
}

/* A support-function query's answer: d, witnesses, its supports and its
 * bracket (n is set by the caller). */
static void support_answer(sov_result *result, double d, const double pA[3], const double pB[3],
                           int steps, double gap) {
  result->d = d;
  for (int i = 0; i < 3; ++i) {
    result->pA[i] = pA[i];
    result->pB[i] = pB[i];
  }
  result->iterations = steps;
  result->residual = gap;
  result->method = SOV_METHOD_AUTO;
}

/* EPA on two support functions (arguments checked), its polytope in
 * storage. */
static int penetration_in(epa_storage *storage, sov_result *result, int *overlapping,
                          const sovc_support_body *A, const sovc_support_body *B,
                          double tolerance) {
  sovc_polytope P;
  SOVC_POLYTOPE_ATTACH(&P, storage);
  sovc_support_epa out;
  const int st = sovc_support_penetration(&out, A, B, tolerance, &P);
  /* A run that stopped short of the tolerance still gives its bracket. */
  if (st != SOV_OK && !(st == SOV_ERR_NO_CONVERGENCE && isfinite(out.gap))) return st;
  *overlapping = out.overlapping;
  for (int i = 0; i < 3; ++i) result->n[i] = out.n[i];
  if (!out.overlapping) return SOV_OK;
  support_answer(result, -out.depth, out.pA, out.pB, out.steps, out.gap);
  return st;
}

/* EPA on two support functions, its polytope on this frame. */
int sov_support_penetration(sov_result *result, int *overlapping, sov_support_fn support_a,
                            const void *a, sov_support_fn support_b, const void *b,
                            double tolerance) {
  const int checked = check_support_query(result, overlapping, support_a, support_b, tolerance);
  if (checked != SOV_OK) return checked;
  const sovc_support_body A = {support_a, a}, B = {support_b, b};
  epa_storage storage;
  return penetration_in(&storage, result, overlapping, &A, &B, tolerance);
}

/* EPA on two support functions, its polytope in the caller's work memory
 * (none: on sov_support_penetration's frame, so that this one stays
 * small). */
int sov_support_penetration_work(sov_result *result, int *overlapping, sov_support_fn support_a,
                                 const void *a, sov_support_fn support_b, const void *b,
                                 double tolerance, void *work, size_t work_size) {
  if (!work)
    return sov_support_penetration(result, overlapping, support_a, a, support_b, b, tolerance);
  const int checked = check_support_query(result, overlapping, support_a, support_b, tolerance);
  if (checked != SOV_OK) return checked;
  if (work_size < sov_work_size()) return SOV_ERR_BUFFER;
  const sovc_support_body A = {support_a, a}, B = {support_b, b};
  return penetration_in(aligned_work(work), result, overlapping, &A, &B, tolerance);
}

/* GJK on two support functions. */
int sov_support_distance(sov_result *result, int *overlapping, sov_support_fn support_a,
                         const void *a, sov_support_fn support_b, const void *b,
                         const double start[3], double tolerance) {
  const int checked = check_support_query(result, overlapping, support_a, support_b, tolerance);
  if (checked != SOV_OK) return checked;
  const sovc_support_body A = {support_a, a}, B = {support_b, b};
  sovc_support_gjk out;
  const int st = sovc_support_distance(&out, &A, &B, start, tolerance);
  if (st != SOV_OK && st != SOV_ERR_NO_CONVERGENCE) return st;
  *overlapping = out.overlapping;
  if (out.overlapping) return SOV_OK;
  for (int i = 0; i < 3; ++i) result->n[i] = out.n[i];
  support_answer(result, out.d, out.pA, out.pB, out.steps, out.gap);
  return st;
}

/* GJK's verdict on two support functions. */
int sov_support_collide(int *colliding, sov_support_fn support_a, const void *a,
                        sov_support_fn support_b, const void *b, const double start[3]) {
  if (!colliding || !support_a || !support_b) return SOV_ERR_NULL;
  const sovc_support_body A = {support_a, a}, B = {support_b, b};
  sovc_support_gjk out;
  const int st = sovc_support_collide(&out, &A, &B, start);
  if (st == SOV_OK) *colliding = out.overlapping;
  return st;
}

/* The options check every query makes, for the batch calls (c_api/batch.c),
 * which make it once before any pair, and sov_time_of_contact (c_api/ccd.c). */
int sovc_api_check_options(const sov_options *options) {
  return check_options(options);
}

/* See api_check.h. */
sovc_options sovc_api_options(const sov_options *options) {
  return options_from_public(options);
}
