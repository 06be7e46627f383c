/* Small dense linear solves. The only file that includes lapacke.h is
 * linalg.c. */
#ifndef SOLVER_LINALG_H
#define SOLVER_LINALG_H

/* Solve the n x n system A x = b in place (A column-major, overwritten by its
 * LU factors; b overwritten by x). Returns 0, or SOV_ERR_SINGULAR. */
int sovc_solve(int n, double *A, double *b);

#endif
