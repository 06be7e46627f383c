/* Dense linear solves through LAPACKE (column-major, no transposition). */
#include "solver/linalg.h"

#include <lapacke.h>
#include <math.h>

#include "solver/types.h"

/* LU with partial pivoting (dgesv); SOV_ERR_SINGULAR on a zero pivot. */
int sovc_solve(int n, double *A, double *b) {
  lapack_int ipiv[16];
  if (n > 16) return SOV_ERR_BUFFER;
  const lapack_int info = LAPACKE_dgesv_work(LAPACK_COL_MAJOR, n, 1, A, n, ipiv, b, n);
  return info == 0 ? SOV_OK : SOV_ERR_SINGULAR;
}

/* Gaussian elimination with partial pivoting on the column-major A, kept
 * as P A = L U: multipliers below the diagonal, swaps in lu->swap, one
 * reciprocal per pivot instead of divisions by it. Always inlined into
 * sovc_lu_factor's cases so each size is unrolled. */
static inline __attribute__((always_inline)) int lu_factor(sovc_lu *lu, int n, const double *A0) {
  double *A = lu->a;
  lu->n = n;
  for (int i = 0; i < n * n; ++i) A[i] = A0[i];
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (fabs(A[k * n + i]) > fabs(A[k * n + p])) p = i;
    const double piv = A[k * n + p];
    if (!(piv != 0) || !isfinite(piv)) return SOV_ERR_SINGULAR;
    lu->swap[k] = p;
    if (p != k)
      for (int j = 0; j < n; ++j) {
        const double t = A[j * n + k];
        A[j * n + k] = A[j * n + p];
        A[j * n + p] = t;
      }
    lu->inv[k] = 1 / piv;
    for (int i = k + 1; i < n; ++i) {
      const double l = A[k * n + i] * lu->inv[k];
      A[k * n + i] = l;
      for (int j = k + 1; j < n; ++j) A[j * n + i] -= l * A[j * n + k];
    }
  }
  return SOV_OK;
}

/* b = (P A)^-1 P b from the factors. */
static inline __attribute__((always_inline)) void lu_apply(const sovc_lu *lu, int n, double *b) {
  const double *A = lu->a;
  for (int k = 0; k < n; ++k) {
    const int p = lu->swap[k];
    const double t = b[k];
    b[k] = b[p];
    b[p] = t;
  }
  for (int k = 0; k < n; ++k)
    for (int i = k + 1; i < n; ++i) b[i] -= A[k * n + i] * b[k];
  for (int i = n - 1; i >= 0; --i) {
    double s = b[i];
    for (int j = i + 1; j < n; ++j) s -= A[j * n + i] * b[j];
    b[i] = s * lu->inv[i];
  }
}

/* The charts' fixed sizes (6 and 3) get their own unrolled copies. */
int sovc_lu_factor(sovc_lu *lu, int n, const double *A) {
  if (n == 6) return lu_factor(lu, 6, A);
  if (n == 3) return lu_factor(lu, 3, A);
  return n >= 1 && n <= 8 ? lu_factor(lu, n, A) : SOV_ERR_BUFFER;
}

void sovc_lu_solve(const sovc_lu *lu, double *b) {
  if (lu->n == 6) lu_apply(lu, 6, b);
  else if (lu->n == 3) lu_apply(lu, 3, b);
  else lu_apply(lu, lu->n, b);
}

/* Factor, then solve. */
int sovc_solve_small(int n, const double *A, double *b) {
  sovc_lu lu;
  const int st = sovc_lu_factor(&lu, n, A);
  if (st == SOV_OK) sovc_lu_solve(&lu, b);
  return st;
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
