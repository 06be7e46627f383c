/* Method dispatch for distance and collision queries (inputs validated by
 * the C API). */
#ifndef SOLVER_DISTANCE_H
#define SOLVER_DISTANCE_H

#include "superovoid/superovoid.h"

/* Signed distance with the method and seed chosen in options; updates cache
 * (if given) on success. */
int sovc_distance(sov_result *result, const sov_shape *A, const sov_pose *XA,
                  const sov_shape *B, const sov_pose *XB,
                  const sov_options *options, sov_cache *cache);

/* Boolean overlap with early exits; *colliding = 1 when d <= 0. */
int sovc_collide(int *colliding, const sov_shape *A, const sov_pose *XA,
                 const sov_shape *B, const sov_pose *XB,
                 const sov_options *options, sov_cache *cache);

#endif
