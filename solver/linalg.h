/* Small dense linear solves. The only file that includes lapacke.h is
 * linalg.c. */
#ifndef SOLVER_LINALG_H
#define SOLVER_LINALG_H

/* Solve the n x n system A x = b in place (A column-major, overwritten by its
 * LU factors; b overwritten by x). Returns 0, or SOV_ERR_SINGULAR. */
int sovc_solve(int n, double *A, double *b);

/* Least-squares solution of the m x n system A x = b (m >= n, A
 * column-major, overwritten); x is returned in the first n entries of b.
 * Returns 0, or SOV_ERR_SINGULAR if A is rank deficient. */
int sovc_least_squares(int m, int n, double *A, double *b);

#endif
