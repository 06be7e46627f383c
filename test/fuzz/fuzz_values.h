// Decoding fuzzer bytes into doubles that reach both the valid and the
// hostile corners of the input space: raw bit patterns (NaN, inf, denormals),
// a table of special values, and values drawn inside a caller's range.
#ifndef SUPEROVOID_TEST_FUZZ_FUZZ_VALUES_H
#define SUPEROVOID_TEST_FUZZ_FUZZ_VALUES_H

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace sov_fuzz {

// Values at the edges of what a double can hold, and just past the edges of
// the valid shape, pose and option ranges.
inline double SpecialValue(uint8_t k) {
  static constexpr double kTable[] = {
      0.0,
      -0.0,
      1.0,
      -1.0,
      2.0,
      1e-300,
      -1e-300,
      4.9e-324,
      1e-310,
      1e300,
      -1e300,
      1e-12,
      1e-6,
      1e6,
      1e12,
      0.5,
      0.05,
      1.95,
      1.999999999,
      0.999999999,
      1e-8,
      1000.0,
      0.01,
      3.0,
      std::numeric_limits<double>::infinity(),
      -std::numeric_limits<double>::infinity(),
      std::numeric_limits<double>::quiet_NaN(),
      std::numeric_limits<double>::max(),
      std::numeric_limits<double>::min(),
      std::numeric_limits<double>::epsilon(),
  };
  return kTable[k % (sizeof kTable / sizeof kTable[0])];
}

// One double: mostly in [lo, hi] (log-uniform when lo > 0 and hi / lo > 100),
// sometimes a special value, sometimes any bit pattern.
inline double Value(FuzzedDataProvider &in, double lo, double hi) {
  const uint8_t mode = in.ConsumeIntegral<uint8_t>();
  if (mode < 16) return SpecialValue(in.ConsumeIntegral<uint8_t>());
  if (mode < 24) {
    const uint64_t bits = in.ConsumeIntegral<uint64_t>();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  const double t = in.ConsumeProbability<double>();
  if (lo > 0 && hi / lo > 100) return lo * std::pow(hi / lo, t);
  return lo + (hi - lo) * t;
}

}  // namespace sov_fuzz

#endif  // SUPEROVOID_TEST_FUZZ_FUZZ_VALUES_H
