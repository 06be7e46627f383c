/* See toolchain_check.c. */
#ifndef SUPEROVOID_TEST_TOOLCHAIN_CHECK_H
#define SUPEROVOID_TEST_TOOLCHAIN_CHECK_H

#ifdef __cplusplus
extern "C" {
#endif

/* Rounds n (<= 128) triples of doubles through float in a loop and returns
 * how many elements were left unrounded (0 with a correct compiler). */
int sov_test_c_float_rounding_misses(int n);

#ifdef __cplusplus
}
#endif

#endif
