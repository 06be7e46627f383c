/* Posed boxes (boxes.h). */
#include "solver/boxes.h"

#include <math.h>

#include "solver/pose.h"

/* Added to |R| so that a cross axis of near-parallel edges, whose gap and
 * reach both vanish with its length, proves nothing. */
static const double kParallel = 1e-9;
/* Rounding margin, relative to the coordinates and the boxes' sizes. */
static const double kMargin = 1e-12;

/* Centre (in the pose's parent frame) and half extents of a posed box. */
static void posed_box(double c[3], double half[3], const double lo[3], const double hi[3],
                      const sovc_pose *X) {
  const double local[3] = {0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])};
  sovc_rotate(c, X->R, local);
  for (int i = 0; i < 3; ++i) {
    c[i] += X->p[i];
    half[i] = 0.5 * (hi[i] - lo[i]);
  }
}

/* Box B in box A's frame: R = RA^T RB, t = RA^T (cB - cA), A = |R| + kParallel. */
typedef struct relative_boxes {
  double R[3][3], A[3][3], t[3], a[3], b[3], margin;
} relative_boxes;

static void relative(relative_boxes *q, const double loA[3], const double hiA[3],
                     const sovc_pose *XA, const double loB[3], const double hiB[3],
                     const sovc_pose *XB) {
  double cA[3], cB[3], d[3];
  posed_box(cA, q->a, loA, hiA, XA);
  posed_box(cB, q->b, loB, hiB, XB);
  for (int i = 0; i < 3; ++i) d[i] = cB[i] - cA[i];
  sovc_rotate_t(q->t, XA->R, d);
  double scale = 0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      q->R[i][j] = XA->R[i] * XB->R[j] + XA->R[3 + i] * XB->R[3 + j] + XA->R[6 + i] * XB->R[6 + j];
      q->A[i][j] = fabs(q->R[i][j]) + kParallel;
    }
    scale += fabs(XA->p[i]) + fabs(XB->p[i]) + q->a[i] + q->b[i];
  }
  q->margin = kMargin * scale;
}

static int beyond(double gap, double reach, double margin) { return fabs(gap) > reach + margin; }

int sovc_boxes_apart(const double loA[3], const double hiA[3], const sovc_pose *XA,
                     const double loB[3], const double hiB[3], const sovc_pose *XB) {
  relative_boxes q;
  relative(&q, loA, hiA, XA, loB, hiB, XB);
  for (int i = 0; i < 3; ++i) {
    const double reachA = q.a[i] + q.A[i][0] * q.b[0] + q.A[i][1] * q.b[1] + q.A[i][2] * q.b[2];
    if (beyond(q.t[i], reachA, q.margin)) return 1;
    const double gapB = q.R[0][i] * q.t[0] + q.R[1][i] * q.t[1] + q.R[2][i] * q.t[2];
    const double reachB = q.b[i] + q.A[0][i] * q.a[0] + q.A[1][i] * q.a[1] + q.A[2][i] * q.a[2];
    if (beyond(gapB, reachB, q.margin)) return 1;
  }
  /* Axis e_i x f_j: edge i of A, edge j of B. */
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const double gap = q.t[i2] * q.R[i1][j] - q.t[i1] * q.R[i2][j];
      const double reach = q.a[i1] * q.A[i2][j] + q.a[i2] * q.A[i1][j] + q.b[j1] * q.A[i][j2] +
                           q.b[j2] * q.A[i][j1];
      if (beyond(gap, reach, q.margin)) return 1;
    }
  }
  return 0;
}
