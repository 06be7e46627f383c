/* Small dense linear solves. The only file that includes lapacke.h is
 * linalg.c. */
#ifndef SOLVER_LINALG_H
#define SOLVER_LINALG_H

/* Solve the n x n system A x = b in place with LAPACKE's dgesv (A
 * column-major, overwritten by its LU factors; b overwritten by x), as the
 * study's scheme does. Returns 0, or SOV_ERR_SINGULAR. */
int sovc_solve(int n, double *A, double *b);

/* The same LU with partial pivoting, written out for n <= 8: the default
 * method's hot path, where dgesv's call overhead (about 7 k instructions
 * for a 6 x 6 system) would cost more than the rest of an iteration. A is
 * left unchanged. */
int sovc_solve_small(int n, const double *A, double *b);

/* LU factors of an n x n column-major matrix (n <= 8), for solving
 * several right-hand sides. */
typedef struct sovc_lu {
  int n, swap[8];
  double a[64], inv[8];
} sovc_lu;

/* Factor A (unchanged) into lu; SOV_ERR_SINGULAR on a zero or non-finite
 * pivot, SOV_ERR_BUFFER if n > 8. */
int sovc_lu_factor(sovc_lu *lu, int n, const double *A);

/* Overwrite b with the solution of A x = b from the factors of A. */
void sovc_lu_solve(const sovc_lu *lu, double *b);

/* Least-squares solution of the m x n system A x = b (m >= n, A
 * column-major, overwritten); x is returned in the first n entries of b.
 * Returns 0, or SOV_ERR_SINGULAR if A is rank deficient. */
int sovc_least_squares(int m, int n, double *A, double *b);

#endif
