/* Validation of a shape's seven parameters and the quantities derived
 * from them once: the solver's sovc_shape. */
#ifndef SOLVER_SHAPE_INIT_H
#define SOLVER_SHAPE_INIT_H

#include <stddef.h>

#include "solver/types.h"

/* Range checks and convexity of params[7] (a1 a2 a3 eps1 eps2 tx ty), then
 * the checks of the derived bounds and reciprocals; fills shape (if not
 * NULL) on success, else explains the refusal in buf (if not NULL). */
int sovc_shape_init_explain(sovc_shape *shape, char *buf, size_t size, const double params[7]);

/* sovc_shape_init_explain without the explanation. */
int sovc_shape_init(sovc_shape *shape, const double params[7]);

#endif
