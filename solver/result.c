/* Distance answer from a common-normal pair. */
#include "solver/result.h"

#include <math.h>

/* n from nA, d = n . (pB - pA); pA, pB copied. */
void sovc_result_set(sovc_result *result, const double pA[3], const double pB[3],
                     const double nA[3]) {
  const double s = 1.0 / sqrt(nA[0] * nA[0] + nA[1] * nA[1] + nA[2] * nA[2]);
  double d = 0;
  for (int i = 0; i < 3; ++i) {
    result->n[i] = nA[i] * s;
    result->pA[i] = pA[i];
    result->pB[i] = pB[i];
    d += result->n[i] * (pB[i] - pA[i]);
  }
  result->d = d;
}
