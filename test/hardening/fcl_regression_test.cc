// Regression tests for bugs of the FCL layer found by the hardening work
// (docs/RELIABILITY.md).
#include <gtest/gtest.h>

#include <limits>

#include "superovoid/fcl/error.h"
#include "superovoid/fcl/superovoid.h"

namespace {

// fcl_fuzz: a superovoid with a2 = DBL_MAX was accepted (the core's
// sov_shape_init returns SOV_OK with an infinite bounding radius) and FCL's
// GJK then aborted on its assertion "A is not in region 1" against a
// cylinder. The layer now refuses shapes whose bounds leave the double range.
TEST(HardeningFclRegression, SuperovoidWithOverflowingBoundsIsRefused) {
  const double huge = std::numeric_limits<double>::max();
  EXPECT_THROW(sov::Superovoid(8.2444708595254106, huge, 0.13466008736688145, 1.1658651894112302,
                               0.83329226910490084, -0.49738955414174779, -0.39065679759336197),
               sov::Error);
  EXPECT_THROW(sov::Superovoid(1e-207, 1e-207, 1e-207, 1e-207, 1e-207), sov::Error);
  EXPECT_NO_THROW(sov::Superovoid(1e150, 1e150, 1e150, 1.0, 1.0));
}

}  // namespace
