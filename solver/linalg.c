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
