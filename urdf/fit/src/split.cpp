// Hierarchical plane cuts of a mesh for the union fit (see split.h and
// urdf/fit/README.md, "Unions").
#include "split.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>

namespace sov {
namespace urdf {
namespace detail {
namespace {

using Eigen::Vector3d;

Vector3d vec(const Point3& p) {
  return Vector3d(p[0], p[1], p[2]);
}
Point3 point(const Vector3d& v) {
  return {v[0], v[1], v[2]};
}

// The distinct corners of the triangles.
std::vector<Point3> corners(const std::vector<Triangle>& triangles) {
  std::vector<Point3> pts;
  pts.reserve(3 * triangles.size());
  for (const Triangle& t : triangles) pts.insert(pts.end(), t.begin(), t.end());
  std::sort(pts.begin(), pts.end());
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  return pts;
}

// The principal axes of the points (columns), from their covariance.
Eigen::Matrix3d principalAxes(const std::vector<Point3>& pts) {
  Vector3d mean = Vector3d::Zero();
  for (const Point3& p : pts) mean += vec(p);
  mean /= static_cast<double>(pts.size());
  Eigen::Matrix3d C = Eigen::Matrix3d::Zero();
  for (const Point3& p : pts) C += (vec(p) - mean) * (vec(p) - mean).transpose();
  return Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(C).eigenvectors();
}

// Appends the fan triangulation of a convex polygon (3 or 4 corners here).
void addFan(std::vector<Triangle>& out, const std::vector<Point3>& polygon) {
  for (std::size_t i = 1; i + 1 < polygon.size(); ++i)
    out.push_back({polygon[0], polygon[i], polygon[i + 1]});
}

// Volume of the box of the points in their principal frame (the frame a
// fit starts from): a cheap stand-in for a fitted body's volume, which a
// superovoid with small exponents approaches; 0 when they are flat or too few.
double boxVolume(const std::vector<Point3>& pts) {
  if (pts.size() < 4) return 0;
  const Eigen::Matrix3d E = principalAxes(pts);
  Vector3d lo = Vector3d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
  for (const Point3& p : pts) {
    const Vector3d y = E.transpose() * vec(p);
    lo = lo.cwiseMin(y);
    hi = hi.cwiseMax(y);
  }
  return (hi - lo).prod();
}

// What one more cut could leave of the piece's box volume: the smallest
// sum of the two sides' box volumes over planes across the piece's
// principal axes, swept between its corners. A side reaches the plane
// along the axis only where a triangle crosses it, so parts apart (the
// arms of a U) leave their gap out. The box volume when no plane does better.
double nextBoxVolume(const Piece& piece) {
  const std::vector<Point3>& pts = piece.points;
  const double whole = boxVolume(pts);
  if (pts.size() < 8) return whole;
  const Eigen::Matrix3d E = principalAxes(pts);
  std::vector<Vector3d> y;
  for (const Point3& p : pts) y.push_back(E.transpose() * vec(p));
  const std::size_t n = y.size();
  double best = whole;
  for (int a = 0; a < 3; ++a) {
    std::sort(y.begin(), y.end(),
              [a](const Vector3d& u, const Vector3d& v) { return u[a] < v[a]; });
    std::vector<double> tlo, thi;  // each triangle's range along the axis
    const Vector3d u = E.col(a);
    for (const Triangle& t : piece.triangles) {
      const double s0 = u.dot(vec(t[0])), s1 = u.dot(vec(t[1])), s2 = u.dot(vec(t[2]));
      tlo.push_back(std::min({s0, s1, s2}));
      thi.push_back(std::max({s0, s1, s2}));
    }
    std::sort(tlo.begin(), tlo.end());
    std::sort(thi.begin(), thi.end());
    std::vector<Vector3d> slo(n), shi(n);  // boxes of the points from i on
    slo[n - 1] = shi[n - 1] = y[n - 1];
    for (std::size_t i = n - 1; i-- > 0;) {
      slo[i] = slo[i + 1].cwiseMin(y[i]);
      shi[i] = shi[i + 1].cwiseMax(y[i]);
    }
    Vector3d plo = y[0], phi = y[0];  // box of the points up to i
    std::size_t started = 0, ended = 0;
    for (std::size_t i = 0; i + 1 < n; ++i) {
      plo = plo.cwiseMin(y[i]);
      phi = phi.cwiseMax(y[i]);
      if (!(y[i][a] < y[i + 1][a])) continue;
      const double s = 0.5 * (y[i][a] + y[i + 1][a]);
      while (started < tlo.size() && tlo[started] < s) ++started;
      while (ended < thi.size() && thi[ended] < s) ++ended;
      Vector3d blo = plo, bhi = phi, alo = slo[i + 1], ahi = shi[i + 1];
      if (started > ended) bhi[a] = alo[a] = s;  // a triangle crosses the plane
      best = std::min(best, (bhi - blo).prod() + (ahi - alo).prod());
    }
  }
  return best;
}

// The cut's side volumes filled in (what one more cut of each side could
// leave of it too, with lookahead); valid when both sides are solid.
Cut evaluate(const Piece& piece, const Vector3d& n, double offset, bool lookahead) {
  Cut c;
  for (int k = 0; k < 3; ++k) c.normal[k] = n[k];
  c.offset = offset;
  Piece below, above;
  cutPiece(piece, c, below, above);
  c.below_volume = boxVolume(below.points);
  c.above_volume = boxVolume(above.points);
  c.valid = c.below_volume > 0 && c.above_volume > 0;
  c.below_next = lookahead && c.valid ? nextBoxVolume(below) : c.below_volume;
  c.above_next = lookahead && c.valid ? nextBoxVolume(above) : c.above_volume;
  return c;
}

// True when a is a valid cut with a smaller sum of side volumes after one
// more cut each (the sides' own volumes without lookahead) than b's.
bool better(const Cut& a, const Cut& b) {
  return a.valid && (!b.valid || a.below_next + a.above_next < b.below_next + b.above_next);
}

// 13 plane normals in the principal frame of the points: the axes, the face
// diagonals and the space diagonals.
std::vector<Vector3d> candidateNormals(const std::vector<Point3>& pts) {
  const Eigen::Matrix3d E = principalAxes(pts);
  std::vector<Vector3d> normals;
  for (int i = -1; i <= 1; ++i)
    for (int j = -1; j <= 1; ++j)
      for (int k = -1; k <= 1; ++k) {
        const Vector3d d(i, j, k);
        // One of each pair +-d: the first non-zero coordinate positive.
        const bool first = i > 0 || (i == 0 && (j > 0 || (j == 0 && k > 0)));
        if (first) normals.push_back((E * d).normalized());
      }
  return normals;
}

// The range of n.x over the points.
void extent(const std::vector<Point3>& pts, const Vector3d& n, double& lo, double& hi) {
  lo = std::numeric_limits<double>::infinity();
  hi = -lo;
  for (const Point3& p : pts) {
    const double t = n.dot(vec(p));
    lo = std::min(lo, t);
    hi = std::max(hi, t);
  }
}

// Pattern search about a valid cut: the offset moved by +-h and the normal
// turned by +-angle about two axes across it (the plane kept through its
// point nearest the piece's centroid), both steps halved when nothing
// improves, `rounds` halvings in all; cuts compared looking one cut ahead
// or not.
Cut refine(const Piece& piece, Cut best, double h, double angle, int rounds, bool lookahead) {
  Vector3d centroid = Vector3d::Zero();
  for (const Point3& p : piece.points) centroid += vec(p);
  centroid /= static_cast<double>(piece.points.size());
  for (int r = 0; r < rounds;) {
    const Vector3d n(best.normal[0], best.normal[1], best.normal[2]);
    const Vector3d on_plane = centroid + (best.offset - n.dot(centroid)) * n;
    const Vector3d t1 = n.unitOrthogonal(), t2 = n.cross(t1);
    std::vector<std::pair<Vector3d, double>> trials = {{n, best.offset + h}, {n, best.offset - h}};
    for (const Vector3d& axis : {t1, t2})
      for (const double a : {angle, -angle}) {
        const Vector3d m = Eigen::AngleAxisd(a, axis) * n;
        trials.push_back({m, m.dot(on_plane)});
      }
    bool moved = false;
    for (const auto& [m, offset] : trials) {
      const Cut c = evaluate(piece, m, offset, lookahead);
      if (better(c, best)) best = c, moved = true;
    }
    if (!moved) h *= 0.5, angle *= 0.5, ++r;
  }
  return best;
}

}  // namespace

Piece wholeMesh(const TriangleMesh& mesh) {
  Piece piece;
  piece.triangles.reserve(mesh.triangles.size());
  std::vector<bool> used(mesh.vertices.size(), false);
  for (const auto& t : mesh.triangles) {
    Triangle x;
    for (int k = 0; k < 3; ++k) {
      const std::size_t v = static_cast<std::size_t>(t[k]);
      x[k] = mesh.vertices.at(v);
      used[v] = true;
    }
    piece.triangles.push_back(x);
  }
  // A vertex of no triangle is kept as a triangle shrunk to it, so that it
  // too ends inside the union.
  for (std::size_t v = 0; v < used.size(); ++v)
    if (!used[v]) piece.triangles.push_back({mesh.vertices[v], mesh.vertices[v], mesh.vertices[v]});
  piece.points = corners(piece.triangles);
  return piece;
}

void cutPiece(const Piece& piece, const Cut& cut, Piece& below, Piece& above) {
  const Vector3d n(cut.normal[0], cut.normal[1], cut.normal[2]);
  below.triangles.clear();
  above.triangles.clear();
  for (const Triangle& t : piece.triangles) {
    double s[3];
    for (int k = 0; k < 3; ++k) s[k] = n.dot(vec(t[k])) - cut.offset;
    if (std::max({s[0], s[1], s[2]}) <= 0) {
      below.triangles.push_back(t);
    } else if (std::min({s[0], s[1], s[2]}) >= 0) {
      above.triangles.push_back(t);
    } else {
      // Sutherland-Hodgman against both half-spaces, one crossing point per
      // edge shared by the two sides.
      std::vector<Point3> lo, hi;
      for (int k = 0; k < 3; ++k) {
        const int l = (k + 1) % 3;
        if (s[k] <= 0) lo.push_back(t[k]);
        if (s[k] >= 0) hi.push_back(t[k]);
        if ((s[k] < 0 && s[l] > 0) || (s[k] > 0 && s[l] < 0)) {
          const Point3 x = point(vec(t[k]) + (vec(t[l]) - vec(t[k])) * (s[k] / (s[k] - s[l])));
          lo.push_back(x);
          hi.push_back(x);
        }
      }
      addFan(below.triangles, lo);
      addFan(above.triangles, hi);
    }
  }
  below.points = corners(below.triangles);
  above.points = corners(above.triangles);
}

std::vector<Cut> bestCuts(const Piece& piece, int offsets, int count, bool lookahead) {
  std::vector<Cut> cuts;
  if (piece.points.size() < 8 || offsets < 1 || count < 1) return cuts;
  std::vector<double> spacing;
  for (const Vector3d& n : candidateNormals(piece.points)) {
    double lo, hi;
    extent(piece.points, n, lo, hi);
    const double h = (hi - lo) / (offsets + 1);
    Cut best;
    for (int i = 1; i <= offsets; ++i) {
      const Cut c = evaluate(piece, n, lo + i * h, false);
      if (better(c, best)) best = c;
    }
    if (!best.valid) continue;
    cuts.push_back(lookahead ? evaluate(piece, n, best.offset, true) : best);
    spacing.push_back(h);
  }
  std::vector<std::size_t> order(cuts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return better(cuts[a], cuts[b]); });
  std::vector<Cut> out;
  for (std::size_t i = 0; i < order.size() && static_cast<int>(out.size()) < count; ++i)
    out.push_back(refine(piece, cuts[order[i]], 0.5 * spacing[order[i]], 0.25, 4, lookahead));
  return out;
}

}  // namespace detail
}  // namespace urdf
}  // namespace sov
