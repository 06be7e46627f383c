/* Incremental convex hull of support points of the Minkowski difference
 * D = A - B: the inner polytope of EPA (penetration) and of the polytope
 * distance search. Fixed capacity, no heap. */
#ifndef SOLVER_POLYTOPE_H
#define SOLVER_POLYTOPE_H

#include <stddef.h>

/* Triangulated convex polytope; faces are counter-clockwise seen from
 * outside, with outward unit normal and plane offset dist = normal . vertex
 * (the signed distance of the plane from the origin). Its arrays lie in
 * storage its owner gives (sovc_polytope_attach), sized for max_verts
 * vertices and twice as many faces. */
typedef struct sovc_polytope {
  int nv, nf;
  int max_verts, max_faces;
  double (*v)[3];
  double (*aux)[3]; /* caller's point per vertex */
  int (*face)[3];
  double (*normal)[3];
  double *dist;
  unsigned char *alive;
  int *vis, (*horizon)[2], *up; /* an insertion's scratch, one per face */
  int free_hint;                /* no dead face slot below this index */
} sovc_polytope;

/* Doubles of storage for a polytope of max_verts vertices: per vertex 6
 * doubles, per face (two per vertex) 7 doubles, 7 ints and a byte. */
#define SOVC_POLYTOPE_WORDS(max_verts) (21 * (size_t)(max_verts) + ((size_t)(max_verts) + 3) / 4)

/* Lays P's arrays over storage (SOVC_POLYTOPE_WORDS(max_verts) doubles);
 * P is empty until sovc_polytope_init. */
void sovc_polytope_attach(sovc_polytope *P, double *storage, int max_verts);

/* Hull of n points pts with their aux points (n >= 4, not all coplanar
 * within eps), in P's storage. Returns 1, or 0 if degenerate or over
 * capacity. */
int sovc_polytope_init(sovc_polytope *P, const double (*pts)[3],
                       const double (*aux)[3], int n, double eps);

/* Add point w (with its aux point): the faces that see it by more than eps
 * and are joined by edges to the one that sees it most are replaced by a
 * fan to w. Returns 1 if added, 0 if no face sees it or it lies within eps
 * of a vertex of a face that does, -1 if full. */
int sovc_polytope_add(sovc_polytope *P, const double w[3], const double aux[3],
                      double eps);

/* Closest point x of alive face f's triangle to the origin and its
 * barycentric weights lam over the face's vertices (lam may be NULL). */
void sovc_polytope_closest(double x[3], double lam[3], const sovc_polytope *P, int f);

/* The alive face through which the ray s u (s > 0, unit u) leaves the
 * polytope, which must hold the origin inside, and the barycentric weights
 * lam of the point where it does; -1 if none. */
int sovc_polytope_ray_face(double lam[3], const sovc_polytope *P, const double u[3]);

#endif
