/* Reproducible random draws of the C benchmark programs (sov_bench_degenerate,
 * sov_bench_near_contact): a 64-bit LCG with a 53-bit uniform draw, the same
 * on every libc, and a uniformly random unit quaternion. Header-only. */
#ifndef SOV_BENCH_RANDOM_H
#define SOV_BENCH_RANDOM_H

#include <math.h>

/* A uniform draw in [lo, hi) advancing *state. */
static inline double bench_uniform(unsigned long long *state, double lo, double hi) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return lo + (hi - lo) * (double)(*state >> 11) * (1.0 / 9007199254740992.0);
}

/* A uniformly random unit quaternion (w x y z): a draw in the unit 4-ball,
 * normalised. */
static inline void bench_random_quat(unsigned long long *state, double q[4]) {
  double n;
  do {
    n = 0;
    for (int i = 0; i < 4; ++i) {
      q[i] = bench_uniform(state, -1, 1);
      n += q[i] * q[i];
    }
  } while (n > 1 || n < 1e-6);
  n = sqrt(n);
  for (int i = 0; i < 4; ++i) q[i] /= n;
}

#endif
