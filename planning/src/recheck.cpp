// Re-checking a planned path on another model of the robot (recheck.h).
#include "superovoid/planning/recheck.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

namespace sov {
namespace planning {
namespace {

// The configuration at t of the segment a -> b.
Config lerp(const Config& a, const Config& b, double t) {
  Config q(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) q[i] = a[i] + t * (b[i] - a[i]);
  return q;
}

// Euclidean joint-space distance from a to b.
double jointDistance(const Config& a, const Config& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += (b[i] - a[i]) * (b[i] - a[i]);
  return std::sqrt(s);
}

using Env = std::vector<fcl::CollisionObject<double>*>;

// True at a collision of the scene's configuration (self or env); pair names it.
bool collisionAt(urdf::Scene& scene, const Env& env, urdf::PairDistance& pair) {
  std::set<std::pair<std::string, std::string>> self;
  if (scene.selfCollision(&self)) {
    pair.link1 = self.begin()->first;
    pair.link2 = self.begin()->second;
    return true;
  }
  std::set<std::pair<std::string, std::size_t>> hits;
  if (scene.collides(env, &hits)) {
    pair.link1 = hits.begin()->first;
    pair.link2 = "env:" + std::to_string(hits.begin()->second);
    return true;
  }
  return false;
}

// A lower bound of the clearance at the scene's configuration: the self
// distance and the distance to covering (never below 0).
double clearanceBound(urdf::Scene& scene, const Env& covering) {
  double d = scene.minSelfDistance().distance;
  if (!covering.empty()) d = std::min(d, scene.distance(covering).distance);
  return std::max(d, 0.0);
}

// Records the first collision: at t of segment, pair p.
void recordCollision(Recheck& r, const urdf::PairDistance& p, std::size_t segment, double t) {
  r.collides = true;
  r.min_clearance = 0;
  r.segment = segment;
  r.t = t;
  r.link1 = p.link1;
  r.link2 = p.link2;
}

// Checks the configuration q: false at a collision (filled into r, at t of
// segment), else its clearance bound in d.
bool checkAt(urdf::Scene& scene, const Env& env, const Env& covering, const Arm& arm,
             const Config& q, std::size_t segment, double t, Recheck& r, double& d) {
  scene.setJointPositions(arm.positions(q));
  ++r.configurations;
  urdf::PairDistance p;
  if (collisionAt(scene, env, p)) {
    recordCollision(r, p, segment, t);
    return false;
  }
  d = clearanceBound(scene, covering);
  r.min_clearance = std::min(r.min_clearance, d);
  return true;
}

// Walks one segment; returns false at a collision (filled into r).
bool walkSegment(urdf::Scene& scene, const Env& env, const Env& covering, const Arm& arm,
                 const std::vector<double>& reach, const Config& a, const Config& b,
                 std::size_t segment, const RecheckOptions& o, Recheck& r,
                 double& proved_length) {
  const double v = pointSpeedBound(arm, reach, a, b), length = jointDistance(a, b);
  for (double t = 0; t < 1;) {
    double d = 0;
    if (!checkAt(scene, env, covering, arm, lerp(a, b, t), segment, t, r, d)) return false;
    if (v <= 0) break;
    const double proved = std::min(d / (2 * v), 1 - t);
    if (proved >= o.max_step / v) proved_length += proved * length;
    t += std::max(proved, o.max_step / v);
  }
  return true;
}

}  // namespace

Recheck recheckPath(urdf::Scene& scene, const Env& env, const Env& covering, const Arm& arm,
                    const std::vector<double>& reach, const std::vector<Config>& path,
                    const RecheckOptions& options) {
  Recheck r;
  if (path.empty()) return r;
  const Env& cover = covering.empty() ? env : covering;
  double proved = 0, total = 0;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    total += jointDistance(path[i], path[i + 1]);
    if (!walkSegment(scene, env, cover, arm, reach, path[i], path[i + 1], i, options, r, proved))
      return r;
  }
  // The last configuration (each segment's walk stops short of its end).
  double d = 0;
  if (!checkAt(scene, env, cover, arm, path.back(), path.size() < 2 ? 0 : path.size() - 2, 1.0,
               r, d))
    return r;
  r.proved_fraction = total > 0 ? proved / total : 1.0;
  return r;
}

}  // namespace planning
}  // namespace sov
