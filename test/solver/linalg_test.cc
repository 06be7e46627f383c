// Tests of the small dense solvers (solver/linalg.c): the fixed-size LU and
// its factor-once, solve-many form against products computed here.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

extern "C" {
#include "solver/linalg.h"
#include "superovoid/superovoid.h"
}

namespace {

// b = A x for a column-major n x n A.
void Multiply(double* b, const double* A, const double* x, int n) {
  for (int i = 0; i < n; ++i) {
    b[i] = 0;
    for (int j = 0; j < n; ++j) b[i] += A[j * n + i] * x[j];
  }
}

TEST(Linalg, SmallLuSolvesRandomSystemsOfEverySize) {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int n = 1; n <= 8; ++n) {
    for (int k = 0; k < 50; ++k) {
      double A[64], x[8], b[8];
      for (int i = 0; i < n * n; ++i) A[i] = u(rng);
      for (int i = 0; i < n; ++i) A[i * n + i] += 3 * (k % 2 ? 1 : -1);  // well conditioned
      for (int i = 0; i < n; ++i) x[i] = u(rng);
      Multiply(b, A, x, n);
      double A_copy[64];
      for (int i = 0; i < n * n; ++i) A_copy[i] = A[i];
      ASSERT_EQ(sovc_solve_small(n, A, b), SOV_OK);
      for (int i = 0; i < n; ++i) EXPECT_NEAR(b[i], x[i], 1e-13) << "n " << n;
      for (int i = 0; i < n * n; ++i) EXPECT_EQ(A[i], A_copy[i]) << "A is left unchanged";
    }
  }
}

TEST(Linalg, FactorsSolveSeveralRightHandSidesWithPivoting) {
  // A zero leading entry forces a row swap at the first column.
  const double A[9] = {0, 2, 1, 1, 0, 3, 4, 1, 0};  // column-major
  sovc_lu lu;
  ASSERT_EQ(sovc_lu_factor(&lu, 3, A), SOV_OK);
  const double xs[3][3] = {{1, 2, 3}, {-1, 0.5, 0}, {0, 0, 1e-3}};
  for (const auto& x : xs) {
    double b[3];
    Multiply(b, A, x, 3);
    sovc_lu_solve(&lu, b);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(b[i], x[i], 1e-15);
  }
}

TEST(Linalg, SingularAndOversizedSystemsAreRefused) {
  const double singular[4] = {1, 2, 2, 4};
  double b[2] = {1, 1};
  EXPECT_EQ(sovc_solve_small(2, singular, b), SOV_ERR_SINGULAR);
  const double with_nan[4] = {NAN, 0, 0, 1};
  EXPECT_EQ(sovc_solve_small(2, with_nan, b), SOV_ERR_SINGULAR);
  sovc_lu lu;
  double big[81] = {0};
  EXPECT_EQ(sovc_lu_factor(&lu, 9, big), SOV_ERR_BUFFER);
}

}  // namespace
