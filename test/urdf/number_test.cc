// Strict number reading and rounded-up writing of the URDF layer.
#include "urdf/src/number.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace {

using sov::urdf::detail::formatRoundedUp;
using sov::urdf::detail::parseNumber;

TEST(UrdfNumber, WholeStringMustBeAFiniteNumber) {
  double v = 42;
  for (const char* bad : {"", " 1", "1 ", "1x", "x1", "nan", "NaN", "inf", "-infinity", "1e400",
                          "++1", "+-1", "-+1", "0x10", "1,5", "--1", "."}) {
    EXPECT_FALSE(parseNumber(bad, &v)) << bad;
  }
  EXPECT_FALSE(parseNumber(nullptr, &v));
  EXPECT_EQ(v, 42);
  EXPECT_TRUE(parseNumber("-0.25", &v));
  EXPECT_EQ(v, -0.25);
  EXPECT_TRUE(parseNumber("+1e-3", &v));
  EXPECT_EQ(v, 1e-3);
  EXPECT_TRUE(parseNumber("5.", &v));
  EXPECT_EQ(v, 5);
}

TEST(UrdfNumber, RoundedUpToSixDigits) {
  EXPECT_EQ(formatRoundedUp(0.012), "0.012");
  EXPECT_EQ(formatRoundedUp(0.0120000001), "0.0120001");
  EXPECT_EQ(formatRoundedUp(2.0 / 3.0), "0.666667");
  EXPECT_EQ(formatRoundedUp(123456.1), "123457");
  for (double x : {1e-9, 3.14159265358979, 0.0109305999, 7.0, 999999.5, 0.1 + 0.2}) {
    double back = 0;
    const std::string s = formatRoundedUp(x);
    ASSERT_TRUE(parseNumber(s.c_str(), &back)) << s;
    EXPECT_GE(back, x) << s;
    EXPECT_LE(back, x * (1 + 1e-5)) << s;
  }
}

}  // namespace
