/* Status codes of the superovoid C API, shared with the solver core below
 * it (which includes only this public header). 0 is success; every failure
 * is negative. */
#ifndef SUPEROVOID_STATUS_H
#define SUPEROVOID_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sov_status {
  SOV_OK = 0,
  SOV_ERR_NULL = -1,           /* a required pointer argument is NULL */
  SOV_ERR_NONFINITE = -2,      /* an input number is NaN or infinite */
  SOV_ERR_SIZE = -3,           /* a semi-axis a1, a2 or a3 is <= 0 */
  SOV_ERR_EXPONENT = -4,       /* eps1 or eps2 is outside (0, 2) */
  SOV_ERR_TAPER = -5,          /* |taper_x| or |taper_y| is >= 1 */
  SOV_ERR_NONCONVEX = -6,      /* the tapers make the body non-convex */
  SOV_ERR_QUATERNION = -7,     /* quaternion norm differs from 1 by > 1e-6 */
  SOV_ERR_ROTATION = -8,       /* matrix is not a rotation within 1e-6 */
  SOV_ERR_OPTION = -9,         /* an option is out of range */
  SOV_ERR_NO_CONVERGENCE = -10,/* the method did not reach the tolerance */
  SOV_ERR_SINGULAR = -11,      /* the Newton system was singular */
  SOV_ERR_BUFFER = -12,        /* an output buffer is too small */
  SOV_ERR_SPURIOUS = -13,      /* converged to a common-normal pair that is
                                  not the answer (far side, saddle, B's
                                  normal not opposite A's) */
  SOV_ERR_RANGE = -14,         /* a result is past the double range
                                  (sov_shape_implicit: with no defined sign) */
  SOV_ERR_UNINITIALIZED = -15, /* a sov_shape that sov_shape_init did not
                                  fill (zeroed or foreign storage) */
  SOV_ERR_INDEX = -16          /* a batch pair's shape index is past the end
                                  of the batch's shapes (sov_batch) */
} sov_status;

#ifdef __cplusplus
}
#endif

#endif /* SUPEROVOID_STATUS_H */
