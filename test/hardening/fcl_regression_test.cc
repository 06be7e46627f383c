// Regression tests for bugs of the FCL layer found by the hardening work
// (docs/RELIABILITY.md).
#include <fcl/geometry/shape/capsule.h>
#include <gtest/gtest.h>

#include <limits>

#include "superovoid/fcl/collision.h"
#include "superovoid/fcl/distance.h"
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

// fcl_fuzz: a capsule posed at z = DBL_MAX made FCL's GJK abort on its
// assertion "A is not in region 1" during sov::distance. Transforms of a
// superovoid pair with a coordinate beyond 1e150 are now refused.
TEST(HardeningFclRegression, HugeTranslationIsRefusedNotAborted) {
  const sov::Superovoid body(0.62365911805943652, 0.011481368374755385, 0.046896262105184772,
                             1.1803268892675798, 1.0203177858056627, -0.29823802851598746,
                             0.01695051181525109);
  const fcl::Capsule<double> capsule(1.0, 2.0);
  fcl::Transform3<double> tf_body = fcl::Transform3<double>::Identity();
  fcl::Transform3<double> tf_capsule = fcl::Transform3<double>::Identity();
  tf_capsule.translation() << 34.270432584025116, 192.45621932514729,
      std::numeric_limits<double>::max();
  fcl::DistanceResult<double> dres;
  EXPECT_THROW(
      sov::distance(&body, tf_body, &capsule, tf_capsule, fcl::DistanceRequest<double>(true), dres),
      sov::Error);
  fcl::CollisionResult<double> cres;
  EXPECT_THROW(
      sov::collide(&capsule, tf_capsule, &body, tf_body, fcl::CollisionRequest<double>(), cres),
      sov::Error);
  tf_capsule.translation() << 3, 0, 0;
  EXPECT_NO_THROW(sov::distance(&body, tf_body, &capsule, tf_capsule,
                                fcl::DistanceRequest<double>(true), dres));
}

}  // namespace
