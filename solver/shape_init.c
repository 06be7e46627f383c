/* Shape validation and the derived quantities (see shape_init.h). */
#include "solver/shape_init.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

#include "solver/bounds.h"
#include "solver/convexity.h"

/* See shape_init.h. */
int sovc_shape_init_explain(sovc_shape *shape, char *buf, size_t size, const double params[7]) {
  static const char *const sizes[3] = {"a1", "a2", "a3"};
  static const char *const least_widths[3] = {"(a1 (1 - |taper_x|))", "(a2 (1 - |taper_y|))", "a3"};
  sovc_shape s;
  const int status = sovc_shape_explain_dent(buf, size, params, &s.dent, s.dent_zone);
  if (status != SOV_OK) return status;
  for (int i = 0; i < 3; ++i) s.a[i] = params[i];
  /* Below DBL_MIN, 2 / eps overflows and e log t turns into inf x 0 = NaN
   * at t = 1. Every t^(2 / eps) of a double t other than 1 is already 0 or
   * inf at eps = DBL_MIN, so no double tells the two bodies apart. */
  s.eps1 = fmax(params[3], DBL_MIN);
  s.eps2 = fmax(params[4], DBL_MIN);
  s.taper[0] = params[5];
  s.taper[1] = params[6];
  /* The implicit function divides by a_i times the taper factor's least
   * value (1 - |taper|; 1 for a3). */
  for (int i = 0; i < 3; ++i) {
    const double least = i < 2 ? params[i] * (1 - fabs(params[5 + i])) : params[i];
    if (!isfinite(1 / least)) {
      if (buf && size > 0)
        snprintf(buf, size, "%s = %.10g is too small: 1 / %s overflows", sizes[i], params[i],
                 least_widths[i]);
      return SOV_ERR_SIZE;
    }
  }
  sovc_shape_bounds(s.aabb_lo, s.aabb_hi, &s.radius, &s);
  /* Extreme sizes (near 1e300 or 1e-300) can overflow or underflow the
   * derived bounds: refuse the shape as every query would, not later. */
  for (int i = 0; i < 3; ++i)
    if (!isfinite(s.aabb_lo[i]) || !isfinite(s.aabb_hi[i])) {
      if (buf && size > 0)
        snprintf(buf, size, "%s = %.10g makes the bounding box overflow", sizes[i], params[i]);
      return SOV_ERR_NONFINITE;
    }
  if (!isfinite(s.radius) || !(s.radius > 0)) {
    if (buf && size > 0)
      snprintf(buf, size, "a1 a2 a3 = %.10g %.10g %.10g make the squared bounding radius %s",
               params[0], params[1], params[2], isfinite(s.radius) ? "underflow to 0" : "overflow");
    return isfinite(s.radius) ? SOV_ERR_SIZE : SOV_ERR_NONFINITE;
  }
  if (shape) *shape = s;
  return SOV_OK;
}

/* See shape_init.h. */
int sovc_shape_init(sovc_shape *shape, const double params[7]) {
  return sovc_shape_init_explain(shape, NULL, 0, params);
}
