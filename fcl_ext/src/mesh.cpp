// Superovoid vs triangle mesh: FCL's BVHShapeCollider for every BV type and
// its mesh-shape distance traversal, instantiated with detail::Solver
// (compiled here only).
#include "mesh.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/narrowphase/detail/collision_func_matrix.h>
#include <fcl/narrowphase/detail/distance_func_matrix.h>
#include <fcl/narrowphase/detail/traversal/collision_node.h>

#include "dispatch.h"
#include "mirror.h"

namespace sov {
namespace detail {
namespace {

using Geometry = fcl::CollisionGeometry<double>;

// A bounding-volume type as a value, for generic lambdas.
template <class BV>
struct BVTag {
  using type = BV;
};

// The mesh behind g as a BVHModel<BV>; throws sov::Error unless it is a
// triangle mesh whose tree has been built (endModel()).
template <class BV>
const fcl::BVHModel<BV>& builtMesh(const Geometry& g) {
  const auto& model = static_cast<const fcl::BVHModel<BV>&>(g);
  const bool built = model.build_state == fcl::BVH_BUILD_STATE_PROCESSED ||
                     model.build_state == fcl::BVH_BUILD_STATE_UPDATED;
  if (model.getModelType() != fcl::BVH_MODEL_TRIANGLES || !built) {
    throw Error(SOV_ERR_OPTION,
                "fcl::BVHModel: the model is not a built triangle mesh (a point cloud, no "
                "triangles, or endModel() not called)");
  }
  return model;
}

// Checks the mesh g (as builtMesh does) and calls f(BVTag<BV>()).
template <class BV, class F>
auto withCheckedBV(const Geometry& g, F& f) {
  builtMesh<BV>(g);
  return f(BVTag<BV>());
}

// Calls f(BVTag<BV>) for the BV type of the mesh g, after checking it;
// throws sov::Error for a BVHModel type FCL does not dispatch.
template <class F>
auto withBV(const Geometry& g, F&& f) {
  switch (g.getNodeType()) {
    case fcl::BV_AABB: return withCheckedBV<fcl::AABB<double>>(g, f);
    case fcl::BV_OBB: return withCheckedBV<fcl::OBB<double>>(g, f);
    case fcl::BV_RSS: return withCheckedBV<fcl::RSS<double>>(g, f);
    case fcl::BV_kIOS: return withCheckedBV<fcl::kIOS<double>>(g, f);
    case fcl::BV_OBBRSS: return withCheckedBV<fcl::OBBRSS<double>>(g, f);
    case fcl::BV_KDOP16: return withCheckedBV<fcl::KDOP<double, 16>>(g, f);
    case fcl::BV_KDOP18: return withCheckedBV<fcl::KDOP<double, 18>>(g, f);
    case fcl::BV_KDOP24: return withCheckedBV<fcl::KDOP<double, 24>>(g, f);
    default: break;
  }
  throwUnsupported(g);
}

// Lower bound of the distance between the contents of two OBBs: the
// distance between their bounding spheres.
double lowerBound(const fcl::OBB<double>& a, const fcl::OBB<double>& b) {
  return std::max(0.0, (a.To - b.To).norm() - a.extent.norm() - b.extent.norm());
}

// Lower bound for two k-DOPs: the distance between the axis-aligned boxes of
// their first three slab pairs (the coordinate axes).
template <std::size_t N>
double lowerBound(const fcl::KDOP<double, N>& a, const fcl::KDOP<double, N>& b) {
  double sq = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    const double gap =
        std::max({a.dist(i) - b.dist(N / 2 + i), b.dist(i) - a.dist(N / 2 + i), 0.0});
    sq += gap * gap;
  }
  return std::sqrt(sq);
}

// Oriented BV types, for which FCL's BVHShapeDistancer keeps the mesh in its
// own frame (RSS, kIOS, OBBRSS).
template <class BV>
constexpr bool kIsOriented = std::is_same_v<BV, fcl::RSS<double>> ||
                             std::is_same_v<BV, fcl::kIOS<double>> ||
                             std::is_same_v<BV, fcl::OBBRSS<double>>;

// FCL's mesh-shape distance node with the lower bounds above in place of
// BV::distance, for OBB and k-DOP trees (FCL's print "not implemented" and
// return 0).
template <class BV>
class BoundedMeshDistanceNode
    : public fcl::detail::MeshShapeDistanceTraversalNode<BV, Superovoid, Solver> {
 public:
  // Lower bound of the distance between node b1 of the mesh and the shape.
  double BVTesting(int b1, int /*b2*/) const override {
    if (this->enable_statistics) this->num_bv_tests++;
    return lowerBound(this->model1->getBV(b1).bv, this->model2_bv);
  }
};

// The distance node for a non-oriented tree: FCL's for AABB, the bounded one
// for OBB and k-DOP.
template <class BV>
using WorldMeshDistanceNode =
    std::conditional_t<std::is_same_v<BV, fcl::AABB<double>>,
                       fcl::detail::MeshShapeDistanceTraversalNode<BV, Superovoid, Solver>,
                       BoundedMeshDistanceNode<BV>>;

// Sets node up for a mesh copy `world` (its vertices moved by tfM, its tree
// rebuilt) and the posed superovoid, as FCL's initialize for
// MeshShapeDistanceTraversalNode does: FCL 0.7 declares that function with
// other parameter types than it defines it, so a call with the default
// arguments does not link and one with all of them is ambiguous.
template <class Node, class BV>
void setUpWorldNode(Node& node, fcl::BVHModel<BV>& world, const Transform& tfM,
                    const Superovoid& s, const Transform& tfS, const Solver& solver,
                    const fcl::DistanceRequest<double>& request,
                    fcl::DistanceResult<double>& result) {
  if (!tfM.matrix().isIdentity()) {
    std::vector<Vector> moved(world.num_vertices);
    for (int i = 0; i < world.num_vertices; ++i) moved[i] = tfM * world.vertices[i];
    world.beginReplaceModel();
    world.replaceSubModel(moved);
    world.endReplaceModel(false, false);
  }
  node.request = request;
  node.result = &result;
  node.model1 = &world;
  node.tf1 = Transform::Identity();
  node.model2 = &s;
  node.tf2 = tfS;
  node.nsolver = &solver;
  node.vertices = world.vertices;
  node.tri_indices = world.tri_indices;
  fcl::computeBV(s, tfS, node.model2_bv);
}

// Mesh (first) to superovoid distance for a tree of BV type BV. Oriented
// trees go to FCL's BVHShapeDistancer. FCL 0.7 has no mesh-shape distance for
// the others (its table leaves them out, and its generic BVHShapeDistancer
// does not compile outside libfcl: it calls ::fcl::distance(node), declared
// only in fcl::detail), so its generic body (a copy of the mesh moved to the
// world) is written here, with FCL's node for AABB and the bounded node for
// OBB and k-DOP.
template <class BV>
double meshFirstDistance(const Geometry* mesh, const Transform& tfM, const Superovoid* s,
                         const Transform& tfS, const Solver& solver,
                         const fcl::DistanceRequest<double>& request,
                         fcl::DistanceResult<double>& result) {
  if constexpr (kIsOriented<BV>) {
    return fcl::detail::BVHShapeDistancer<BV, Superovoid, Solver>::distance(
        mesh, tfM, s, tfS, &solver, request, result);
  } else {
    if (request.isSatisfied(result)) return result.min_distance;
    fcl::BVHModel<BV> world(static_cast<const fcl::BVHModel<BV>&>(*mesh));
    WorldMeshDistanceNode<BV> node;
    setUpWorldNode(node, world, tfM, *s, tfS, solver, request, result);
    fcl::detail::distance(&node);
    // The node's model1 is the local copy: a result it updated points at the
    // caller's mesh instead.
    if (result.o1 == &world) result.o1 = mesh;
    return result.min_distance;
  }
}

// Points contacts first.. of result (mesh first) at the caller's mesh and
// superovoid: FCL's AABB and k-DOP colliders run on a temporary copy of the
// mesh (new BVHModel(*mesh), deleted before they return), whose address
// their contacts would otherwise keep.
void pointContactsAtCaller(fcl::CollisionResult<double>& result, std::size_t first,
                           const Geometry* mesh, const Geometry* s) {
  std::vector<fcl::Contact<double>> contacts;
  std::vector<fcl::CostSource<double>> costs;
  result.getContacts(contacts);
  result.getCostSources(costs);
  const Vector guess = result.cached_gjk_guess;
  result.clear();
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    if (k >= first) {
      contacts[k].o1 = mesh;
      contacts[k].o2 = s;
    }
    result.addContact(contacts[k]);
  }
  for (const auto& c : costs) result.addCostSource(c, costs.size());
  result.cached_gjk_guess = guess;
}

// Collision of a Shape (a superovoid or an fcl::Sphere) with a mesh, either
// order: FCL's BVHShapeCollider run with detail::Solver (collideMesh).
template <class Shape>
std::size_t collideMeshShape(const Geometry* o1, const Transform& tf1, const Geometry* o2,
                             const Transform& tf2, const Solver& solver,
                             const fcl::CollisionRequest<double>& request,
                             fcl::CollisionResult<double>& result) {
  const bool shape_first = !isMesh(o1);
  const Geometry* mesh = shape_first ? o2 : o1;
  const Transform& tfM = shape_first ? tf2 : tf1;
  const auto* s = static_cast<const Shape*>(shape_first ? o1 : o2);
  const Transform& tfS = shape_first ? tf1 : tf2;
  withBV(*mesh, [&](auto tag) {
    using BV = typename decltype(tag)::type;
    using Collider = fcl::detail::BVHShapeCollider<BV, Shape, Solver>;
    answerTreeFirst(shape_first, result, [&](fcl::CollisionResult<double>& r) {
      const std::size_t before = r.numContacts();
      Collider::collide(mesh, tfM, s, tfS, &solver, request, r);
      pointContactsAtCaller(r, before, mesh, s);
    });
  });
  return result.numContacts();
}

}  // namespace

std::size_t collideMesh(const Geometry* o1, const Transform& tf1, const Geometry* o2,
                        const Transform& tf2, const Solver& solver,
                        const fcl::CollisionRequest<double>& request,
                        fcl::CollisionResult<double>& result) {
  return collideMeshShape<Superovoid>(o1, tf1, o2, tf2, solver, request, result);
}

bool isMeshSphere(const Geometry* o1, const Geometry* o2) {
  const auto sphere = [](const Geometry* g) {
    return g->getObjectType() == fcl::OT_GEOM && g->getNodeType() == fcl::GEOM_SPHERE;
  };
  return (isMesh(o1) && sphere(o2)) || (sphere(o1) && isMesh(o2));
}

std::size_t collideMeshSphere(const Geometry* o1, const Transform& tf1, const Geometry* o2,
                              const Transform& tf2, const Solver& solver,
                              const fcl::CollisionRequest<double>& request,
                              fcl::CollisionResult<double>& result) {
  return collideMeshShape<fcl::Sphere<double>>(o1, tf1, o2, tf2, solver, request, result);
}

bool isOrientedMesh(const Geometry* g) {
  const fcl::NODE_TYPE t = g->getNodeType();
  return isMesh(g) && (t == fcl::BV_RSS || t == fcl::BV_kIOS || t == fcl::BV_OBBRSS);
}

double distanceMeshSphere(const Geometry* o1, const Transform& tf1, const Geometry* o2,
                          const Transform& tf2, const Solver& solver,
                          const fcl::DistanceRequest<double>& request,
                          fcl::DistanceResult<double>& result) {
  const bool sphere_first = !isMesh(o1);
  const Geometry* mesh = sphere_first ? o2 : o1;
  const Transform& tfM = sphere_first ? tf2 : tf1;
  const auto* sphere = static_cast<const fcl::Sphere<double>*>(sphere_first ? o1 : o2);
  const Transform& tfS = sphere_first ? tf1 : tf2;
  withBV(*mesh, [&](auto tag) {
    using BV = typename decltype(tag)::type;
    if constexpr (!kIsOriented<BV>) {
      throwUnsupported(*mesh);  // the caller sends oriented trees only
    } else {
      using Distancer = fcl::detail::BVHShapeDistancer<BV, fcl::Sphere<double>, Solver>;
      answerTreeFirst(sphere_first, result, [&](fcl::DistanceResult<double>& r) {
        Distancer::distance(mesh, tfM, sphere, tfS, &solver, request, r);
      });
    }
  });
  return result.min_distance;
}

double distanceMesh(const Geometry* o1, const Transform& tf1, const Geometry* o2,
                    const Transform& tf2, const Solver& solver,
                    const fcl::DistanceRequest<double>& request,
                    fcl::DistanceResult<double>& result) {
  const bool superovoid_first = !isMesh(o1);
  const Geometry* mesh = superovoid_first ? o2 : o1;
  const Transform& tfM = superovoid_first ? tf2 : tf1;
  const auto* s = static_cast<const Superovoid*>(superovoid_first ? o1 : o2);
  const Transform& tfS = superovoid_first ? tf1 : tf2;
  withBV(*mesh, [&](auto tag) {
    using BV = typename decltype(tag)::type;
    answerTreeFirst(superovoid_first, result, [&](fcl::DistanceResult<double>& r) {
      meshFirstDistance<BV>(mesh, tfM, s, tfS, solver, request, r);
    });
  });
  return result.min_distance;
}

}  // namespace detail
}  // namespace sov
