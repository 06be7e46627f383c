/* Incremental convex hull of support points of the Minkowski difference
 * D = A - B: the inner polytope of EPA (penetration) and of the polytope
 * distance search. Fixed capacity, no heap. */
#ifndef SOLVER_POLYTOPE_H
#define SOLVER_POLYTOPE_H

/* Triangulated convex polytope; faces are counter-clockwise seen from
 * outside, with outward unit normal and plane offset dist = normal . vertex
 * (the signed distance of the plane from the origin). Its arrays lie in
 * storage its owner declares (SOVC_POLYTOPE_STORAGE) and attaches
 * (SOVC_POLYTOPE_ATTACH): a copy of this struct shares them. */
typedef struct sovc_polytope {
  int nv, nf;
  int max_verts, max_faces; /* the storage's: two faces per vertex */
  double (*v)[3];
  double (*aux)[3]; /* caller's point per vertex */
  int (*face)[3];
  double (*normal)[3];
  double *dist;
  unsigned char *alive;
  int *vis, (*horizon)[2], *up; /* an insertion's scratch, one per face */
  int free_hint;                /* no dead face slot below this index */
} sovc_polytope;

/* Storage of a polytope of N vertices, a type per capacity (each array of
 * its own type: nothing is read through another). */
#define SOVC_POLYTOPE_STORAGE(N)                                          \
  struct {                                                                \
    double v[N][3], aux[N][3], normal[2 * (N)][3], dist[2 * (N)];         \
    int face[2 * (N)][3], vis[2 * (N)], horizon[2 * (N)][2], up[2 * (N)]; \
    unsigned char alive[2 * (N)];                                         \
  }

/* Points P's arrays at storage s (a SOVC_POLYTOPE_STORAGE) and empties P
 * until sovc_polytope_init. */
#define SOVC_POLYTOPE_ATTACH(P, s)                                                             \
  ((P)->v = (s)->v, (P)->aux = (s)->aux, (P)->normal = (s)->normal, (P)->dist = (s)->dist,     \
   (P)->face = (s)->face, (P)->vis = (s)->vis, (P)->horizon = (s)->horizon, (P)->up = (s)->up, \
   (P)->alive = (s)->alive, sovc_polytope_empty((P), (int)(sizeof((s)->v) / sizeof((s)->v[0]))))

/* No vertex or face yet, in storage for max_verts vertices. */
void sovc_polytope_empty(sovc_polytope *P, int max_verts);

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

/* Unit normal n of the plane through the first of count points, the one
 * farthest from it and the one farthest from their line (the first face
 * sovc_polytope_init picks): where init finds the points flat, the
 * direction their hull lacks. 0 if they are collinear or not finite. */
int sovc_polytope_plane(double n[3], const double (*pts)[3], int count);

/* Closest point x of alive face f's triangle to the origin and its
 * barycentric weights lam over the face's vertices (lam may be NULL). */
void sovc_polytope_closest(double x[3], double lam[3], const sovc_polytope *P, int f);

/* The alive face through which the ray s u (s > 0, unit u) leaves the
 * polytope, which must hold the origin inside, and the barycentric weights
 * lam of the point where it does; -1 if none. */
int sovc_polytope_ray_face(double lam[3], const sovc_polytope *P, const double u[3]);

#endif
