// Start/goal queries (queries.h).
#include "superovoid/planning/queries.h"

#include <random>
#include <stdexcept>

namespace sov {
namespace planning {
namespace {

// Draws until a configuration puts tcp_link in region and is free in every scene.
Config drawIn(const urdf::Model& model, const std::vector<urdf::Scene*>& scenes,
              const std::vector<fcl::CollisionObject<double>*>& env, const Arm& arm,
              const std::string& tcp_link, const Region& region, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Config q(arm.joints.size());
  for (int draw = 0; draw < 1000000; ++draw) {
    for (std::size_t j = 0; j < q.size(); ++j)
      q[j] = arm.lower[j] + u(rng) * (arm.upper[j] - arm.lower[j]);
    const auto poses = urdf::forwardKinematics(*model.urdf, arm.positions(q));
    if (!region.box.contains(poses.at(tcp_link).translation())) continue;
    bool free = true;
    for (urdf::Scene* s : scenes) free = free && isFree(*s, env, arm, q);
    if (free) return q;
  }
  throw std::runtime_error("no free configuration with " + tcp_link + " in region " + region.name);
}

}  // namespace

bool isFree(urdf::Scene& scene, const std::vector<fcl::CollisionObject<double>*>& env,
            const Arm& arm, const Config& q) {
  scene.setJointPositions(arm.positions(q));
  return !scene.selfCollision() && !scene.collides(env);
}

std::vector<Query> makeQueries(const urdf::Model& model, const std::vector<urdf::Scene*>& scenes,
                               const std::vector<fcl::CollisionObject<double>*>& env,
                               const Arm& arm, const std::string& tcp_link,
                               const std::vector<Region>& regions,
                               const std::vector<std::pair<std::size_t, std::size_t>>& legs,
                               std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Query> out;
  for (std::size_t i = 0; i < n && !legs.empty(); ++i) {
    const Region& a = regions.at(legs[i % legs.size()].first);
    const Region& b = regions.at(legs[i % legs.size()].second);
    Query q{a.name, b.name, {}, {}};
    q.start = drawIn(model, scenes, env, arm, tcp_link, a, rng);
    q.goal = drawIn(model, scenes, env, arm, tcp_link, b, rng);
    out.push_back(q);
  }
  return out;
}

}  // namespace planning
}  // namespace sov
