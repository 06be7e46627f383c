/* Dense linear solves through LAPACKE (column-major, no transposition). */
#include "solver/linalg.h"

#include <lapacke.h>

#include "superovoid/superovoid.h"

/* LU with partial pivoting (dgesv); SOV_ERR_SINGULAR on a zero pivot. */
int sovc_solve(int n, double *A, double *b) {
  lapack_int ipiv[16];
  if (n > 16) return SOV_ERR_BUFFER;
  const lapack_int info = LAPACKE_dgesv_work(LAPACK_COL_MAJOR, n, 1, A, n, ipiv, b, n);
  return info == 0 ? SOV_OK : SOV_ERR_SINGULAR;
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
