#include "solver.h"

#include <algorithm>

#include <cmath>
#include <string>

#include "dispatch.h"
#include "superovoid/error.h"

namespace sov {
namespace detail {
namespace {

// World support point of a posed core shape along a world direction.
Vector worldSupport(const sov_shape& A, const Transform& tfA, const Vector& dir) {
  const Vector local_dir = tfA.linear().transpose() * dir;
  Vector local;
  double h = 0;
  throwIfError(sov_shape_support(local.data(), &h, &A, local_dir.data()), "sov_shape_support");
  return tfA * local;
}

// The shape with parameters a1 a2 a3 1 1 0 0 (an ellipsoid).
sov_shape ellipsoidShape(double a1, double a2, double a3, const char* what) {
  const double params[7] = {a1, a2, a3, 1.0, 1.0, 0.0, 0.0};
  sov_shape shape;
  throwIfError(sov_shape_init(&shape, params), what);
  return shape;
}

}  // namespace

sov_pose toPose(const Transform& tf) {
  sov_pose pose;
  throwIfError(poseOf(tf, &pose), "pose of a superovoid pair");
  return pose;
}

void checkTransform(const fcl::CollisionGeometry<double>* o, const Transform& tf) {
  if (!tf.matrix().allFinite() || !(tf.matrix().cwiseAbs().maxCoeff() <= kMaxCoordinate)) {
    throw Error(SOV_ERR_NONFINITE,
                "pose of a superovoid pair: a coordinate is not finite or beyond 1e150");
  }
  if (asSuperovoid(o)) toPose(tf);
}

sov_shape coreShape(const Superovoid& s) { return s.shape(); }

sov_shape coreShape(const fcl::Sphere<double>& s) {
  return ellipsoidShape(s.radius, s.radius, s.radius, "fcl::Sphere as a superovoid");
}

sov_shape coreShape(const fcl::Ellipsoid<double>& s) {
  return ellipsoidShape(s.radii[0], s.radii[1], s.radii[2], "fcl::Ellipsoid as a superovoid");
}

Witness coreDistance(const sov_shape& A, const Transform& tfA, const sov_shape& B,
                     const Transform& tfB) {
  const sov_pose XA = toPose(tfA), XB = toPose(tfB);
  const sov_options options = withThreadWork(nullptr);
  sov_result r;
  throwIfError(sov_distance(&r, &A, &XA, &B, &XB, &options, nullptr), "sov_distance");
  return Witness{r.d, Eigen::Map<const Vector>(r.n), Eigen::Map<const Vector>(r.pA),
                 Eigen::Map<const Vector>(r.pB)};
}

bool coreCollide(const sov_shape& A, const Transform& tfA, const sov_shape& B,
                 const Transform& tfB) {
  const sov_pose XA = toPose(tfA), XB = toPose(tfB);
  const sov_options options = withThreadWork(nullptr);
  int colliding = 0;
  throwIfError(sov_collide(&colliding, &A, &XA, &B, &XB, &options, nullptr), "sov_collide");
  return colliding != 0;
}

// Halfspace n . x <= d: d(A, H) = -(h_A(-n) + d), attained along v = -n.
Witness halfspaceDistance(const sov_shape& A, const Transform& tfA,
                          const fcl::Halfspace<double>& h, const Transform& tfH) {
  toPose(tfA);  // validates the superovoid's pose
  const fcl::Halfspace<double> world = fcl::transform(h, tfH);
  const Vector pA = worldSupport(A, tfA, -world.n);
  const double d = world.n.dot(pA) - world.d;
  return Witness{d, -world.n, pA, pA - d * world.n};
}

// Plane n . x = d: the better of the two sides, v = -n (A above the plane)
// and v = n (A below): d = max(-(h_A(-n) + d), d - h_A(n)).
Witness planeDistance(const sov_shape& A, const Transform& tfA, const fcl::Plane<double>& p,
                      const Transform& tfP) {
  toPose(tfA);
  const fcl::Plane<double> world = fcl::transform(p, tfP);
  const Vector below = worldSupport(A, tfA, -world.n);
  const Vector above = worldSupport(A, tfA, world.n);
  const double d_above = world.n.dot(below) - world.d;
  const double d_below = world.d - world.n.dot(above);
  if (d_above >= d_below) return Witness{d_above, -world.n, below, below - d_above * world.n};
  return Witness{d_below, world.n, above, above + d_below * world.n};
}

bool boxesApart(const LocalBox& b1, const Transform& tf1, const LocalBox& b2,
                const Transform& tf2) {
  sov_pose x1, x2;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      x1.R[3 * i + j] = tf1.linear()(i, j);
      x2.R[3 * i + j] = tf2.linear()(i, j);
    }
    x1.p[i] = tf1.translation()[i];
    x2.p[i] = tf2.translation()[i];
  }
  const Vector lo1 = b1.centre - b1.half, hi1 = b1.centre + b1.half;
  const Vector lo2 = b2.centre - b2.half, hi2 = b2.centre + b2.half;
  int apart = 0;
  // A transform the core refuses (not a rotation) proves nothing here;
  // libccd answers the pair as before.
  return sov_boxes_apart(&apart, lo1.data(), hi1.data(), &x1, lo2.data(), hi2.data(), &x2) ==
             SOV_OK &&
         apart;
}

Witness swapped(const Witness& w) { return Witness{w.d, -w.n, w.pB, w.pA}; }

Witness supportWitness(const SupportBody& A, const SupportBody& B, double tolerance) {
  sov_result r;
  int overlapping = 0;
  const ThreadWork& work = threadWork();
  const int status = sov_support_penetration_work(&r, &overlapping, A.support, A.body, B.support,
                                                  B.body, tolerance, work.bytes.get(), work.size);
  Witness w{0, Vector::UnitZ(), Vector::Zero(), Vector::Zero()};
  const bool bracket = status == SOV_ERR_NO_CONVERGENCE && overlapping == 1;
  if (status == SOV_OK || bracket) {
    w.n = Vector(r.n[0], r.n[1], r.n[2]);
    if (overlapping) {
      w.d = r.d;
      w.pA = Vector(r.pA[0], r.pA[1], r.pA[2]);
      w.pB = Vector(r.pB[0], r.pB[1], r.pB[2]);
    } else {
      A.support(A.body, r.n, w.pA.data());
      w.pB = w.pA;
    }
  }
  if (!bracket) throwIfError(status, "EPA (sov_support_penetration) on two support functions");
  return w;
}

namespace {

// sov_support_fn of a point (double[3]): the point itself.
void pointSupport(const void* point, const double*, double x[3]) {
  const double* p = static_cast<const double*>(point);
  for (int i = 0; i < 3; ++i) x[i] = p[i];
}

}  // namespace

Witness ballWitness(const Vector& centre, double radius, const SupportBody& body, bool ball_first,
                    double tolerance) {
  const SupportBody point{&pointSupport, centre.data()};
  const SupportBody& A = ball_first ? point : body;
  const SupportBody& B = ball_first ? body : point;
  sov_result r;
  int overlapping = 0;
  const int status = sov_support_distance(&r, &overlapping, A.support, A.body, B.support, B.body,
                                          nullptr, tolerance);
  Witness w;
  if ((status == SOV_OK || status == SOV_ERR_NO_CONVERGENCE) && !overlapping &&
      std::isfinite(r.d)) {
    // Apart, or the bracket GJK reached (two points of the bodies, within
    // its residual of the distance).
    w = Witness{r.d, Vector(r.n[0], r.n[1], r.n[2]), Vector(r.pA[0], r.pA[1], r.pA[2]),
                Vector(r.pB[0], r.pB[1], r.pB[2])};
  } else if (overlapping) {
    w = supportWitness(A, B, tolerance);
    // Touching (a support value proved the centre on the surface): the
    // body's witness is the centre, not any extreme point along n.
    if (w.d == 0) w.pA = w.pB = centre;
  } else {
    throwIfError(status, "GJK (sov_support_distance) from a ball's centre");
  }
  // The ball's support point along its outward normal: pB - pA = d n holds
  // with d less the radius.
  w.d -= radius;
  if (ball_first)
    w.pA = centre + radius * w.n;
  else
    w.pB = centre - radius * w.n;
  return w;
}

void checkFinite(double d, const Vector* p1, const Vector* p2) {
  const bool finite = std::isfinite(d) && (!p1 || p1->allFinite()) && (!p2 || p2->allFinite());
  if (!finite) throwIfError(SOV_ERR_NONFINITE, "GJK (libccd) on a superovoid pair");
}

void checkFinite(const std::vector<fcl::ContactPoint<double>>* contacts) {
  if (!contacts) return;
  for (const auto& c : *contacts) {
    if (!(std::isfinite(c.penetration_depth) && c.pos.allFinite() && c.normal.allFinite())) {
      throwIfError(SOV_ERR_NONFINITE, "GJK (libccd) on a superovoid pair");
    }
  }
}

Witness sphereDistance(const fcl::Sphere<double>& a, const Transform& tfA,
                       const fcl::Sphere<double>& b, const Transform& tfB) {
  const Vector c = tfB.translation() - tfA.translation();
  const double length = c.norm();
  Witness w;
  w.n = length > 0 ? Vector(c / length) : Vector::UnitZ();
  w.d = length - a.radius - b.radius;
  w.pA = tfA.translation() + a.radius * w.n;
  w.pB = tfB.translation() - b.radius * w.n;
  return w;
}

namespace {

// The point of segment ab closest to p (a point when b = a).
Vector closestOnSegment(const Vector& p, const Vector& a, const Vector& b) {
  const Vector ab = b - a;
  const double len2 = ab.squaredNorm();
  if (!(len2 > 0)) return a;
  return a + std::clamp((p - a).dot(ab) / len2, 0.0, 1.0) * ab;
}

// The point of triangle abc closest to p (Ericson, Real-Time Collision
// Detection, 5.1.5: by the Voronoi regions of the vertices, edges and face).
// A triangle without area to rounding (two corners the same, or all on a
// line) is its edges: Ericson's regions divide by its zero lengths and area
// (NaN for [a, a, b], 1 in 3 sphere positions about it).
Vector closestOnTriangle(const Vector& p, const Vector& a, const Vector& b, const Vector& c) {
  const Vector ab = b - a, ac = c - a, ap = p - a;
  if (!(ab.cross(ac).squaredNorm() > 1e-28 * ab.squaredNorm() * ac.squaredNorm())) {
    const Vector candidates[3] = {closestOnSegment(p, a, b), closestOnSegment(p, b, c),
                                  closestOnSegment(p, c, a)};
    const Vector* best = &candidates[0];
    for (const Vector& q : candidates)
      if ((q - p).squaredNorm() < (*best - p).squaredNorm()) best = &q;
    return *best;
  }
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vector bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + d1 / (d1 - d3) * ab;
  const Vector cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + d2 / (d2 - d6) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
  }
  const double denom = 1 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

}  // namespace

bool sphereTriangleIntersect(const fcl::Sphere<double>& s, const Transform& tf, const Vector& P1,
                             const Vector& P2, const Vector& P3, Vector* contact, double* depth,
                             Vector* normal) {
  const Vector centre = tf.translation();
  const Vector q = closestOnTriangle(centre, P1, P2, P3);
  const Vector w = q - centre;
  const double r = w.norm();
  if (!(r <= s.radius)) return false;
  Vector n = r > 0 ? Vector(w / r) : Vector((P2 - P1).cross(P3 - P1));
  if (!(n.norm() > 0)) n = Vector::UnitZ();  // the centre on a degenerate triangle
  if (contact) *contact = q;
  if (depth) *depth = s.radius - r;
  if (normal) *normal = n.normalized();
  return true;
}

bool sphereTriangleDistance(const fcl::Sphere<double>& s, const Transform& tf, const Vector& P1,
                            const Vector& P2, const Vector& P3, double* dist, Vector* p1,
                            Vector* p2) {
  const Vector centre = tf.translation();
  const Vector q = closestOnTriangle(centre, P1, P2, P3);
  const Vector w = centre - q;
  const double r = w.norm();
  const bool apart = r > s.radius;
  if (dist) *dist = apart ? r - s.radius : -1.0;
  if (p1) *p1 = apart ? Vector(centre - w * (s.radius / r)) : q;
  if (p2) *p2 = q;
  checkFinite(dist ? *dist : 0.0, p1, p2);
  return apart;
}

}  // namespace detail
}  // namespace sov
