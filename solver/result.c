/* Distance answers: assembled from a common-normal pair, compared, kept,
 * and their witnesses balanced onto the surfaces. */
#include "solver/result.h"

#include <math.h>
#include <string.h>

#include "solver/pose.h"
#include "solver/posed.h"
#include "solver/support.h"

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

/* See result.h: exact supports hinted by the witnesses' heights. */
double sovc_hull_gap(const sovc_result *r, const sovc_pair *P) {
  double x[3], gap = 0;
  const double mn[3] = {-r->n[0], -r->n[1], -r->n[2]};
  sovc_support_eval e;
  if (P->A->dent > SOVC_DENT_NEGLECT) {
    sovc_to_local(x, P->XA, r->pA);
    e.z = x[2] / P->A->a[2];
    sovc_posed_support(&e, P->A, P->XA, r->n);
    gap += e.h - sovc_dot(r->n, r->pA);
  }
  if (P->B->dent > SOVC_DENT_NEGLECT) {
    sovc_to_local(x, P->XB, r->pB);
    e.z = x[2] / P->B->a[2];
    sovc_posed_support(&e, P->B, P->XB, mn);
    gap += e.h - sovc_dot(mn, r->pB);
  }
  return gap;
}
