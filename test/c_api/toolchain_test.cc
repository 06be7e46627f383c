// Guards against the GCC 12.2 -O3 SLP-vectorizer miscompile that the root
// CMakeLists.txt works around with -fno-tree-slp-vectorize: a loop rounding
// a vector of 3-arrays of doubles through float left its last elements
// unconverted. Checked in C++ here and in C (toolchain_check.c), with the
// project's flags, for counts around the vector widths.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "toolchain_check.h"

namespace {

__attribute__((noinline)) void roundToFloat(std::vector<std::array<double, 3>>& r) {
  for (auto& v : r) {
    for (double& x : v) x = static_cast<float>(x);
  }
}

TEST(Toolchain, VectorizedFloatRoundingConvertsEveryElement) {
  for (int n = 1; n <= 128; ++n) {
    std::vector<std::array<double, 3>> r(n);
    for (int k = 0; k < n; ++k) {
      for (int c = 0; c < 3; ++c) r[k][c] = 0.1 * (k + c + 1);
    }
    roundToFloat(r);
    int misses = 0;
    for (const auto& v : r) {
      for (double x : v) misses += x != static_cast<double>(static_cast<float>(x));
    }
    EXPECT_EQ(misses, 0) << "C++, " << n << " triples";
    EXPECT_EQ(sov_test_c_float_rounding_misses(n), 0) << "C, " << n << " triples";
  }
}

}  // namespace
