// Unions of superovoids fitted to a mesh: hierarchical plane cuts (split.h),
// one fit per piece, and the union's volume and gap (see urdf/fit/README.md,
// "Unions").
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/math/bv/OBBRSS.h>
#include <superovoid/fcl/distance.h>

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "directions.h"
#include "split.h"
#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"
#include "superovoid/urdf/fit.h"

namespace sov {
namespace urdf {
namespace {

using Eigen::Vector3d;
using RowMatrix = Eigen::Matrix<double, 3, 3, Eigen::RowMajor>;

// A fitted body as the measures use it: shape, pose, bounding radius.
struct Posed {
  const sov_shape* shape;
  RowMatrix R;
  Vector3d p;
  double radius;  // of a ball about p holding the body

  explicit Posed(const SuperovoidFit& f)
      : shape(&f.shape),
        R(Eigen::Map<const RowMatrix>(f.pose.R)),
        p(f.pose.p[0], f.pose.p[1], f.pose.p[2]) {
    sov_shape_info info{};
    sov_shape_get(&info, shape);
    radius = std::max(Vector3d(info.aabb_lo[0], info.aabb_lo[1], info.aabb_lo[2]).norm(),
                      Vector3d(info.aabb_hi[0], info.aabb_hi[1], info.aabb_hi[2]).norm());
  }
  // F (SPEC) at the world point x; +infinity outside the bounding ball.
  double implicit(const Vector3d& x) const {
    if ((x - p).squaredNorm() > radius * radius) return std::numeric_limits<double>::infinity();
    const Vector3d y = R.transpose() * (x - p);
    double F = 0;
    sov_shape_implicit(&F, nullptr, nullptr, shape, y.data());
    return F;
  }
};

std::vector<Posed> posed(const std::vector<SuperovoidFit>& bodies) {
  return std::vector<Posed>(bodies.begin(), bodies.end());
}

// The mesh as an FCL tree, for point-to-mesh distances.
std::shared_ptr<fcl::BVHModel<fcl::OBBRSS<double>>> meshTree(const TriangleMesh& mesh) {
  auto tree = std::make_shared<fcl::BVHModel<fcl::OBBRSS<double>>>();
  std::vector<fcl::Vector3<double>> v;
  for (const auto& x : mesh.vertices) v.emplace_back(x[0], x[1], x[2]);
  std::vector<fcl::Triangle> t;
  for (const auto& x : mesh.triangles) t.emplace_back(x[0], x[1], x[2]);
  tree->beginModel();
  tree->addSubModel(v, t);
  tree->endModel();
  return tree;
}

// Distance from x to the mesh's triangles: the FCL layer's mesh-sphere
// distance for a point (a sphere of radius 0; 0 when x is on a triangle).
double pointToMesh(const fcl::BVHModel<fcl::OBBRSS<double>>& tree, const Vector3d& x) {
  const fcl::Sphere<double> point(0);
  fcl::DistanceRequest<double> request;
  fcl::DistanceResult<double> result;
  fcl::Transform3<double> at = fcl::Transform3<double>::Identity();
  at.translation() = x;
  const double d =
      sov::distance(&tree, fcl::Transform3<double>::Identity(), &point, at, request, result);
  return std::max(d, 0.0);
}

Location nowhere() {
  return Location{"<mesh>", 0, "", ""};
}

}  // namespace

namespace detail {

void checkSplitOptions(const SplitOptions& s) {
  const bool ratio_ok =
      s.target_ratio == 0 || (s.target_ratio >= 1 && std::isfinite(s.target_ratio));
  const bool ok = s.max_bodies >= 1 && s.max_bodies <= SplitOptions::kMaxBodies && ratio_ok &&
                  s.target_gap >= 0 && std::isfinite(s.target_gap) && s.cut_offsets >= 1 &&
                  s.cut_candidates >= 1 && s.volume_cells >= 2 && s.gap_directions >= 6;
  if (!ok)
    throw Error(SOV_ERR_OPTION, nowhere(),
                "split options out of range (need max_bodies from 1 to " +
                    std::to_string(SplitOptions::kMaxBodies) +
                    ", target_ratio 0 or finite >= 1, finite target_gap >= 0, cut_offsets >= 1, "
                    "cut_candidates >= 1, volume_cells >= 2, gap_directions >= 6)");
}

}  // namespace detail

double unionVolume(const std::vector<SuperovoidFit>& bodies, int cells) {
  const std::vector<Posed> pb = posed(bodies);
  double total = 0;
  for (std::size_t i = 0; i < pb.size(); ++i) {
    total += bodies[i].volume;
    if (i == 0) continue;
    sov_shape_info info{};
    sov_shape_get(&info, pb[i].shape);
    // Cell centres of the body's local box: those inside it are spread
    // evenly over it; the share also inside an earlier body is overlap.
    long inside = 0, shared = 0;
    Vector3d y;
    for (int a = 0; a < cells; ++a)
      for (int b = 0; b < cells; ++b)
        for (int c = 0; c < cells; ++c) {
          const int idx[3] = {a, b, c};
          for (int k = 0; k < 3; ++k)
            y[k] = info.aabb_lo[k] + (idx[k] + 0.5) / cells * (info.aabb_hi[k] - info.aabb_lo[k]);
          double F = 0;
          sov_shape_implicit(&F, nullptr, nullptr, pb[i].shape, y.data());
          if (!(F <= 0)) continue;
          ++inside;
          const Vector3d x = pb[i].R * y + pb[i].p;
          for (std::size_t j = 0; j < i; ++j)
            if (pb[j].implicit(x) <= 0) {
              ++shared;
              break;
            }
        }
    if (inside > 0) total -= bodies[i].volume * static_cast<double>(shared) / inside;
  }
  return total;
}

double unionGap(const std::vector<SuperovoidFit>& bodies, const TriangleMesh& mesh,
                int directions) {
  if (directions < 6 || mesh.triangles.empty())
    throw Error(SOV_ERR_OPTION, nowhere(), "unionGap needs at least 6 directions and triangles");
  const std::vector<Posed> pb = posed(bodies);
  const auto tree = meshTree(mesh);
  double gap = 0;
  for (std::size_t i = 0; i < pb.size(); ++i) {
    // The surface point of body i on the ray along u (local frame), when no
    // other body holds it inside: a point of the union's boundary.
    const auto distanceAlong = [&](const Vector3d& u) {
      const Vector3d x = pb[i].R * (u / detail::radialScale(*pb[i].shape, u)) + pb[i].p;
      for (std::size_t j = 0; j < pb.size(); ++j)
        if (j != i && pb[j].implicit(x) < 0) return -std::numeric_limits<double>::infinity();
      return pointToMesh(*tree, x);
    };
    gap = std::max(gap, detail::maximizeOverDirections(distanceAlong, directions));
  }
  return gap;
}

namespace {

// A piece of the mesh (a cell of the plane partition) and the body fitted to
// it; whole once no cut of it pays; no body once the others hold every
// triangle it held alone. cut is its most promising cut and promise what
// that cut saves (the body's volume less the sides' quick fits').
struct Part {
  detail::Piece piece;
  SuperovoidFit fit;
  bool has_body = true;
  detail::Cut cut;
  double promise = 0;
  bool cut_known = false, whole = false;
  // Looking ahead: the cut whose sides fit smallest now, to try when cut
  // does not pay; none when they are the same.
  detail::Cut fallback;
  bool has_fallback = false;
};

std::vector<SuperovoidFit> bodiesOf(const std::vector<Part>& parts) {
  std::vector<SuperovoidFit> b;
  for (const Part& p : parts)
    if (p.has_body) b.push_back(p.fit);
  return b;
}

// The volumes of bodies fitted to the two sides of the cut with the quick
// options, summed as they are (now) and each scaled by what one more cut
// could leave of its side's box (ahead; the same without looking ahead);
// +infinity when a side cannot be fitted (flat).
struct SplitVolume {
  double now, ahead;
};
SplitVolume splitVolume(const detail::Piece& piece, const detail::Cut& cut,
                        const FitOptions& quick) {
  detail::Piece below, above;
  detail::cutPiece(piece, cut, below, above);
  const double below_share = cut.below_volume > 0 ? cut.below_next / cut.below_volume : 1;
  const double above_share = cut.above_volume > 0 ? cut.above_next / cut.above_volume : 1;
  try {
    const double b = fitSuperovoid(below.points, quick).volume;
    const double a = fitSuperovoid(above.points, quick).volume;
    return {b + a, below_share * b + above_share * a};
  } catch (const Error&) {
    const double none = std::numeric_limits<double>::infinity();
    return {none, none};
  }
}

// Finds the part's most promising cut: among the candidates of bestCuts,
// the one whose sides' quick fits, each scaled by its look-ahead share (1
// without looking ahead), have the smallest volume sum; looking ahead, the
// one with the smallest plain sum is the fallback. Marks the part whole
// when no candidate exists.
void chooseCut(Part& part, const FitOptions& options, const SplitOptions& split, bool lookahead) {
  part.cut_known = true;
  // One start and two penalty stages: enough to rank cuts, several times quicker.
  FitOptions quick = options;
  quick.refined_starts = 1;
  quick.penalties = {options.penalties.front(), options.penalties.back()};
  double best = std::numeric_limits<double>::infinity(), best_now = best;
  std::size_t pick = 0, pick_now = 0;
  const std::vector<detail::Cut> cuts =
      detail::bestCuts(part.piece, split.cut_offsets, split.cut_candidates, lookahead);
  for (std::size_t i = 0; i < cuts.size(); ++i) {
    const SplitVolume v = splitVolume(part.piece, cuts[i], quick);
    if (v.ahead < best) best = v.ahead, pick = i;
    if (v.now < best_now) best_now = v.now, pick_now = i;
  }
  part.whole = !std::isfinite(best);
  if (part.whole) return;
  part.cut = cuts[pick];
  part.has_fallback = pick_now != pick;
  if (part.has_fallback) part.fallback = cuts[pick_now];
  part.promise = part.fit.volume - best;
}

// True when the body holds the triangle whole (its corners: the body is convex).
bool holds(const Posed& b, const detail::Triangle& t) {
  return std::all_of(t.begin(), t.end(),
                     [&](const Point3& c) { return b.implicit(Vector3d(c[0], c[1], c[2])) <= 0; });
}

// True when every triangle of every piece is held whole by some body.
bool covered(const std::vector<Part>& parts) {
  std::vector<Posed> bodies;
  for (const Part& p : parts)
    if (p.has_body) bodies.emplace_back(p.fit);
  for (const Part& p : parts)
    for (const detail::Triangle& t : p.piece.triangles)
      if (std::none_of(bodies.begin(), bodies.end(), [&](const Posed& b) { return holds(b, t); }))
        return false;
  return true;
}

// Trims the bodies: each in turn is refitted to the triangles that no other
// body holds whole (a triangle is inside a convex body when its corners are)
// and the refit kept when smaller; a body left with no triangle of its own
// is dropped. Every triangle stays whole inside some body throughout.
void trim(std::vector<Part>& parts, const FitOptions& options) {
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (!parts[i].has_body) continue;
    std::vector<Posed> others;
    for (std::size_t j = 0; j < parts.size(); ++j)
      if (j != i && parts[j].has_body) others.emplace_back(parts[j].fit);
    std::vector<Point3> own;
    for (const Part& p : parts)
      for (const detail::Triangle& t : p.piece.triangles) {
        const bool held =
            std::any_of(others.begin(), others.end(), [&](const Posed& b) { return holds(b, t); });
        if (!held) own.insert(own.end(), t.begin(), t.end());
      }
    if (own.empty()) {
      parts[i].has_body = false;
      continue;
    }
    std::sort(own.begin(), own.end());
    own.erase(std::unique(own.begin(), own.end()), own.end());
    // No other body took any of its points: the refit would be the same fit.
    if (own.size() >= parts[i].piece.points.size()) continue;
    try {
      const SuperovoidFit f = fitSuperovoid(own, options);
      if (f.volume < parts[i].fit.volume) parts[i].fit = f;
    } catch (const Error&) {
      // Too few or flat points: the body stays as it is.
    }
  }
}

// The parts with part `pick` cut in two (its cut) and both sides fitted.
// Triangles of other pieces that only pick's body held (trim let their own
// bodies drop them) go to the side their centroid lies on, so that every
// triangle stays held.
std::vector<Part> splitPart(const std::vector<Part>& parts, std::size_t pick,
                            const FitOptions& options) {
  Part below, above;
  const detail::Cut& cut = parts[pick].cut;
  detail::cutPiece(parts[pick].piece, cut, below.piece, above.piece);
  std::vector<Point3> below_pts = below.piece.points, above_pts = above.piece.points;
  std::vector<Posed> others;
  for (std::size_t j = 0; j < parts.size(); ++j)
    if (j != pick && parts[j].has_body) others.emplace_back(parts[j].fit);
  for (std::size_t j = 0; j < parts.size(); ++j) {
    if (j == pick) continue;
    for (const detail::Triangle& t : parts[j].piece.triangles) {
      if (std::any_of(others.begin(), others.end(), [&](const Posed& b) { return holds(b, t); }))
        continue;
      double side = -3 * cut.offset;
      for (const Point3& c : t)
        side += cut.normal[0] * c[0] + cut.normal[1] * c[1] + cut.normal[2] * c[2];
      std::vector<Point3>& to = side <= 0 ? below_pts : above_pts;
      to.insert(to.end(), t.begin(), t.end());
    }
  }
  below.fit = fitSuperovoid(below_pts, options);
  above.fit = fitSuperovoid(above_pts, options);
  std::vector<Part> trial = parts;
  trial[pick] = below;
  trial.insert(trial.begin() + static_cast<std::ptrdiff_t>(pick) + 1, above);
  return trial;
}

// The split's targets (see SplitOptions) met by a union of this volume and
// gap over a hull of hull_volume.
bool targetsMet(double volume, double gap, double hull_volume, const SplitOptions& split) {
  const bool want_gap = split.target_gap > 0;
  const bool ratio_ok = volume <= split.target_ratio * hull_volume;
  const bool gap_ok = gap <= split.target_gap;
  if (split.target_ratio > 0 && want_gap) return ratio_ok && gap_ok;
  return (split.target_ratio > 0 && ratio_ok) || (want_gap && gap_ok);
}

// A union as one pass of cuts left it: its parts, volume and gap (the gap
// only for a gap target), and the cuts it fitted and dropped.
struct Pass {
  std::vector<Part> parts;
  double volume = 0, gap = 0;
  int splits_tried = 0;
};

// Steps 2-5 of urdf/fit/README.md, "Unions", from the pass's one part:
// cut while the targets are unmet, max_bodies is not reached and some
// piece's cut pays; cuts chosen looking one cut ahead or not.
void splitPass(Pass& p, const TriangleMesh& mesh, double hull_volume, const FitOptions& options,
               const SplitOptions& split, bool lookahead) {
  const bool want_gap = split.target_gap > 0;
  while (static_cast<int>(bodiesOf(p.parts).size()) < split.max_bodies &&
         !targetsMet(p.volume, p.gap, hull_volume, split)) {
    int pick = -1;
    for (std::size_t i = 0; i < p.parts.size(); ++i) {
      Part& q = p.parts[i];
      if (q.whole || !q.has_body) continue;
      if (!q.cut_known) chooseCut(q, options, split, lookahead);
      if (!q.whole && (pick < 0 || q.promise > p.parts[pick].promise)) pick = static_cast<int>(i);
    }
    if (pick < 0) break;
    std::vector<Part> trial = splitPart(p.parts, static_cast<std::size_t>(pick), options);
    trim(trial, options);
    const std::vector<SuperovoidFit> bodies = bodiesOf(trial);
    const double volume = unionVolume(bodies, split.volume_cells);
    const double gap = want_gap ? unionGap(bodies, mesh, split.gap_directions) : 0;
    // A cut pays when the union shrinks, or, for an unmet gap target, when
    // the gap does.
    const bool pays =
        (volume < p.volume || (want_gap && p.gap > split.target_gap && gap < p.gap)) &&
        covered(trial);
    if (pays) {
      p.parts = std::move(trial);
      p.volume = volume;
      p.gap = gap;
      continue;
    }
    ++p.splits_tried;
    Part& tried = p.parts[static_cast<std::size_t>(pick)];
    if (tried.has_fallback) {
      // The cut chosen looking ahead did not pay: the cut best now next.
      tried.cut = tried.fallback;
      tried.has_fallback = false;
    } else {
      tried.whole = true;
    }
  }
}

// True when pass a's union beats b's: it meets the targets where b's does
// not; else it is smaller (by its gap for a gap target alone, else by
// volume); else it has fewer bodies.
bool beats(const Pass& a, const Pass& b, double hull_volume, const SplitOptions& split) {
  const bool ma = targetsMet(a.volume, a.gap, hull_volume, split);
  const bool mb = targetsMet(b.volume, b.gap, hull_volume, split);
  if (ma != mb) return ma;
  const bool by_gap = split.target_gap > 0 && split.target_ratio == 0;
  const double sa = by_gap ? a.gap : a.volume, sb = by_gap ? b.gap : b.volume;
  if (sa != sb) return sa < sb;
  return bodiesOf(a.parts).size() < bodiesOf(b.parts).size();
}

}  // namespace

UnionFit fitSuperovoidUnion(const TriangleMesh& mesh, const FitOptions& options,
                            const SplitOptions& split) {
  detail::checkSplitOptions(split);
  const auto t0 = std::chrono::steady_clock::now();
  Pass start;
  start.parts.resize(1);
  start.parts[0].piece = detail::wholeMesh(mesh);
  start.parts[0].fit = fitSuperovoid(mesh.vertices, options);  // the same points, as given
  const ConvexHull hull = convexHull(mesh.vertices);
  UnionFit u;
  u.hull_volume = hull.volume;
  u.points = mesh.vertices.size();
  u.hull_vertices = hull.vertices.size();
  start.volume = start.parts[0].fit.volume;
  const bool want_gap = split.target_gap > 0;
  start.gap = want_gap ? unionGap(bodiesOf(start.parts), mesh, split.gap_directions) : 0;
  // Cuts ranked by their sides' fits now, then, where that left a target
  // unmet, looking one cut ahead; the better union is kept. Neither rule
  // wins everywhere: looking ahead finds the arms of a U (whose first cut
  // saves nothing until the second), ranking now does better on convex
  // links (urdf/fit/README.md, "Unions").
  Pass best = start;
  splitPass(best, mesh, u.hull_volume, options, split, false);
  if (split.max_bodies > 1 && !targetsMet(best.volume, best.gap, u.hull_volume, split)) {
    Pass ahead = start;
    splitPass(ahead, mesh, u.hull_volume, options, split, true);
    const int tried = best.splits_tried + ahead.splits_tried;
    if (beats(ahead, best, u.hull_volume, split)) best = std::move(ahead);
    best.splits_tried = tried;
  }
  u.bodies = bodiesOf(best.parts);
  u.volume = best.volume;
  u.gap = best.gap;
  u.splits_tried = best.splits_tried;
  u.volume_ratio = u.volume / u.hull_volume;
  if (!want_gap) u.gap = unionGap(u.bodies, mesh, split.gap_directions);
  u.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return u;
}

}  // namespace urdf
}  // namespace sov
