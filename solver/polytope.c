/* Incremental convex hull (beneath-beyond) with horizon edges found by
 * matching the directed edges of the visible faces. */
#include "solver/polytope.h"

#include <math.h>
#include <string.h>

#include "solver/pose.h"

/* c = a - b. */
static void sub(double c[3], const double a[3], const double b[3]) {
  c[0] = a[0] - b[0];
  c[1] = a[1] - b[1];
  c[2] = a[2] - b[2];
}

/* Store face (i, j, k) in a free slot; returns 0 when full. */
static int add_face(sovc_polytope *P, int i, int j, int k) {
  int f = P->free_hint;
  while (f < P->nf && P->alive[f]) ++f;
  if (f >= P->nf) { /* >=: a hint past the end must not index past it */
    if (P->nf == P->max_faces) return 0;
    f = P->nf++;
  }
  P->free_hint = f + 1;
  double e1[3], e2[3], n[3];
  sub(e1, P->v[j], P->v[i]);
  sub(e2, P->v[k], P->v[i]);
  sovc_cross(n, e1, e2);
  const double len = sqrt(sovc_dot(n, n));
  P->face[f][0] = i;
  P->face[f][1] = j;
  P->face[f][2] = k;
  for (int c = 0; c < 3; ++c) P->normal[f][c] = len > 0 ? n[c] / len : 0;
  P->dist[f] = len > 0 ? sovc_dot(P->normal[f], P->v[i]) : INFINITY;
  P->alive[f] = 1;
  return 1;
}

/* Index of the point farthest from the affine hull of the chosen ones. */
static int farthest(const double (*pts)[3], int n, const int *chosen, int nc) {
  int best = -1;
  double bd = -1;
  for (int p = 0; p < n; ++p) {
    double d[3], e[3], c[3], m;
    sub(d, pts[p], pts[chosen[0]]);
    if (nc == 1) {
      m = sovc_dot(d, d);
    } else {
      sub(e, pts[chosen[1]], pts[chosen[0]]);
      if (nc == 2) {
        sovc_cross(c, d, e);
        m = sovc_dot(c, c) / fmax(sovc_dot(e, e), 1e-300);
      } else {
        double f2[3];
        sub(f2, pts[chosen[2]], pts[chosen[0]]);
        sovc_cross(c, e, f2);
        m = fabs(sovc_dot(c, d));
      }
    }
    if (m > bd) bd = m, best = p;
  }
  return best;
}

/* See polytope.h: the first face sovc_polytope_init would pick. */
int sovc_polytope_plane(double n[3], const double (*pts)[3], int count) {
  int ch[3] = {0, 0, 0};
  for (int k = 1; k < 3; ++k)
    if ((ch[k] = farthest(pts, count, ch, k)) < 0) return 0;
  double e[3], f[3];
  sub(e, pts[ch[1]], pts[ch[0]]);
  sub(f, pts[ch[2]], pts[ch[0]]);
  sovc_cross(n, e, f);
  const double len = sqrt(sovc_dot(n, n));
  if (!(len > 0) || !isfinite(len)) return 0;
  for (int i = 0; i < 3; ++i) n[i] /= len;
  return 1;
}

/* See polytope.h. */
void sovc_polytope_empty(sovc_polytope *P, int max_verts) {
  P->nv = P->nf = P->free_hint = 0;
  P->max_verts = max_verts;
  P->max_faces = 2 * max_verts;
}

/* Tetrahedron of well-spread points, then every other point added. */
int sovc_polytope_init(sovc_polytope *P, const double (*pts)[3],
                       const double (*aux)[3], int n, double eps) {
  int ch[4] = {0, 0, 0, 0};
  sovc_polytope_empty(P, P->max_verts);
  if (n < 4 || n > P->max_verts) return 0;
  /* farthest() finds none when every measure is NaN (overflowed points):
   * no tetrahedron then, rather than an index of -1. */
  for (int k = 1; k < 4; ++k) {
    ch[k] = farthest(pts, n, ch, k);
    if (ch[k] < 0) return 0;
  }
  double e1[3], e2[3], e3[3], c[3];
  sub(e1, pts[ch[1]], pts[ch[0]]);
  sub(e2, pts[ch[2]], pts[ch[0]]);
  sub(e3, pts[ch[3]], pts[ch[0]]);
  sovc_cross(c, e1, e2);
  const double vol = sovc_dot(c, e3);
  if (!(fabs(vol) > eps * sqrt(sovc_dot(e1, e1)) * sqrt(sovc_dot(e2, e2)))) return 0;
  for (int i = 0; i < 4; ++i) {
    memcpy(P->v[i], pts[ch[i]], sizeof P->v[i]);
    memcpy(P->aux[i], aux[ch[i]], sizeof P->aux[i]);
  }
  P->nv = 4;
  /* Orient so every face's normal points away from the fourth vertex. */
  if (vol < 0) {
    add_face(P, 0, 1, 2), add_face(P, 0, 3, 1), add_face(P, 0, 2, 3), add_face(P, 1, 3, 2);
  } else {
    add_face(P, 0, 2, 1), add_face(P, 0, 1, 3), add_face(P, 0, 3, 2), add_face(P, 1, 2, 3);
  }
  for (int p = 0; p < n; ++p)
    if (p != ch[0] && p != ch[1] && p != ch[2] && p != ch[3] &&
        sovc_polytope_add(P, pts[p], aux[p], eps) < 0)
      return 0;
  return 1;
}

/* Root of a's set in the union-find forest up (halving its path). */
static int root(int *up, int a) {
  while (up[a] != a) a = up[a] = up[up[a]];
  return a;
}

/* The rim of the n faces vis: their directed edges that none of the others
 * holds reversed, into horizon; faces that share an edge are joined in up.
 * Returns the rim's length, -1 if longer than the face store (rounding has
 * made the faces no disc; fuzz bug 23: a needle of aspect 2e14 against a
 * plate). */
static int rim(const sovc_polytope *P, const int *vis, int n, int (*horizon)[2], int *up) {
  int nh = 0;
  for (int a = 0; a < n; ++a) up[a] = a;
  for (int a = 0; a < n; ++a)
    for (int e = 0; e < 3; ++e) {
      const int i = P->face[vis[a]][e], j = P->face[vis[a]][(e + 1) % 3];
      int shared = -1;
      for (int b = 0; b < n && shared < 0; ++b)
        for (int g = 0; g < 3; ++g)
          if (P->face[vis[b]][g] == j && P->face[vis[b]][(g + 1) % 3] == i) {
            shared = b;
            break;
          }
      if (shared >= 0) {
        up[root(up, a)] = root(up, shared);
        continue;
      }
      if (nh == P->max_faces) return -1;
      horizon[nh][0] = i, horizon[nh][1] = j, ++nh;
    }
  return nh;
}

/* Beneath-beyond insertion of w. */
int sovc_polytope_add(sovc_polytope *P, const double w[3], const double aux[3],
                      double eps) {
  int *vis = P->vis, nvis = 0, most = 0;
  double above = 0;
  for (int f = 0; f < P->nf; ++f) {
    if (!P->alive[f]) continue;
    const double h = sovc_dot(P->normal[f], w) - P->dist[f];
    if (!(h > eps)) continue;
    if (h > above) above = h, most = nvis;
    vis[nvis++] = f;
  }
  if (nvis == 0) return 0;
  /* A point within eps of a vertex is that vertex: the faces holding it can
   * see it by their own rounding (a sliver's plane is off by 1e-13 at its
   * far corner), and adding it again would only fan degenerate faces from
   * it, round after round. Only those faces' vertices need checking. */
  for (int a = 0; a < nvis; ++a)
    for (int e = 0; e < 3; ++e) {
      const double *v = P->v[P->face[vis[a]][e]];
      if (fabs(w[0] - v[0]) <= eps && fabs(w[1] - v[1]) <= eps && fabs(w[2] - v[2]) <= eps)
        return 0;
    }
  if (P->nv == P->max_verts) return -1;
  int(*horizon)[2] = P->horizon, *up = P->up;
  int nh = rim(P, vis, nvis, horizon, up);
  if (nh < 0) return -1;
  /* The faces that see w form one patch in exact arithmetic, but rounding
   * can split them on slivers between support points 1e-9 to 1e-11 apart
   * (a diamond's vertex). Fanning every patch to w pinched the surface (a
   * directed edge in two faces), left faces with vertices far above their
   * planes, and the search stalled there. Only the patch of the face that
   * sees w most is replaced. */
  const int patch = root(up, most);
  int kept = 0;
  for (int a = 0; a < nvis; ++a)
    if (root(up, a) == patch) vis[kept++] = vis[a];
  if (kept < nvis) { /* the patch's rim is part of the whole one: never -1 */
    nvis = kept;
    nh = rim(P, vis, nvis, horizon, up);
  }
  /* Every face sees w only if the polytope is flat to rounding: w would
   * leave no face (bug 28: an empty hull then passed for a proof). */
  if (nh == 0) return -1;
  for (int a = 0; a < nvis; ++a) P->alive[vis[a]] = 0;
  if (vis[0] < P->free_hint) P->free_hint = vis[0]; /* vis is increasing */
  const int k = P->nv++;
  memcpy(P->v[k], w, sizeof P->v[k]);
  memcpy(P->aux[k], aux, sizeof P->aux[k]);
  for (int h = 0; h < nh; ++h)
    if (!add_face(P, horizon[h][0], horizon[h][1], k)) return -1;
  return 1;
}

/* Barycentric weights of a triangle's vertices a b c for the point
 * a + v (b - a) + w (c - a); lam may be NULL. */
static void weights(double lam[3], double v, double w) {
  if (lam) lam[0] = 1 - v - w, lam[1] = v, lam[2] = w;
}

/* Closest point of a triangle to the origin (Ericson, Real-Time Collision
 * Detection, 5.1.5, with p = origin). */
void sovc_polytope_closest(double x[3], double lam[3], const sovc_polytope *P, int f) {
  const double *a = P->v[P->face[f][0]], *b = P->v[P->face[f][1]], *c = P->v[P->face[f][2]];
  double ab[3], ac[3], ap[3] = {-a[0], -a[1], -a[2]};
  sub(ab, b, a);
  sub(ac, c, a);
  const double d1 = sovc_dot(ab, ap), d2 = sovc_dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) { memcpy(x, a, 3 * sizeof(double)); weights(lam, 0, 0); return; }
  const double bp[3] = {-b[0], -b[1], -b[2]};
  const double d3 = sovc_dot(ab, bp), d4 = sovc_dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) { memcpy(x, b, 3 * sizeof(double)); weights(lam, 1, 0); return; }
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const double t = d1 / (d1 - d3);
    for (int i = 0; i < 3; ++i) x[i] = a[i] + t * ab[i];
    weights(lam, t, 0);
    return;
  }
  const double cp[3] = {-c[0], -c[1], -c[2]};
  const double d5 = sovc_dot(ab, cp), d6 = sovc_dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) { memcpy(x, c, 3 * sizeof(double)); weights(lam, 0, 1); return; }
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const double t = d2 / (d2 - d6);
    for (int i = 0; i < 3; ++i) x[i] = a[i] + t * ac[i];
    weights(lam, 0, t);
    return;
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    for (int i = 0; i < 3; ++i) x[i] = b[i] + t * (c[i] - b[i]);
    weights(lam, 1 - t, t);
    return;
  }
  const double den = 1 / (va + vb + vc), v = vb * den, w = vc * den;
  for (int i = 0; i < 3; ++i) x[i] = a[i] + ab[i] * v + ac[i] * w;
  weights(lam, v, w);
}

/* Barycentric weights of the point p of face f's plane: ratios of the
 * sub-triangles' areas (each the cross product's component along the face
 * normal); 0 if the face is degenerate. */
static int plane_weights(double lam[3], const sovc_polytope *P, int f, const double p[3]) {
  double e[3][3], c[3], sum = 0;
  for (int k = 0; k < 3; ++k) sub(e[k], P->v[P->face[f][k]], p);
  for (int k = 0; k < 3; ++k) {
    sovc_cross(c, e[(k + 1) % 3], e[(k + 2) % 3]);
    lam[k] = sovc_dot(c, P->normal[f]);
    sum += lam[k];
  }
  if (!(sum > 0)) return 0;
  for (int k = 0; k < 3; ++k) lam[k] /= sum;
  return 1;
}

/* Distance along unit u at which the ray meets face f's plane; INFINITY if
 * the face is dead or does not face the ray. */
static double ray_distance(const sovc_polytope *P, int f, const double u[3]) {
  const double c = sovc_dot(P->normal[f], u);
  return P->alive[f] && c > 0 ? P->dist[f] / c : INFINITY;
}

/* The ray leaves a convex polytope around the origin through the plane it
 * meets first. Coplanar faces (a flat region of D) tie there: of the faces
 * within rounding of the first plane, the one holding the hit point is the
 * one whose smallest weight is largest (>= 0 up to rounding). */
int sovc_polytope_ray_face(double lam[3], const sovc_polytope *P, const double u[3]) {
  double tmin = INFINITY;
  for (int f = 0; f < P->nf; ++f) tmin = fmin(tmin, ray_distance(P, f, u));
  if (!(tmin > 0) || !isfinite(tmin)) return -1;
  int best = -1;
  double best_min = -INFINITY, w[3];
  for (int f = 0; f < P->nf; ++f) {
    const double t = ray_distance(P, f, u);
    if (!(t <= tmin * (1 + 1e-9))) continue;
    const double p[3] = {t * u[0], t * u[1], t * u[2]};
    if (!plane_weights(w, P, f, p)) continue;
    const double m = fmin(w[0], fmin(w[1], w[2]));
    if (m > best_min) best_min = m, best = f, memcpy(lam, w, sizeof w);
  }
  if (best < 0) return -1;
  /* A rounding-negative share is 0. */
  double sum = 0;
  for (int k = 0; k < 3; ++k) sum += lam[k] = fmax(0.0, lam[k]);
  for (int k = 0; k < 3; ++k) lam[k] /= sum;
  return best;
}
