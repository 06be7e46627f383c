/* The public opaque structs (superovoid.h) as the solver's types: the
 * storage behind sov_shape and sov_cache, and the conversions of the
 * transparent ones. Internal to c_api/ (and the tests of internals). */
#ifndef C_API_STORAGE_H
#define C_API_STORAGE_H

#include <string.h>

#include "solver/types.h"
#include "superovoid/superovoid.h"

/* Written by sov_shape_init in front of the shape: storage without it was
 * never initialised (zeroed, or some other struct's bytes). */
#define SOVC_SHAPE_TAG 0x736f765f73686170ull /* "sov_shap" */

/* What a sov_shape holds. */
typedef struct sovc_shape_storage {
  unsigned long long tag;
  sovc_shape shape;
} sovc_shape_storage;

/* The storage of a public shape. */
static inline sovc_shape_storage *sovc_shape_storage_of(sov_shape *s) {
  return (sovc_shape_storage *)(void *)s->opaque_;
}

/* The solver's shape inside a public one (tag not checked). */
static inline const sovc_shape *sovc_shape_of(const sov_shape *s) {
  return &((const sovc_shape_storage *)(const void *)s->opaque_)->shape;
}

/* The solver's cache inside a public one. */
static inline sovc_cache *sovc_cache_of(sov_cache *c) {
  return (sovc_cache *)(void *)c->opaque_;
}

/* A solver pose as the public one. */
static inline void sovc_pose_to_public(sov_pose *out, const sovc_pose *X) {
  memcpy(out->R, X->R, sizeof out->R);
  memcpy(out->p, X->p, sizeof out->p);
}

/* A solver answer as the public result. */
static inline void sovc_result_to_public(sov_result *out, const sovc_result *r) {
  out->d = r->d;
  memcpy(out->n, r->n, sizeof out->n);
  memcpy(out->pA, r->pA, sizeof out->pA);
  memcpy(out->pB, r->pB, sizeof out->pB);
  out->iterations = r->iterations;
  out->residual = r->residual;
  out->method = (sov_method)r->method;
}

#endif
