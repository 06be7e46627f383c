// Deterministic random draws and rotation arithmetic shared by the C API's
// and the solver's randomized tests.
#ifndef SUPEROVOID_TEST_C_API_RANDOM_UTIL_H
#define SUPEROVOID_TEST_C_API_RANDOM_UTIL_H

#include <cmath>
#include <cstdint>
#include <random>

namespace sov_test {

// Deterministic generator (own seed, portable).
class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  // Uniform in [lo, hi).
  double Uniform(double lo, double hi) {
    return lo + (hi - lo) * static_cast<double>(gen_() >> 11) * 0x1.0p-53;
  }

 private:
  std::mt19937_64 gen_;
};

// Uniformly random unit quaternion (rejection from the 4-cube).
inline void RandomQuat(double q[4], Rng& rng) {
  for (;;) {
    double n2 = 0;
    for (int i = 0; i < 4; ++i) {
      q[i] = rng.Uniform(-1, 1);
      n2 += q[i] * q[i];
    }
    if (n2 > 1e-2 && n2 <= 1) {
      for (int i = 0; i < 4; ++i) q[i] /= std::sqrt(n2);
      return;
    }
  }
}

// Random unit vector.
inline void RandomUnit(double u[3], Rng& rng) {
  double q[4];
  RandomQuat(q, rng);
  const double n = std::sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int i = 0; i < 3; ++i) u[i] = q[1 + i] / n;
}

// C = A B for row-major 3x3 matrices.
inline void MatMul(double C[9], const double A[9], const double B[9]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

}  // namespace sov_test

#endif
