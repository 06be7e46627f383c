// The robot collision scene: link geometries in an FCL dynamic AABB tree,
// self and environment queries through superovoid::fcl, and per-pair
// warm-start caches for superovoid pairs answered by the C core.
#include "superovoid/urdf/scene.h"

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/sphere.h>
#include <superovoid/fcl.h>
#include <superovoid/work.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <sstream>
#include <tuple>

#include "geometry.h"
#include "joint_default.h"
#include "superovoid/urdf/mesh.h"

namespace sov {
namespace urdf {

// The query callbacks, with access to the scene's members.
struct SceneAccess {
  struct Data {
    Scene* scene = nullptr;
    const fcl::CollisionObject<double>* env = nullptr;  // environment object
    std::size_t env_index = 0;
    PairDistance best;
    bool collided = false;
    bool stop_at_first = false;
    std::set<std::pair<std::string, std::string>>* self_pairs = nullptr;
    std::set<std::pair<std::string, std::size_t>>* env_pairs = nullptr;
    // The link pairs (self: link x link) or links (environment: with the
    // current object) found colliding so far, so that the other bodies of a
    // link (unions) skip the narrow phase once their link is known to
    // collide.
    std::vector<bool> found;
    // Contacts mode (Scene::contacts): every pair within margin goes to
    // contacts, and the manager visits every pair whose boxes are nearer
    // than the margin.
    std::vector<Contact>* contacts = nullptr;
    double margin = 0;
  };

  // sov_pose of an Eigen pose.
  static sov_pose toPose(const Eigen::Isometry3d& t) {
    sov_pose p;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) p.R[3 * i + j] = t.linear()(i, j);
      p.p[i] = t.translation()(i);
    }
    return p;
  }

  // The scene geometry of a manager object.
  static Scene::Geometry* geometry(fcl::CollisionObject<double>* o) {
    return static_cast<Scene::Geometry*>(o->getUserData());
  }

  // The pair's warm-start cache, or nullptr when warm starts are off.
  static sov_cache* cache(Scene& s, const Scene::Geometry& a, const Scene::Geometry& b) {
    if (!s.options_.warm_start) return nullptr;
    auto [it, inserted] = s.caches_.try_emplace({a.index, b.index});
    if (inserted) sov_cache_reset(&it->second);
    return &it->second;
  }

  // A pair's answer: signed distance, witness points and (when asked for)
  // the unit normal from the first geometry towards the second.
  struct Answer {
    double d = 0;
    Eigen::Vector3d p1 = Eigen::Vector3d::Zero(), p2 = Eigen::Vector3d::Zero();
    Eigen::Vector3d normal = Eigen::Vector3d::Zero();
  };

  // What an error of a superovoid pair of links says (built only on error:
  // the broadphase hands over many pairs per query).
  static std::string pairWhat(const Scene& s, const Scene::Geometry& a, const Scene::Geometry& b) {
    return "scene: superovoid pair of links '" + s.links_[a.link] + "' and '" + s.links_[b.link] +
           "'";
  }
  static std::string envWhat(const Scene& s, const Scene::Geometry& a) {
    return "scene: link '" + s.links_[a.link] + "' and a superovoid of the environment";
  }

  // The core's answer for two posed superovoids, warm-started from cache;
  // on error, throws sov::Error saying what() and the status.
  template <class What>
  static Answer coreAnswer(const sov::Superovoid& A, const fcl::CollisionObject<double>* a,
                           const sov::Superovoid& B, const fcl::CollisionObject<double>* b,
                           sov_cache* cache, What what) {
    const sov_pose xa = toPose(a->getTransform());
    const sov_pose xb = toPose(b->getTransform());
    const sov_options options = withThreadWork(nullptr);
    sov_result r;
    const int status = sov_distance(&r, &A.shape(), &xa, &B.shape(), &xb, &options, cache);
    if (status != SOV_OK) throwIfError(status, what());
    return {r.d, Eigen::Vector3d(r.pA[0], r.pA[1], r.pA[2]),
            Eigen::Vector3d(r.pB[0], r.pB[1], r.pB[2]), Eigen::Vector3d(r.n[0], r.n[1], r.n[2])};
  }

  // The answer for a and b (a before b): superovoid pairs by the core with
  // the pair's cache, others by objectAnswer.
  static Answer pairAnswer(Scene& s, const Scene::Geometry& a, const Scene::Geometry& b,
                           bool normal) {
    if (a.superovoid && b.superovoid) {
      return coreAnswer(*a.superovoid, a.object.get(), *b.superovoid, b.object.get(),
                        cache(s, a, b), [&] { return pairWhat(s, a, b); });
    }
    return objectAnswer(s, a.object.get(), b.object.get(), normal);
  }

  // The superovoid an environment object holds, or nullptr.
  static const sov::Superovoid* envSuperovoid(const fcl::CollisionObject<double>* env) {
    return dynamic_cast<const sov::Superovoid*>(env->collisionGeometry().get());
  }

  // The warm-start cache of a link geometry and an environment object, or
  // nullptr when warm starts are off.
  static sov_cache* envCache(Scene& s, const Scene::Geometry& a,
                             const fcl::CollisionObject<double>* env) {
    if (!s.options_.warm_start) return nullptr;
    auto [it, inserted] = s.env_caches_.try_emplace({a.index, env});
    if (inserted) sov_cache_reset(&it->second);
    return &it->second;
  }

  // The answer for a link geometry and an environment object: superovoid
  // pairs by the core with the pair's cache, others by objectAnswer.
  static Answer envAnswer(Scene& s, const Scene::Geometry& a,
                          const fcl::CollisionObject<double>* env, bool normal) {
    const sov::Superovoid* e = a.superovoid ? envSuperovoid(env) : nullptr;
    if (!e) return objectAnswer(s, a.object.get(), env, normal);
    return coreAnswer(*a.superovoid, a.object.get(), *e, env, envCache(s, a, env),
                      [&] { return envWhat(s, a); });
  }

  // True when a link geometry touches an environment object (the core with
  // the pair's cache for superovoid pairs).
  static bool envPairCollide(Scene& s, const Scene::Geometry& a,
                             const fcl::CollisionObject<double>* env) {
    const sov::Superovoid* e = a.superovoid ? envSuperovoid(env) : nullptr;
    if (!e) return objectCollide(a.object.get(), env);
    const sov_pose xa = toPose(a.object->getTransform());
    const sov_pose xe = toPose(env->getTransform());
    const sov_options options = withThreadWork(nullptr);
    int colliding = 0;
    const int status = sov_collide(&colliding, &a.superovoid->shape(), &xa, &e->shape(), &xe,
                                   &options, envCache(s, a, env));
    if (status != SOV_OK) throwIfError(status, envWhat(s, a));
    return colliding != 0;
  }

  // True when FCL has no signed distance for the pair: a triangle mesh or
  // an octree is in it (FCL has no penetration depth for them, and asking
  // for one can abort the process: see fcl_ext/README.md).
  static bool unsignedPair(const fcl::CollisionObject<double>* a,
                           const fcl::CollisionObject<double>* b) {
    return a->getObjectType() != fcl::OT_GEOM || b->getObjectType() != fcl::OT_GEOM;
  }

  // The answer for two FCL objects through sov::distance: signed for two
  // shapes; for a pair with a mesh or octree FCL's unsigned distance, 0 when
  // they touch or overlap, with FCL's first contact as both witnesses and
  // its normal.
  static Answer objectAnswer(Scene& s, const fcl::CollisionObject<double>* a,
                             const fcl::CollisionObject<double>* b, bool normal) {
    const bool no_sign = unsignedPair(a, b);
    fcl::DistanceRequest<double> request(true, !no_sign);
    request.distance_tolerance = s.options_.gjk_tolerance;
    fcl::DistanceResult<double> result;
    result.nearest_points[0] = result.nearest_points[1] = Eigen::Vector3d::Zero();
    Answer r;
    r.d = sov::distance(a, b, request, result);
    r.p1 = result.nearest_points[0];
    r.p2 = result.nearest_points[1];
    if (no_sign && !(r.d > 0)) return touching(a, b);
    if (normal) {
      // GJK's witnesses span its distance only to its tolerance: their
      // direction, turned by the sign of d.
      const Eigen::Vector3d w = r.p2 - r.p1;
      r.normal = r.d != 0 && w.norm() > 0 ? Eigen::Vector3d(std::copysign(1.0, r.d) * w.normalized())
                                          : touching(a, b).normal;
    }
    return r;
  }

  // The answer for two FCL objects that touch: distance 0, FCL's first
  // contact as both witnesses and its normal turned from a towards b; the
  // centre of the overlap of their bounding boxes and the line between
  // their centres when FCL's collision test finds no contact (a graze that
  // its distance saw and its collision did not).
  static Answer touching(const fcl::CollisionObject<double>* a,
                         const fcl::CollisionObject<double>* b) {
    Answer r;
    fcl::CollisionRequest<double> request(1, true);
    fcl::CollisionResult<double> result;
    if (sov::collide(a, b, request, result) > 0) {
      const fcl::Contact<double>& c = result.getContact(0);
      r.p1 = r.p2 = c.pos;
      // FCL answers (shape, mesh) mesh first: its o1 is then b.
      r.normal = c.o1 == a->collisionGeometry().get() ? c.normal : Eigen::Vector3d(-c.normal);
    } else {
      const Eigen::Vector3d lo = a->getAABB().min_.cwiseMax(b->getAABB().min_);
      const Eigen::Vector3d hi = a->getAABB().max_.cwiseMin(b->getAABB().max_);
      r.p1 = r.p2 = 0.5 * (lo + hi);
      r.normal = b->getAABB().center() - a->getAABB().center();
    }
    const double length = r.normal.norm();
    r.normal = length > 0 ? Eigen::Vector3d(r.normal / length) : Eigen::Vector3d::UnitZ();
    return r;
  }

  // True when a and b touch.
  static bool pairCollide(Scene& s, const Scene::Geometry& a, const Scene::Geometry& b) {
    if (a.superovoid && b.superovoid) {
      const sov_pose xa = toPose(a.object->getTransform());
      const sov_pose xb = toPose(b.object->getTransform());
      const sov_options options = withThreadWork(nullptr);
      int colliding = 0;
      const int status = sov_collide(&colliding, &a.superovoid->shape(), &xa,
                                     &b.superovoid->shape(), &xb, &options, cache(s, a, b));
      if (status != SOV_OK) throwIfError(status, pairWhat(s, a, b));
      return colliding != 0;
    }
    return objectCollide(a.object.get(), b.object.get());
  }

  // True when two FCL objects touch (sov::collide).
  static bool objectCollide(const fcl::CollisionObject<double>* a,
                            const fcl::CollisionObject<double>* b) {
    fcl::CollisionRequest<double> request;
    fcl::CollisionResult<double> result;
    return sov::collide(a, b, request, result) > 0;
  }

  // The two geometries of a self pair in index order, or nulls when the pair
  // is not checked (same link, or allowed).
  static std::pair<Scene::Geometry*, Scene::Geometry*> selfPair(Scene& s,
                                                                fcl::CollisionObject<double>* o1,
                                                                fcl::CollisionObject<double>* o2) {
    Scene::Geometry* a = geometry(o1);
    Scene::Geometry* b = geometry(o2);
    if (a->link == b->link || s.allowedIndex(a->link, b->link)) return {nullptr, nullptr};
    if (a->index > b->index) std::swap(a, b);
    return {a, b};
  }

  // Pruning bound handed back to the manager: never below the smallest
  // positive double, so that pairs with touching boxes (box distance 0) are
  // still visited once some pair overlaps (the deepest overlap is wanted).
  static double bound(double d) { return std::max(d, std::numeric_limits<double>::min()); }

  // The bound for the manager in contacts mode: every pair whose boxes are
  // nearer than the margin (the manager skips box distances >= the bound).
  static double marginBound(double margin) {
    return std::nextafter(std::max(margin, 0.0), std::numeric_limits<double>::infinity());
  }

  // Records the answer of a pair: the new minimum, or (contacts mode) a
  // contact when it is within the margin. Returns the manager's bound.
  static double record(Data& data, const Answer& r, const std::string& link1,
                       std::size_t collision1, const std::string& link2,
                       std::size_t collision2) {
    if (data.contacts) {
      if (r.d <= data.margin) {
        data.contacts->push_back(
            {link1, collision1, link2, collision2, r.d, r.p1, r.p2, r.normal});
      }
      return marginBound(data.margin);
    }
    if (r.d < data.best.distance) {
      data.best = {link1, collision1, link2, collision2, r.d, r.p1, r.p2};
    }
    return bound(data.best.distance);
  }

  // fcl::DistanceCallBack over the scene's own pairs.
  static bool selfDistance(fcl::CollisionObject<double>* o1, fcl::CollisionObject<double>* o2,
                           void* raw, double& dist) {
    Data& data = *static_cast<Data*>(raw);
    Scene& s = *data.scene;
    auto [a, b] = selfPair(s, o1, o2);
    if (a) {
      const Answer r = pairAnswer(s, *a, *b, data.contacts != nullptr);
      dist = record(data, r, s.links_[a->link], a->collision, s.links_[b->link], b->collision);
    } else {
      dist = data.contacts ? marginBound(data.margin) : bound(data.best.distance);
    }
    return false;
  }

  // fcl::CollisionCallBack over the scene's own pairs.
  static bool selfCollide(fcl::CollisionObject<double>* o1, fcl::CollisionObject<double>* o2,
                          void* raw) {
    Data& data = *static_cast<Data*>(raw);
    if (data.stop_at_first && data.collided) return true;
    auto [a, b] = selfPair(*data.scene, o1, o2);
    if (!a) return false;
    const std::size_t n = data.scene->links_.size();
    if (data.self_pairs && data.found.empty()) data.found.assign(n * n, false);
    if (data.self_pairs && data.found[a->link * n + b->link]) return false;
    if (pairCollide(*data.scene, *a, *b)) {
      data.collided = true;
      if (data.self_pairs) {
        data.found[a->link * n + b->link] = data.found[b->link * n + a->link] = true;
        auto names = std::minmax(data.scene->links_[a->link], data.scene->links_[b->link]);
        data.self_pairs->emplace(names.first, names.second);
      }
    }
    return data.stop_at_first && data.collided;
  }

  // Each link's geometries' boxes merged into s.link_boxes_[link], and the
  // links that have geometry in s.query_links_.
  static void linkBoxes(Scene& s) {
    const std::size_t n = s.links_.size();
    s.link_boxes_.assign(n, fcl::AABB<double>());
    s.query_links_.clear();
    for (std::size_t l = 0; l < n; ++l) {
      const std::size_t first = s.link_first_[l], last = s.link_first_[l + 1];
      if (first == last) continue;
      s.link_boxes_[l] = s.geometries_[first]->object->getAABB();
      for (std::size_t k = first + 1; k < last; ++k)
        s.link_boxes_[l] += s.geometries_[k]->object->getAABB();
      s.query_links_.push_back(l);
    }
  }

  // Minimum self-distance by link pairs: the checked pairs whose merged
  // boxes overlap first (all of them are answered once some pair overlaps),
  // then, while the best is positive, the others nearest boxes first; within
  // a link pair its bodies nearest boxes first. A pair whose boxes lie no
  // nearer than the bound of the best so far (bound(): overlapping boxes
  // stay in once some pair overlaps) is skipped, and ends a sorted run. FCL's
  // tree took the pairs in its own order and reached a small best late.
  static void selfDistanceLinks(Data& data) {
    Scene& s = *data.scene;
    linkBoxes(s);
    const std::vector<fcl::AABB<double>>& box = s.link_boxes_;
    const std::vector<std::size_t>& links = s.query_links_;
    s.apart_links_.clear();
    for (std::size_t i = 0; i < links.size(); ++i)
      for (std::size_t j = i + 1; j < links.size(); ++j) {
        const std::size_t l1 = links[i], l2 = links[j];
        if (s.allowedIndex(l1, l2)) continue;
        if (box[l1].overlap(box[l2]))
          selfDistanceBodies(data, l1, l2);
        else
          s.apart_links_.push_back({l1, l2});
      }
    if (!(data.best.distance > 0)) return;  // the others' boxes lie apart
    s.ranked_links_.clear();
    for (const auto& [l1, l2] : s.apart_links_) {
      const double d = box[l1].distance(box[l2]);
      if (d < bound(data.best.distance)) s.ranked_links_.push_back({d, {l1, l2}});
    }
    std::sort(s.ranked_links_.begin(), s.ranked_links_.end());
    for (const auto& [link_distance, link_pair] : s.ranked_links_) {
      if (link_distance >= bound(data.best.distance)) break;
      selfDistanceBodies(data, link_pair.first, link_pair.second);
    }
  }

  // The bodies of links l1 and l2 for selfDistanceLinks, nearest boxes first.
  static void selfDistanceBodies(Data& data, std::size_t l1, std::size_t l2) {
    Scene& s = *data.scene;
    s.ranked_bodies_.clear();
    for (std::size_t a = s.link_first_[l1]; a < s.link_first_[l1 + 1]; ++a)
      for (std::size_t b = s.link_first_[l2]; b < s.link_first_[l2 + 1]; ++b)
        s.ranked_bodies_.push_back(
            {s.geometries_[a]->object->getAABB().distance(s.geometries_[b]->object->getAABB()),
             {a, b}});
    std::sort(s.ranked_bodies_.begin(), s.ranked_bodies_.end());
    for (const auto& [body_distance, body_pair] : s.ranked_bodies_) {
      if (body_distance >= bound(data.best.distance)) break;
      double unused = 0;
      selfDistance(s.geometries_[body_pair.first]->object.get(),
                   s.geometries_[body_pair.second]->object.get(), &data, unused);
    }
  }

  // Self-collision by link pairs: each link's geometries' boxes merged, the
  // links swept along x, and each checked link pair's geometries whose boxes
  // overlap handed to selfCollide. FCL's tree over the single geometries
  // visited every pair whose boxes overlap, a union's own bodies and the
  // allowed neighbours included: most of a query on a robot fitted with
  // unions. Boxes that touch overlap, as in FCL's test.
  static void selfCollideLinks(Data& data) {
    Scene& s = *data.scene;
    linkBoxes(s);
    const std::vector<fcl::AABB<double>>& box = s.link_boxes_;
    std::vector<std::size_t>& order = s.query_links_;
    std::sort(order.begin(), order.end(),
              [&](std::size_t x, std::size_t y) { return box[x].min_[0] < box[y].min_[0]; });
    for (std::size_t i = 0; i < order.size(); ++i) {
      const std::size_t l1 = order[i];
      for (std::size_t j = i + 1; j < order.size() && box[order[j]].min_[0] <= box[l1].max_[0];
           ++j) {
        const std::size_t l2 = order[j];
        if (s.allowedIndex(l1, l2) || !box[l1].overlap(box[l2])) continue;
        for (std::size_t a = s.link_first_[l1]; a < s.link_first_[l1 + 1]; ++a)
          for (std::size_t b = s.link_first_[l2]; b < s.link_first_[l2 + 1]; ++b) {
            fcl::CollisionObject<double>* oa = s.geometries_[a]->object.get();
            fcl::CollisionObject<double>* ob = s.geometries_[b]->object.get();
            if (oa->getAABB().overlap(ob->getAABB()) && selfCollide(oa, ob, &data)) return;
          }
      }
    }
  }

  // The scene geometry of a (scene, environment) pair, in either order.
  static Scene::Geometry* own(const Data& data, fcl::CollisionObject<double>* o1,
                              fcl::CollisionObject<double>* o2) {
    return geometry(o1 == data.env ? o2 : o1);
  }

  // fcl::DistanceCallBack between the scene and one environment object.
  static bool envDistance(fcl::CollisionObject<double>* o1, fcl::CollisionObject<double>* o2,
                          void* raw, double& dist) {
    Data& data = *static_cast<Data*>(raw);
    Scene::Geometry* a = own(data, o1, o2);
    const Answer r = envAnswer(*data.scene, *a, data.env, data.contacts != nullptr);
    dist = record(data, r, data.scene->links_[a->link], a->collision, "", data.env_index);
    return false;
  }

  // fcl::CollisionCallBack between the scene and one environment object.
  static bool envCollide(fcl::CollisionObject<double>* o1, fcl::CollisionObject<double>* o2,
                         void* raw) {
    Data& data = *static_cast<Data*>(raw);
    if (data.stop_at_first && data.collided) return true;
    Scene::Geometry* a = own(data, o1, o2);
    if (data.env_pairs && data.found.empty()) data.found.assign(data.scene->links_.size(), false);
    if (data.env_pairs && data.found[a->link]) return false;
    if (envPairCollide(*data.scene, *a, data.env)) {
      data.collided = true;
      if (data.env_pairs) {
        data.found[a->link] = true;
        data.env_pairs->emplace(data.scene->links_[a->link], data.env_index);
      }
    }
    return data.stop_at_first && data.collided;
  }
};

namespace {

// Eigen pose of a collision origin (urdfdom quaternion x y z w).
Eigen::Isometry3d originOf(const ::urdf::Pose& p) {
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear() = Eigen::Quaterniond(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z)
                   .normalized()
                   .toRotationMatrix();
  t.translation() = Eigen::Vector3d(p.position.x, p.position.y, p.position.z);
  return t;
}

// "link 'name', collision #index" for messages.
std::string collisionName(const std::string& link, std::size_t index) {
  return "link '" + link + "', collision #" + std::to_string(index);
}

using MeshTree = fcl::BVHModel<fcl::OBBRSS<double>>;

// Resolves the filenames of <mesh> collisions and builds one OBBRSS tree per
// (file, scale), shared by every collision that uses it.
class MeshLoader {
 public:
  explicit MeshLoader(const SceneOptions& options) : options_(options) {}

  // The tree of link's collision number index; throws SceneError.
  std::shared_ptr<MeshTree> load(const ::urdf::Mesh& mesh, const std::string& link,
                                 std::size_t index) {
    const std::string where = collisionName(link, index) + ": mesh '" + mesh.filename + "'";
    const std::filesystem::path file = resolve(mesh.filename, link, where);
    std::error_code ec;
    std::filesystem::path key = std::filesystem::absolute(file, ec);
    if (ec) key = file;
    const std::array<double, 3> scale{mesh.scale.x, mesh.scale.y, mesh.scale.z};
    auto [it, inserted] = trees_.try_emplace({key.lexically_normal().string(), scale});
    if (inserted) {
      try {
        it->second = build(loadMesh(file.string(), scale), link, where);
      } catch (const Error& e) {
        trees_.erase(it);
        throw SceneError(SOV_SCENE_ERR_GEOMETRY, link, where + ": " + e.what());
      }
    }
    return it->second;
  }

 private:
  // The file a URDF mesh filename names (resolveMeshUri with the options'
  // folders), with a failure reported as the scene's geometry error.
  std::filesystem::path resolve(const std::string& uri, const std::string& link,
                                const std::string& where) const {
    try {
      return resolveMeshUri(uri, options_.mesh_directory, options_.package_paths);
    } catch (const Error& e) {
      throw SceneError(SOV_SCENE_ERR_GEOMETRY, link, where + ": " + e.what());
    }
  }

  // An OBBRSS tree over mesh.
  static std::shared_ptr<MeshTree> build(const TriangleMesh& mesh, const std::string& link,
                                         const std::string& where) {
    std::vector<fcl::Vector3<double>> points;
    points.reserve(mesh.vertices.size());
    for (const auto& v : mesh.vertices) points.emplace_back(v[0], v[1], v[2]);
    std::vector<fcl::Triangle> triangles;
    triangles.reserve(mesh.triangles.size());
    for (const auto& t : mesh.triangles) triangles.emplace_back(t[0], t[1], t[2]);
    auto tree = std::make_shared<MeshTree>();
    if (tree->beginModel(static_cast<int>(triangles.size()), static_cast<int>(points.size())) !=
            fcl::BVH_OK ||
        tree->addSubModel(points, triangles) != fcl::BVH_OK || tree->endModel() != fcl::BVH_OK) {
      throw SceneError(SOV_SCENE_ERR_GEOMETRY, link, where + ": FCL could not build its tree");
    }
    tree->computeLocalAABB();
    return tree;
  }

  const SceneOptions& options_;
  std::map<std::pair<std::string, std::array<double, 3>>, std::shared_ptr<MeshTree>> trees_;
};

// Throws SOV_SCENE_ERR_GEOMETRY unless the primitive's size value is finite
// and >= 0: urdfdom accepts a negative one, and FCL would answer for it
// without a word (a sphere of radius -0.2 came out 0.4 further away).
void checkSize(double value, const char* what, const std::string& link, std::size_t index) {
  if (std::isfinite(value) && value >= 0) return;
  std::ostringstream message;
  message << collisionName(link, index) << ": " << what << " " << value
          << " is not a size (finite, >= 0)";
  throw SceneError(SOV_SCENE_ERR_GEOMETRY, link, message.str());
}

// FCL shape of a urdfdom primitive or mesh.
std::shared_ptr<fcl::CollisionGeometry<double>> shapeOf(const ::urdf::Geometry& g,
                                                        const std::string& link, std::size_t index,
                                                        MeshLoader& meshes) {
  switch (g.type) {
    case ::urdf::Geometry::BOX: {
      const auto& b = static_cast<const ::urdf::Box&>(g);
      for (const double v : {b.dim.x, b.dim.y, b.dim.z}) checkSize(v, "box size", link, index);
      return std::make_shared<fcl::Box<double>>(b.dim.x, b.dim.y, b.dim.z);
    }
    case ::urdf::Geometry::SPHERE: {
      const double radius = static_cast<const ::urdf::Sphere&>(g).radius;
      checkSize(radius, "sphere radius", link, index);
      return std::make_shared<fcl::Sphere<double>>(radius);
    }
    case ::urdf::Geometry::CYLINDER: {
      const auto& c = static_cast<const ::urdf::Cylinder&>(g);
      checkSize(c.radius, "cylinder radius", link, index);
      checkSize(c.length, "cylinder length", link, index);
      return std::make_shared<fcl::Cylinder<double>>(c.radius, c.length);
    }
    case ::urdf::Geometry::MESH:
      return meshes.load(static_cast<const ::urdf::Mesh&>(g), link, index);
  }
  throw SceneError(SOV_SCENE_ERR_GEOMETRY, link,
                   collisionName(link, index) + ": unknown geometry type");
}

// options, with mesh_directory set to the folder of urdf_path unless given.
SceneOptions withFolderOf(const std::string& urdf_path, SceneOptions options) {
  if (options.mesh_directory.empty()) {
    options.mesh_directory = std::filesystem::path(urdf_path).parent_path().string();
  }
  return options;
}

}  // namespace

Scene::Scene(const std::string& urdf_path, const SceneOptions& options)
    : Scene(parseFile(urdf_path), withFolderOf(urdf_path, options)) {}

Scene::Scene(const Model& model, const SceneOptions& options)
    : model_(model.urdf),
      source_(model.source),
      link_lines_(model.link_lines),
      joint_lines_(model.joint_lines),
      options_(options) {
  if (!model_) throw SceneError(SOV_SCENE_ERR_LINK, "", "the model holds no urdfdom model");
  for (const auto& [name, joint] : model_->joints_) {
    if (joint && joint->type != ::urdf::Joint::FIXED && !joint->mimic) {
      q_[name] = detail::defaultJointPosition(*joint);
    }
  }
  for (const auto& [name, link] : model_->links_) {
    link_index_[name] = links_.size();
    links_.push_back(name);
  }
  link_poses_.assign(links_.size(), Eigen::Isometry3d::Identity());
  MeshLoader meshes(options_);
  // The links come in name order; a geometry's error is kept and the first
  // in document order thrown at the end, as the fitter reports it.
  std::optional<SceneError> first_error;
  int first_error_line = 0;
  for (const auto& [name, link] : model_->links_) {
    for (std::size_t i = 0; i < link->collision_array.size(); ++i) {
      const ::urdf::Collision& c = *link->collision_array[i];
      auto g = std::make_unique<Geometry>();
      g->index = geometries_.size();
      g->link = link_index_.at(name);
      g->collision = i;
      std::shared_ptr<fcl::CollisionGeometry<double>> shape;
      if (const sov::urdf::Superovoid* s = model.find(name, i)) {
        g->superovoid = std::make_shared<sov::Superovoid>(s->params);
        g->local = Eigen::Isometry3d::Identity();
        g->local.linear() =
            Eigen::Quaterniond(s->quat[0], s->quat[1], s->quat[2], s->quat[3]).toRotationMatrix();
        g->local.translation() = Eigen::Vector3d(s->xyz[0], s->xyz[1], s->xyz[2]);
        shape = g->superovoid;
      } else {
        const auto line = model.collision_lines.find({name, i});
        try {
          if (!c.geometry) {
            throw SceneError(SOV_SCENE_ERR_GEOMETRY, name,
                             collisionName(name, i) + ": no geometry");
          }
          shape = shapeOf(*c.geometry, name, i, meshes);
        } catch (const SceneError& e) {
          const int at = line == model.collision_lines.end() ? 0 : line->second;
          if (!first_error || (at > 0 && (first_error_line == 0 || at < first_error_line))) {
            first_error = located(e, at);
            first_error_line = at;
          }
          continue;
        }
        g->local = originOf(c.origin);
      }
      g->object = std::make_unique<fcl::CollisionObject<double>>(shape);
      g->object->setUserData(g.get());
      geometries_.push_back(std::move(g));
    }
  }
  if (first_error) throw *first_error;
  // Each link's geometries are contiguous (the loop above goes link by link).
  link_first_.assign(links_.size() + 1, geometries_.size());
  for (std::size_t k = geometries_.size(); k-- > 0;) link_first_[geometries_[k]->link] = k;
  for (std::size_t l = links_.size(); l-- > 0;)
    link_first_[l] = std::min(link_first_[l], link_first_[l + 1]);
  allowed_.assign(links_.size() * links_.size(), false);
  for (const auto& [name, joint] : model_->joints_) {
    if (joint) allowCollision(joint->parent_link_name, joint->child_link_name);
  }
  try {
    updatePoses(forwardKinematics(*model_, q_));
  } catch (const SceneError& e) {
    throw located(e);
  }
  for (auto& g : geometries_) manager_.registerObject(g->object.get());
  manager_.setup();
  // An OcTree environment object reaches the callbacks whole (sov::distance
  // answers it), not as one temporary box object per leaf, which FCL's
  // default for distance would hand over.
  manager_.octree_as_geometry_collide = true;
  manager_.octree_as_geometry_distance = true;
}

Scene::~Scene() = default;

void Scene::updatePoses(const LinkPoses& poses) {
  for (const auto& [name, pose] : poses) link_poses_[link_index_.at(name)] = pose;
  for (auto& g : geometries_) {
    g->object->setTransform(link_poses_[g->link] * g->local);
    g->object->computeAABB();
  }
}

void Scene::setJointPositions(const JointPositions& q) {
  JointPositions next = q_;
  for (const auto& [name, value] : q) next[name] = value;
  LinkPoses poses;
  try {
    poses = forwardKinematics(*model_, next);
  } catch (const SceneError& e) {
    throw located(e);
  }
  q_ = std::move(next);
  updatePoses(poses);
  manager_.update();
}

std::size_t Scene::linkIndex(const std::string& link) const {
  auto it = link_index_.find(link);
  if (it == link_index_.end()) {
    throw located(
        SceneError(SOV_SCENE_ERR_LINK, link, "link '" + link + "' is not a link of the model"), 0);
  }
  return it->second;
}

SceneError Scene::located(const SceneError& e, int line) const {
  if (!e.where().source.empty()) return e;
  const std::string link = e.status() == SOV_SCENE_ERR_JOINT ? "" : e.name();
  return SceneError(e.status(), e.name(), Location{source_, line, link, ""}, e.what());
}

SceneError Scene::located(const SceneError& e) const {
  const auto& lines = e.status() == SOV_SCENE_ERR_JOINT ? joint_lines_ : link_lines_;
  const auto it = lines.find(e.name());
  return located(e, it == lines.end() ? 0 : it->second);
}

const Eigen::Isometry3d& Scene::linkPose(const std::string& link) const {
  return link_poses_[linkIndex(link)];
}

std::vector<std::string> Scene::linkNames() const { return links_; }

std::vector<Scene::GeometryRef> Scene::geometries() const {
  std::vector<GeometryRef> out;
  for (const auto& g : geometries_) {
    out.push_back({links_[g->link], g->collision, g->object.get(), g->superovoid != nullptr});
  }
  return out;
}

void Scene::allowCollision(const std::string& link1, const std::string& link2) {
  setAllowed(linkIndex(link1), linkIndex(link2), true);
}

void Scene::disallowCollision(const std::string& link1, const std::string& link2) {
  setAllowed(linkIndex(link1), linkIndex(link2), false);
}

bool Scene::isCollisionAllowed(const std::string& link1, const std::string& link2) const {
  return allowedIndex(linkIndex(link1), linkIndex(link2));
}

bool Scene::allowedIndex(std::size_t link1, std::size_t link2) const {
  return allowed_[link1 * links_.size() + link2];
}

void Scene::setAllowed(std::size_t link1, std::size_t link2, bool allowed) {
  allowed_[link1 * links_.size() + link2] = allowed;
  allowed_[link2 * links_.size() + link1] = allowed;
}

bool Scene::selfCollision(std::set<std::pair<std::string, std::string>>* pairs) {
  SceneAccess::Data data;
  data.scene = this;
  data.self_pairs = pairs;
  data.stop_at_first = pairs == nullptr;
  SceneAccess::selfCollideLinks(data);
  return data.collided;
}

PairDistance Scene::minSelfDistance() {
  SceneAccess::Data data;
  data.scene = this;
  data.best.distance = std::numeric_limits<double>::infinity();
  SceneAccess::selfDistanceLinks(data);
  return data.best;
}

bool Scene::collides(const std::vector<fcl::CollisionObject<double>*>& env,
                     std::set<std::pair<std::string, std::size_t>>* pairs) {
  SceneAccess::Data data;
  data.scene = this;
  data.env_pairs = pairs;
  data.stop_at_first = pairs == nullptr;
  for (std::size_t k = 0; k < env.size(); ++k) {
    if (data.stop_at_first && data.collided) break;
    data.env = env[k];
    data.env_index = k;
    data.found.clear();  // links found colliding with this object
    manager_.collide(env[k], &data, SceneAccess::envCollide);
  }
  return data.collided;
}

PairDistance Scene::distance(const std::vector<fcl::CollisionObject<double>*>& env) {
  SceneAccess::Data data;
  data.scene = this;
  data.best.distance = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < env.size(); ++k) {
    data.env = env[k];
    data.env_index = k;
    manager_.distance(env[k], &data, SceneAccess::envDistance);
  }
  return data.best;
}

namespace {

// Throws sov::Error unless margin is a number (infinity: every pair).
void checkMargin(double margin) {
  if (std::isnan(margin)) throwIfError(SOV_ERR_NONFINITE, "scene contacts: the margin is NaN");
}

// Sorts contacts nearest first, then by link names and collision indices.
std::vector<Contact> sorted(std::vector<Contact> contacts) {
  std::sort(contacts.begin(), contacts.end(), [](const Contact& x, const Contact& y) {
    return std::tie(x.distance, x.link1, x.collision1, x.link2, x.collision2) <
           std::tie(y.distance, y.link1, y.collision1, y.link2, y.collision2);
  });
  return contacts;
}

}  // namespace

std::vector<Contact> Scene::contacts(double margin) {
  checkMargin(margin);
  std::vector<Contact> out;
  SceneAccess::Data data;
  data.scene = this;
  data.contacts = &out;
  data.margin = margin;
  manager_.distance(&data, SceneAccess::selfDistance);
  return sorted(std::move(out));
}

std::vector<Contact> Scene::contacts(const std::vector<fcl::CollisionObject<double>*>& env,
                                     double margin) {
  checkMargin(margin);
  std::vector<Contact> out;
  SceneAccess::Data data;
  data.scene = this;
  data.contacts = &out;
  data.margin = margin;
  for (std::size_t k = 0; k < env.size(); ++k) {
    data.env = env[k];
    data.env_index = k;
    manager_.distance(env[k], &data, SceneAccess::envDistance);
  }
  return sorted(std::move(out));
}

}  // namespace urdf
}  // namespace sov
