/* The study's parametric quadtree initial guess for the angle methods. */
#include "solver/quadtree.h"

#include <stddef.h>

#include "solver/parametric.h"
#include "solver/pose.h"

/* Levels of the quadtree; level 0 splits the whole (phi1, phi2) domain. */
#define SOVC_QUADTREE_LEVELS 6

/* Centres ang[c] of the 2 x 2 sub-cells of cell [lo, hi] (c = i1 + 2 i2,
 * i1 along phi1, i2 along phi2) and their world surface points p[c]. */
static void quadtree_children(double ang[4][2], double p[4][3],
                              const double lo[2], const double hi[2],
                              const sovc_shape *shape, const sovc_pose *X) {
  for (int c = 0; c < 4; ++c) {
    double local[3];
    ang[c][0] = lo[0] + (0.5 * (c % 2) + 0.25) * (hi[0] - lo[0]);
    ang[c][1] = lo[1] + (0.5 * (c / 2) + 0.25) * (hi[1] - lo[1]);
    sovc_param_position(local, shape, ang[c][0], ang[c][1]);
    sovc_to_world(p[c], X, local);
  }
}

/* Shrink cell [lo, hi] to its sub-cell c (numbered as in quadtree_children). */
static void quadtree_descend(double lo[2], double hi[2], int c) {
  const double h1 = 0.5 * (hi[0] - lo[0]), h2 = 0.5 * (hi[1] - lo[1]);
  lo[0] += (c % 2) * h1;
  lo[1] += (c / 2) * h2;
  hi[0] = lo[0] + h1;
  hi[1] = lo[1] + h2;
}

/* Study's quadtree seed: at each of 6 levels split both bodies' cells into
 * quadrants, keep the closest of the 16 centre pairs (first on ties) and
 * descend into it; returns the final centres. */
void sovc_quadtree_seed(double phiA[2], double phiB[2], const sovc_pair *P) {
  double loA[2] = {-SOVC_PI, -0.5 * SOVC_PI}, hiA[2] = {SOVC_PI, 0.5 * SOVC_PI};
  double loB[2] = {-SOVC_PI, -0.5 * SOVC_PI}, hiB[2] = {SOVC_PI, 0.5 * SOVC_PI};
  for (int level = 0; level < SOVC_QUADTREE_LEVELS; ++level) {
    double angA[4][2], angB[4][2], pA[4][3], pB[4][3];
    quadtree_children(angA, pA, loA, hiA, P->A, P->XA);
    quadtree_children(angB, pB, loB, hiB, P->B, P->XB);
    int best_a = 0, best_b = 0;
    double best = -1.0;
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) {
        const double d[3] = {pB[j][0] - pA[i][0], pB[j][1] - pA[i][1], pB[j][2] - pA[i][2]};
        const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        if (best < 0.0 || d2 < best) {
          best = d2;
          best_a = i;
          best_b = j;
        }
      }
    }
    phiA[0] = angA[best_a][0];
    phiA[1] = angA[best_a][1];
    phiB[0] = angB[best_b][0];
    phiB[1] = angB[best_b][1];
    quadtree_descend(loA, hiA, best_a);
    quadtree_descend(loB, hiB, best_b);
  }
}
