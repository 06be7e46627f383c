// Internal: FCL results seen with the two bodies swapped, for the pairs FCL
// answers with the other body first (meshes, octrees).
#ifndef SUPEROVOID_FCL_SRC_MIRROR_H
#define SUPEROVOID_FCL_SRC_MIRROR_H

#include <utility>
#include <vector>

#include <fcl/narrowphase/collision_result.h>
#include <fcl/narrowphase/distance_result.h>

namespace sov {
namespace detail {

// The same contact seen from the other body: o1, o2 and b1, b2 swapped, the
// normal reversed.
inline fcl::Contact<double> mirrored(const fcl::Contact<double>& c) {
  fcl::Contact<double> m(c);
  std::swap(m.o1, m.o2);
  std::swap(m.b1, m.b2);
  m.normal = -c.normal;
  return m;
}

// The same collision result seen with the bodies swapped (contacts mirrored;
// cost sources, which are symmetric, and the GJK guess kept).
inline fcl::CollisionResult<double> mirrored(const fcl::CollisionResult<double>& result) {
  fcl::CollisionResult<double> copy(result), out;
  std::vector<fcl::Contact<double>> contacts;
  std::vector<fcl::CostSource<double>> costs;
  copy.getContacts(contacts);
  copy.getCostSources(costs);
  for (const auto& c : contacts) out.addContact(mirrored(c));
  for (const auto& c : costs) out.addCostSource(c, costs.size());
  out.cached_gjk_guess = result.cached_gjk_guess;
  return out;
}

// The same distance result seen with the bodies swapped.
inline fcl::DistanceResult<double> mirrored(const fcl::DistanceResult<double>& result) {
  fcl::DistanceResult<double> out(result);
  std::swap(out.o1, out.o2);
  std::swap(out.b1, out.b2);
  std::swap(out.nearest_points[0], out.nearest_points[1]);
  return out;
}

// Runs answer(r) with r the result in the order FCL's traversals take the
// bodies, the tree (mesh, octree) first: the caller's result itself, or,
// where the caller gave the other body first (swapped), a mirrored copy,
// mirrored back into result afterwards.
template <class Result, class Answer>
void answerTreeFirst(bool swapped, Result& result, Answer&& answer) {
  if (!swapped) {
    answer(result);
    return;
  }
  Result tree_first = mirrored(result);
  answer(tree_first);
  result = mirrored(tree_first);
}

}  // namespace detail
}  // namespace sov

#endif  // SUPEROVOID_FCL_SRC_MIRROR_H
