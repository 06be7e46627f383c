/* Method dispatch for distance and collision queries (inputs validated by
 * the C API). */
#ifndef SOLVER_DISTANCE_H
#define SOLVER_DISTANCE_H

#include "solver/types.h"

/* Default options (superovoid.h, sov_options_default). */
void sovc_options_default(sovc_options *options);

/* Signed distance with the method and seed chosen in options; updates cache
 * (if given) on success. */
int sovc_distance(sovc_result *result, const sovc_pair *P, const sovc_options *options,
                  sovc_cache *cache);

/* Boolean overlap with early exits; *colliding = 1 when d <= 0. */
int sovc_collide(int *colliding, const sovc_pair *P, const sovc_options *options,
                 sovc_cache *cache);

#endif
