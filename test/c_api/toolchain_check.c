/* The C half of Toolchain.VectorizedFloatRoundingConvertsEveryElement:
 * the loop GCC 12.2 miscompiles with SLP vectorization at -O3, compiled as
 * C with the project's flags. */
#include "toolchain_check.h"

typedef struct {
  double x[3];
} sov_test_triple;

/* noinline keeps the loop a loop over an unknown count. */
__attribute__((noinline)) static void round_to_float(sov_test_triple *r, int n) {
  for (int k = 0; k < n; ++k) {
    for (int c = 0; c < 3; ++c) r[k].x[c] = (float)r[k].x[c];
  }
}

int sov_test_c_float_rounding_misses(int n) {
  sov_test_triple r[128];
  if (n > 128) n = 128;
  for (int k = 0; k < n; ++k) {
    for (int c = 0; c < 3; ++c) r[k].x[c] = 0.1 * (k + c + 1);
  }
  round_to_float(r, n);
  int misses = 0;
  for (int k = 0; k < n; ++k) {
    for (int c = 0; c < 3; ++c) misses += r[k].x[c] != (double)(float)r[k].x[c];
  }
  return misses;
}
