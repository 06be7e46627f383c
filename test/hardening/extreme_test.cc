// Extreme but valid inputs (extreme_cases.h): every query is either answered
// correctly, checked against computations that do not use the distance
// solver (the construction's closed form, support-function bounds, a
// brute-force maximisation over directions, the implicit function at the
// witnesses), or refused with a named status. Never NaN, never a wrong sign.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "extreme_cases.h"
#include "superovoid/superovoid.h"

namespace {

using sov_hardening::BruteForceD;
using sov_hardening::Case;
using sov_hardening::ExtremeCases;
using sov_hardening::ExtremeShapes;
using sov_hardening::Layout;
using sov_hardening::LowerBound;
using sov_hardening::Vec;

// SPEC "Accuracy" (1e-9 on unit-scale bodies), relative to the query's scale.
constexpr double kRelTol = 1e-9;
// Directions of the brute-force search before its local refinement.
constexpr int kBruteDirections = 400;

// Scale of a query: the bodies' radii and the distance of their centres
// from the origin (rounding in world coordinates grows with both).
double Scale(const Case &c) {
  double s = std::fmax(sov_test::Info(c.A.shape).radius, sov_test::Info(c.B.shape).radius);
  for (int k = 0; k < 3; ++k)
    s = std::fmax(s, std::fmax(std::fabs(c.A.pose.p[k]), std::fabs(c.B.pose.p[k])));
  return s;
}

std::string Describe(const Case &c, const sov_result &r) {
  return c.category + " [" + c.shapes + "] d=" + sov_test::Num(r.d) +
         " gap=" + sov_test::Num(c.gap);
}

// Everything that must hold for an OK answer; "" when it does.
std::string CheckAnswered(const Case &c, const sov_result &r) {
  const double tol = kRelTol * Scale(c);
  std::string why;
  if (!std::isfinite(r.d)) return "non-finite d";
  const double nn = std::sqrt(r.n[0] * r.n[0] + r.n[1] * r.n[1] + r.n[2] * r.n[2]);
  if (!(std::fabs(nn - 1) <= 1e-12)) why += " |n|=" + sov_test::Num(nn) + ";";
  double gap = 0;
  for (int k = 0; k < 3; ++k) gap = std::fmax(gap, std::fabs(r.pB[k] - r.pA[k] - r.d * r.n[k]));
  if (!(gap <= tol)) why += " |pB-pA-d n|=" + sov_test::Num(gap) + ";";
  const double offA = sov_test::SurfaceOffset(c.A.shape, c.A.pose, r.pA);
  const double offB = sov_test::SurfaceOffset(c.B.shape, c.B.pose, r.pB);
  if (!(offA <= tol + sov_test::Info(c.A.shape).dent * sov_test::Info(c.A.shape).radius))
    why += " pA off by " + sov_test::Num(offA) + ";";
  if (!(offB <= tol + sov_test::Info(c.B.shape).dent * sov_test::Info(c.B.shape).radius))
    why += " pB off by " + sov_test::Num(offB) + ";";
  // d is attained by its own normal: d <= the SPEC's maximum.
  const Vec n = {r.n[0], r.n[1], r.n[2]};
  const double at_n = LowerBound(c.A, c.B, n);
  if (!(std::fabs(at_n - r.d) <= tol)) why += " -(h_A(n)+h_B(-n))=" + sov_test::Num(at_n) + ";";
  if (c.layout == Layout::kGap) {
    // The construction's common-normal pair: d >= gap, and d = gap when apart.
    if (!(r.d >= c.gap - tol)) why += " below the constructed gap;";
    if (c.gap >= 0 && !(r.d <= c.gap + tol)) why += " above the constructed gap;";
  }
  if (c.layout != Layout::kGap || c.gap < 0) {
    // No direction may give more than d (brute force never overestimates).
    const double brute = BruteForceD(c.A, c.B, kBruteDirections);
    if (!(r.d >= brute - tol)) why += " brute-force max " + sov_test::Num(brute) + " > d;";
  }
  if (c.centre_inside_both && !(r.d < 0)) why += " wrong sign: B's centre is inside both;";
  return why;
}

// Outcomes of one row of the table.
struct Row {
  int answered = 0;
  std::map<int, int> refused;  // status -> count
};

TEST(HardeningExtreme, ShapesOfTheMatrixAreValid) {
  for (const auto &s : ExtremeShapes()) {
    sov_shape shape;
    char why[256];
    sov_shape_explain(why, sizeof why, s.params);
    EXPECT_EQ(sov_shape_init(&shape, s.params), SOV_OK) << s.name << ": " << why;
  }
}

TEST(HardeningExtreme, AnsweredCorrectlyOrRefusedWithANamedStatus) {
  const std::vector<Case> cases = ExtremeCases();
  std::map<std::string, Row> table;
  std::vector<std::string> order;
  int failures = 0;
  for (const Case &c : cases) {
    if (!table.count(c.category)) order.push_back(c.category);
    Row &row = table[c.category];
    sov_result r{};
    const int st = sov_distance(&r, &c.A.shape, &c.A.pose, &c.B.shape, &c.B.pose, nullptr, nullptr);
    if (st != SOV_OK) {
      ++row.refused[st];
      std::printf("[ refused  ] %s [%s]: %s\n", c.category.c_str(), c.shapes.c_str(),
                  sov_status_string(st));
      EXPECT_TRUE(sov_test::IsHonestFailure(st))
          << c.category << " [" << c.shapes << "]: status " << st << " " << sov_status_string(st);
      continue;
    }
    ++row.answered;
    const std::string why = CheckAnswered(c, r);
    if (!why.empty() && ++failures <= 30) ADD_FAILURE() << Describe(c, r) << ":" << why;
    if (!why.empty()) continue;
    // The collision test agrees with the sign of d away from touching.
    int colliding = -1;
    const int cst =
        sov_collide(&colliding, &c.A.shape, &c.A.pose, &c.B.shape, &c.B.pose, nullptr, nullptr);
    const double tol = kRelTol * Scale(c);
    if (cst != SOV_OK) {
      EXPECT_TRUE(sov_test::IsHonestFailure(cst)) << Describe(c, r) << " collide status " << cst;
    } else if (std::fabs(r.d) > tol) {
      EXPECT_EQ(colliding, r.d <= 0 ? 1 : 0) << Describe(c, r);
    }
    // A warm start from the answer gives the same d.
    sov_cache cache;
    sov_cache_reset(&cache);
    for (int pass = 0; pass < 2; ++pass) {
      sov_result w{};
      const int wst =
          sov_distance(&w, &c.A.shape, &c.A.pose, &c.B.shape, &c.B.pose, nullptr, &cache);
      if (wst == SOV_OK) {
        EXPECT_NEAR(w.d, r.d, tol) << Describe(c, r) << " warm pass " << pass;
      } else {
        EXPECT_TRUE(sov_test::IsHonestFailure(wst)) << Describe(c, r) << " warm status " << wst;
      }
    }
  }
  EXPECT_EQ(failures, 0) << failures << " wrong answers";
  std::printf("[ matrix   ] %zu cases\n", cases.size());
  for (const auto &category : order) {
    const Row &row = table[category];
    std::printf("[ matrix   ] %-26s answered %4d", category.c_str(), row.answered);
    for (const auto &[status, count] : row.refused)
      std::printf("  refused %d x %s", count, sov_status_string(status));
    std::printf("\n");
  }
}

// Cases the global search once refused (SOV_ERR_NO_CONVERGENCE), now
// answered and checked like the rest. A body inside the needle: the optima
// form a ring around its axis, the search's list of polish starts filled up
// and it polished the same tight faces until its budget ran out. The
// octahedron against the diamond: near-duplicate support points at the
// diamond's vertices pinched the polytope (Polytope.HullOfNearDuplicate*).
TEST(HardeningExtreme, RingsOfOptimaAndDiamondVerticesAreAnswered) {
  int checked = 0;
  for (const Case &c : ExtremeCases()) {
    const bool needle = c.layout == Layout::kInside && c.shapes.rfind("needle 1000:1 |", 0) == 0;
    const bool diamond = c.shapes == "octahedron eps 1.95 | diamond eps 2 - 1e-9" &&
                         (c.layout == Layout::kCoincident || c.gap == 0);
    if (!needle && !diamond) continue;
    ++checked;
    sov_result r{};
    const int st = sov_distance(&r, &c.A.shape, &c.A.pose, &c.B.shape, &c.B.pose, nullptr, nullptr);
    ASSERT_EQ(st, SOV_OK) << c.category << " [" << c.shapes << "]: " << sov_status_string(st);
    EXPECT_EQ(CheckAnswered(c, r), "") << Describe(c, r);
  }
  EXPECT_EQ(checked, 14);
}

// Same inputs, same bits: the whole matrix twice in one process.
TEST(HardeningExtreme, RepeatedRunsGiveIdenticalBits) {
  const std::vector<Case> cases = ExtremeCases();
  const std::vector<Case> again = ExtremeCases();
  ASSERT_EQ(cases.size(), again.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    sov_result r1{}, r2{};
    const int s1 = sov_distance(&r1, &cases[i].A.shape, &cases[i].A.pose, &cases[i].B.shape,
                                &cases[i].B.pose, nullptr, nullptr);
    const int s2 = sov_distance(&r2, &again[i].A.shape, &again[i].A.pose, &again[i].B.shape,
                                &again[i].B.pose, nullptr, nullptr);
    EXPECT_EQ(s1, s2) << cases[i].category << " [" << cases[i].shapes << "]";
    EXPECT_TRUE(sov_test::SameBits(r1, r2)) << cases[i].category << " [" << cases[i].shapes << "]";
  }
}

}  // namespace
