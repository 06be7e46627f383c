// Start/goal queries for a planner: configurations whose tool centre point
// lies in given workspace regions and that are free on every model of the
// robot given, drawn from a fixed seed. Library superovoid::planning.
#ifndef SUPEROVOID_PLANNING_QUERIES_H
#define SUPEROVOID_PLANNING_QUERIES_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "superovoid/planning/arm.h"
#include "superovoid/planning/world.h"

namespace sov {
namespace planning {

// One planning query: from a configuration in one region to one in another.
struct Query {
  std::string from, to;  // region names
  Config start, goal;
};

// n queries, the i-th from regions[legs[i % legs.size()].first] to
// regions[...second]. Each end is drawn uniformly within arm's limits until
// the origin of tcp_link (forward kinematics of model) lies in the region
// and the configuration is free (self and env) in every scene of scenes.
// Deterministic for a seed. Throws std::runtime_error when 10^6 draws find
// no such configuration.
std::vector<Query> makeQueries(const urdf::Model& model, const std::vector<urdf::Scene*>& scenes,
                               const std::vector<fcl::CollisionObject<double>*>& env,
                               const Arm& arm, const std::string& tcp_link,
                               const std::vector<Region>& regions,
                               const std::vector<std::pair<std::size_t, std::size_t>>& legs,
                               std::size_t n, std::uint64_t seed);

// True when q is free (self and env) in scene.
bool isFree(urdf::Scene& scene, const std::vector<fcl::CollisionObject<double>*>& env,
            const Arm& arm, const Config& q);

}  // namespace planning
}  // namespace sov

#endif  // SUPEROVOID_PLANNING_QUERIES_H
