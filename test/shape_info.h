// What a public shape holds (sov_shape_get), for tests.
#ifndef SUPEROVOID_TEST_SHAPE_INFO_H
#define SUPEROVOID_TEST_SHAPE_INFO_H

#include <cmath>

#include "superovoid/superovoid.h"

namespace sov_test {

// The shape's info; all NaN for a shape that sov_shape_init did not fill.
inline sov_shape_info Info(const sov_shape& s) {
  sov_shape_info i;
  if (sov_shape_get(&i, &s) != SOV_OK) {
    const double nan = std::nan("");
    i = {{nan, nan, nan, nan, nan, nan, nan}, nan, {nan, nan, nan}, {nan, nan, nan}, nan};
  }
  return i;
}

}  // namespace sov_test

#endif
