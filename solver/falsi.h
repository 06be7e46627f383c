/* Regula falsi on a bracket of a root, Illinois variant (M. Dowell and
 * P. Jarratt, BIT 11 (1971) 168-174): an end kept twice in a row has its
 * value halved, so that the next point moves off it. Used where a root of a
 * smooth function lies in a known bracket; the caller picks the trial
 * points (the false position, or its own) and says which end each
 * replaces. */
#ifndef SOLVER_FALSI_H
#define SOLVER_FALSI_H

/* The bracket [lo, hi] with its values: flo at lo, fhi at hi, of opposite
 * signs; side: the end moved last (-1 lo, +1 hi, 0 none yet). */
typedef struct sovc_falsi {
  double lo, hi, flo, fhi;
  int side;
} sovc_falsi;

/* The false position: where the chord through the ends crosses zero. */
static inline double sovc_falsi_point(const sovc_falsi *b) {
  return (b->lo * b->fhi - b->hi * b->flo) / (b->fhi - b->flo);
}

/* Trial t with value f replaces lo (to_lo) or hi; the other end's value is
 * halved if it was kept the step before too. */
static inline void sovc_falsi_move(sovc_falsi *b, int to_lo, double t, double f) {
  if (to_lo) {
    b->lo = t, b->flo = f;
    if (b->side == -1) b->fhi *= 0.5;
    b->side = -1;
  } else {
    b->hi = t, b->fhi = f;
    if (b->side == 1) b->flo *= 0.5;
    b->side = 1;
  }
}

#endif
