// The study's parametric quadtree seed of solver/quadtree.c: where it lands
// for pairs with closed-form witness points, and the shape of its output.
#include <gtest/gtest.h>

#include <cmath>

extern "C" {
#include "solver/parametric.h"
#include "solver/pose.h"
#include "solver/quadtree.h"
#include "solver_api.h"
}

#include "spec_reference.h"

namespace {

using sov_spec::Dist;
using sov_spec::MakeShape;
using sov_spec::PoseQ;

using sov_spec::kPi;
constexpr int kLevels = 6;
// Final cell of the quadtree: 2 pi / 2^6 in phi1, pi / 2^6 in phi2.
constexpr double kCell1 = 2 * kPi / (1 << kLevels);
constexpr double kCell2 = kPi / (1 << kLevels);
// Angular diagonal of the final cell: a witness inside the cell is at most
// this arc (times the radius) from the cell centre's point on a sphere.
const double kCellDiagonal = std::hypot(kCell1, kCell2);
constexpr double kCentreTol = 1e-9;  // seed angles are exact cell centres

// World surface point of a posed shape at the given angles.
void WorldPoint(double w[3], const sovc_shape &s, const sovc_pose &X, const double phi[2]) {
  double l[3];
  sovc_param_position(l, &s, phi[0], phi[1]);
  sovc_to_world(w, &X, l);
}

TEST(QuadtreeSeed, SpheresOnAnAxisLandNearWitnessPoints) {
  // Equal spheres, B on a coordinate axis of A: the witness angles lie on
  // level-0 cell edges, the candidate pairs tie symmetrically, and every
  // level keeps the witness in (the closure of) the chosen cell. A generic
  // pose gives no such guarantee: the greedy descent can leave the witness's
  // cell at a coarse level.
  const double dirs[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  const double r = 0.8, L = 2.5;
  const sovc_shape S = MakeShape(r, r, r, 1, 1, 0, 0);
  for (const auto &u : dirs) {
    const sovc_pose XA = PoseQ(1, 0, 0, 0, 0, 0, 0), XB = PoseQ(1, 0, 0, 0, L * u[0], L * u[1], L * u[2]);
    double phiA[2], phiB[2], sA[3], sB[3];
    const double wA[3] = {r * u[0], r * u[1], r * u[2]};
    const double wB[3] = {(L - r) * u[0], (L - r) * u[1], (L - r) * u[2]};
    sovc_quadtree_seed(phiA, phiB, sov_test::SolverPair(&S, &XA, &S, &XB));
    WorldPoint(sA, S, XA, phiA);
    WorldPoint(sB, S, XB, phiB);
    EXPECT_LT(Dist(sA, wA), r * kCellDiagonal) << phiA[0] << " " << phiA[1];
    EXPECT_LT(Dist(sB, wB), r * kCellDiagonal) << phiB[0] << " " << phiB[1];
  }
}

TEST(QuadtreeSeed, CoaxialEllipsoidsLandNearTips) {
  const sovc_shape A = MakeShape(1.0, 0.6, 0.8, 1, 1, 0, 0);
  const sovc_shape B = MakeShape(0.5, 0.9, 0.7, 1, 1, 0, 0);
  const sovc_pose XA = PoseQ(1, 0, 0, 0, 0, 0, 0), XB = PoseQ(1, 0, 0, 0, 2, 0, 0);
  double phiA[2], phiB[2];
  sovc_quadtree_seed(phiA, phiB, sov_test::SolverPair(&A, &XA, &B, &XB));
  // Tips: A at (phi1, phi2) = (0, 0), B at (pi, 0), on cell corners; the
  // seeds are centres of cells touching them, half a cell away.
  EXPECT_LT(std::fabs(std::remainder(phiA[0], 2 * kPi)), kCell1);
  EXPECT_LT(std::fabs(phiA[1]), kCell2);
  EXPECT_LT(std::fabs(std::remainder(phiB[0] - kPi, 2 * kPi)), kCell1);
  EXPECT_LT(std::fabs(phiB[1]), kCell2);
}

// 1 if v is (lo + (k + 1/2) w) for some integer k.
bool IsCellCentre(double v, double lo, double w) {
  const double k = (v - lo) / w - 0.5;
  return std::fabs(k - std::round(k)) < kCentreTol;
}

TEST(QuadtreeSeed, ReturnsFinalCellCentresInsideTheDomain) {
  const sovc_shape A = MakeShape(1.1, 0.8, 0.9, 0.7, 0.5, 0.3, 0.3);
  const sovc_shape B = MakeShape(0.6, 1.0, 1.3, 1.5, 0.3, -0.2, -0.2);
  const sovc_pose XA = PoseQ(0.6, 0.2, -0.7, 0.3, 0.1, 0.2, -0.3);
  const sovc_pose XB = PoseQ(0.3, -0.8, 0.1, 0.5, 1.9, -1.1, 0.6);
  double phiA[2], phiB[2];
  sovc_quadtree_seed(phiA, phiB, sov_test::SolverPair(&A, &XA, &B, &XB));
  for (const double *phi : {phiA, phiB}) {
    EXPECT_GT(phi[0], -kPi);
    EXPECT_LE(phi[0], kPi);
    EXPECT_GE(phi[1], -kPi / 2);
    EXPECT_LE(phi[1], kPi / 2);
    EXPECT_TRUE(IsCellCentre(phi[0], -kPi, kCell1)) << phi[0];
    EXPECT_TRUE(IsCellCentre(phi[1], -kPi / 2, kCell2)) << phi[1];
  }
}

TEST(QuadtreeSeed, SwappingBodiesSwapsSeeds) {
  // A generic pose has no ties among the 16 candidate distances, so the
  // search does not depend on which body is called A.
  const sovc_shape A = MakeShape(1.0, 0.6, 0.8, 0.8, 1.2, 0, 0);
  const sovc_shape B = MakeShape(0.5, 0.9, 0.7, 1.3, 0.6, 0, 0);
  const sovc_pose XA = PoseQ(0.9, 0.1, -0.3, 0.2, 0, 0, 0);
  const sovc_pose XB = PoseQ(-0.2, 0.7, 0.4, -0.5, 1.8, 1.2, -0.5);
  double phiA[2], phiB[2], psiB[2], psiA[2];
  sovc_quadtree_seed(phiA, phiB, sov_test::SolverPair(&A, &XA, &B, &XB));
  sovc_quadtree_seed(psiB, psiA, sov_test::SolverPair(&B, &XB, &A, &XA));
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(phiA[i], psiA[i]);
    EXPECT_EQ(phiB[i], psiB[i]);
  }
}

}  // namespace
