/* Distance answers: assembled from a common-normal pair, compared, kept,
 * and their witnesses balanced onto the surfaces. */
#include "solver/result.h"

#include <math.h>
#include <string.h>

#include "solver/posed.h"

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

/* Swap the roles of A and B in an answer: same d, opposite normal. */
void sovc_result_swap(sovc_result *r) {
  for (int i = 0; i < 3; ++i) {
    const double t = r->pA[i];
    r->pA[i] = r->pB[i];
    r->pB[i] = t;
    r->n[i] = -r->n[i];
  }
}

/* Make pB - pA = d n exact (see result.h). The charts that stop on
 * |pB - pA| - |d| leave a tangential offset g where a nearly flat face or a
 * straight edge makes the witness point ill-determined: the witness on that
 * body slides along g and stays on its surface. Move the one that does;
 * returns 1 if a witness moved (offsets below tol are left alone). */
int sovc_balance_witnesses(sovc_result *r, const sovc_pair *P, double tol) {
  double g[3], movedA[3], movedB[3];
  for (int i = 0; i < 3; ++i) g[i] = r->pB[i] - r->pA[i] - r->d * r->n[i];
  if (fabs(g[0]) <= tol && fabs(g[1]) <= tol && fabs(g[2]) <= tol) return 0;
  for (int i = 0; i < 3; ++i) {
    movedA[i] = r->pA[i] + g[i];
    movedB[i] = r->pB[i] - g[i];
  }
  if (sovc_off_surface(P->A, P->XA, movedA) <= sovc_off_surface(P->B, P->XB, movedB))
    memcpy(r->pA, movedA, sizeof movedA);
  else
    memcpy(r->pB, movedB, sizeof movedB);
  return 1;
}

/* See result.h. */
int sovc_balanced_on_surfaces(sovc_result *r, const sovc_pair *P, double tol) {
  sovc_balance_witnesses(r, P, 0);
  return sovc_off_surface(P->A, P->XA, r->pA) <= tol + P->A->dent * P->A->radius &&
         sovc_off_surface(P->B, P->XB, r->pB) <= tol + P->B->dent * P->B->radius;
}

