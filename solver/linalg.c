/* Dense linear solves through LAPACKE (column-major, no transposition). */
#include "solver/linalg.h"

#include <lapacke.h>
#include <math.h>

#include "superovoid/superovoid.h"

/* LU with partial pivoting (dgesv); SOV_ERR_SINGULAR on a zero pivot. */
int sovc_solve(int n, double *A, double *b) {
  lapack_int ipiv[16];
  if (n > 16) return SOV_ERR_BUFFER;
  const lapack_int info = LAPACKE_dgesv_work(LAPACK_COL_MAJOR, n, 1, A, n, ipiv, b, n);
  return info == 0 ? SOV_OK : SOV_ERR_SINGULAR;
}

/* Gaussian elimination with partial pivoting on the column-major A; always
 * inlined into sovc_solve_small's cases so each size is unrolled, and one
 * reciprocal per pivot replaces the divisions by it. */
static inline __attribute__((always_inline)) int lu_solve(int n, double *A, double *b) {
  double inv[8];
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (fabs(A[k * n + i]) > fabs(A[k * n + p])) p = i;
    const double piv = A[k * n + p];
    if (!(piv != 0) || !isfinite(piv)) return SOV_ERR_SINGULAR;
    if (p != k) {
      for (int j = k; j < n; ++j) {
        const double t = A[j * n + k];
        A[j * n + k] = A[j * n + p];
        A[j * n + p] = t;
      }
      const double t = b[k];
      b[k] = b[p];
      b[p] = t;
    }
    inv[k] = 1 / piv;
    for (int i = k + 1; i < n; ++i) {
      const double l = A[k * n + i] * inv[k];
      for (int j = k + 1; j < n; ++j) A[j * n + i] -= l * A[j * n + k];
      b[i] -= l * b[k];
    }
  }
  for (int i = n - 1; i >= 0; --i) {
    double s = b[i];
    for (int j = i + 1; j < n; ++j) s -= A[j * n + i] * b[j];
    b[i] = s * inv[i];
  }
  return SOV_OK;
}

/* The charts' fixed sizes (6 and 3) get their own unrolled copies. */
int sovc_solve_small(int n, double *A, double *b) {
  if (n == 6) return lu_solve(6, A, b);
  if (n == 3) return lu_solve(3, A, b);
  return n >= 1 && n <= 8 ? lu_solve(n, A, b) : SOV_ERR_BUFFER;
}

/* QR least squares (dgels); rank deficiency shows as a non-positive info
 * or a non-finite solution. */
int sovc_least_squares(int m, int n, double *A, double *b) {
  double work[256];
  if (m > 16 || n > m) return SOV_ERR_BUFFER;
  const lapack_int info = LAPACKE_dgels_work(LAPACK_COL_MAJOR, 'N', m, n, 1, A, m, b, m, work, 256);
  if (info != 0) return SOV_ERR_SINGULAR;
  for (int i = 0; i < n; ++i)
    if (!(b[i] == b[i]) || b[i] - b[i] != 0) return SOV_ERR_SINGULAR;
  return SOV_OK;
}
