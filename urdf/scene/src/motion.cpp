// Scene::motionCollides: conservative advancement of every checked pair
// along a joint-space segment, with link point speeds bounded through the
// kinematic tree (Schwarzer, Saha, Latombe, "Adaptive dynamic collision
// checking for single and multiple articulated robots in complex
// environments", IEEE T-RO 2005, sec. III: the displacement of a link point
// is at most the sum over the joints before it of |dq_j| times its distance
// from joint j's axis).
#include <superovoid/fcl/continuous_collision.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "geometry.h"
#include "superovoid/urdf/scene.h"

namespace sov {
namespace urdf {
namespace {

using Iso = Eigen::Isometry3d;
using Vec = Eigen::Vector3d;

// Eigen pose of a urdfdom pose (its quaternion is x y z w).
Iso isoOf(const ::urdf::Pose& p) {
  Iso t = Iso::Identity();
  t.linear() = Eigen::Quaterniond(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z)
                   .normalized()
                   .toRotationMatrix();
  t.translation() = Vec(p.position.x, p.position.y, p.position.z);
  return t;
}

// One link as the segment moves it: the joint from its parent, the joint's
// position at t = 0 and its change over the segment.
struct ChainLink {
  int parent = -1;              // scene link index; -1 for the root
  Iso origin = Iso::Identity(); // joint origin in the parent's frame
  int type = ::urdf::Joint::FIXED;
  Vec axis = Vec::UnitZ();      // unit joint axis
  double q0 = 0, dq = 0;        // position at t = 0, change to t = 1
  double reach = 0;             // bound on |this frame's origin| in the parent's
};

// The tree of the scene's links along one segment.
struct Chain {
  std::vector<ChainLink> links;  // by scene link index
  std::vector<int> order;        // every parent before its children

  // Every link's pose (root frame) at time t.
  void poses(double t, std::vector<Iso>& out) const {
    out.assign(links.size(), Iso::Identity());
    for (int k : order) {
      const ChainLink& l = links[k];
      if (l.parent < 0) continue;
      Iso motion = Iso::Identity();
      const double q = l.q0 + t * l.dq;
      if (l.type == ::urdf::Joint::PRISMATIC) {
        motion.translation() = q * l.axis;
      } else if (l.type != ::urdf::Joint::FIXED) {
        motion.linear() = Eigen::AngleAxisd(q, l.axis).toRotationMatrix();
      }
      out[k] = out[l.parent] * l.origin * motion;
    }
  }

  // The links from k up to the root, k first.
  std::vector<int> path(int k) const {
    std::vector<int> up;
    for (; k >= 0; k = links[k].parent) up.push_back(k);
    return up;
  }
};

// The chain of the model between joint positions p0 and p1 (every movable
// joint, mimic joints derived).
Chain buildChain(const ::urdf::ModelInterface& model,
                 const std::map<std::string, std::size_t>& link_index,
                 const std::map<std::string, double>& p0, const std::map<std::string, double>& p1) {
  Chain c;
  c.links.resize(link_index.size());
  for (const auto& [name, joint] : model.joints_) {
    if (!joint) continue;
    ChainLink& l = c.links[link_index.at(joint->child_link_name)];
    l.parent = static_cast<int>(link_index.at(joint->parent_link_name));
    l.origin = isoOf(joint->parent_to_joint_origin_transform);
    l.type = joint->type;
    l.reach = l.origin.translation().norm();
    if (l.type == ::urdf::Joint::FIXED) continue;
    l.axis = Vec(joint->axis.x, joint->axis.y, joint->axis.z).normalized();
    l.q0 = p0.at(name);
    l.dq = p1.at(name) - l.q0;
    if (l.type == ::urdf::Joint::PRISMATIC) {
      l.reach += std::max(std::abs(l.q0), std::abs(l.q0 + l.dq));
    }
  }
  std::vector<int> todo{static_cast<int>(link_index.at(model.getRoot()->name))};
  while (!todo.empty()) {
    const int k = todo.back();
    todo.pop_back();
    c.order.push_back(k);
    for (std::size_t j = 0; j < c.links.size(); ++j) {
      if (c.links[j].parent == k) todo.push_back(static_cast<int>(j));
    }
  }
  return c;
}

// How much a joint moves the points of one geometry, per unit of t: the
// joint's link, and |dq| times the distance bound from its axis (revolute,
// continuous) or |dq| (prismatic).
struct JointShare {
  int link;
  double speed;
};

// The joints before geometry g (on link `link`, its points within rho of
// the link frame's origin) with what each contributes to its points' speed.
std::vector<JointShare> speedShares(const Chain& c, int link, double rho) {
  std::vector<JointShare> out;
  double below = rho;  // bound on the distance from the current frame's origin
  for (int k : c.path(link)) {
    const ChainLink& l = c.links[k];
    if (l.parent < 0) break;
    if (l.type == ::urdf::Joint::PRISMATIC) {
      out.push_back({k, std::abs(l.dq)});
    } else if (l.type != ::urdf::Joint::FIXED) {
      out.push_back({k, std::abs(l.dq) * below});
    }
    below += l.reach;
  }
  return out;
}

// Sum of the shares of joints not in the other link's path (joints the two
// links share move them together and leave their distance unchanged).
double unsharedSpeed(const std::vector<JointShare>& shares, const std::vector<int>& other_path) {
  double sum = 0;
  for (const JointShare& s : shares) {
    if (std::find(other_path.begin(), other_path.end(), s.link) == other_path.end()) {
      sum += s.speed;
    }
  }
  return sum;
}

// What moves one geometry: its link's path to the root, the joints'
// shares of its points' speed, and the radius of a ball about its origin
// that holds it.
struct GeometryMotion {
  std::vector<int> path;
  std::vector<JointShare> shares;
  double radius = 0;
};

// The motion of every geometry of the scene along the chain's segment.
std::vector<GeometryMotion> geometryMotions(
    const Chain& chain, const std::vector<std::unique_ptr<Scene::Geometry>>& geometries) {
  std::vector<GeometryMotion> out(geometries.size());
  for (const auto& g : geometries) {
    GeometryMotion& m = out[g->index];
    m.radius = boundingRadius(*g->object->collisionGeometry());
    m.path = chain.path(static_cast<int>(g->link));
    m.shares = speedShares(chain, static_cast<int>(g->link),
                           g->local.translation().norm() + m.radius);
  }
  return out;
}

// One checked pair: two geometries, or a geometry and an environment object.
struct MotionPair {
  std::size_t a = 0, b = 0;  // geometry indices (b unused for env)
  const fcl::CollisionObject<double>* env = nullptr;
  std::size_t env_index = 0;
  double env_radius = 0;  // the environment object's bounding radius
  double mu = 0;          // bound on the shrinking of their distance per unit of t
  double last = std::numeric_limits<double>::infinity();  // last proved distance
  sov_cache* cache = nullptr;
};

// The next time a pair must be looked at, earliest first.
using Due = std::pair<double, std::size_t>;
using DueQueue = std::priority_queue<Due, std::vector<Due>, std::greater<Due>>;

// Bounding balls closer than this fraction of the pair's last proved
// distance are not worth a step of their own: the exact distance is
// queried instead (a step on the balls costs far less than a query, but
// their gap may be much smaller than the distance).
constexpr double kBallShare = 0.5;

// The gap between the bounding balls of two posed geometries (radii ra,
// rb about their origins): a lower bound on their distance when positive.
double ballGap(const Eigen::Isometry3d& ta, double ra, const Eigen::Isometry3d& tb, double rb) {
  return (ta.translation() - tb.translation()).norm() - ra - rb;
}

}  // namespace

std::map<std::string, double> Scene::resolvedPositions(const JointPositions& q) const {
  JointPositions next = q_;
  for (const auto& [name, value] : q) next[name] = value;
  try {
    forwardKinematics(*model_, next);  // every check of setJointPositions
  } catch (const SceneError& e) {
    throw located(e);
  }
  std::map<std::string, double> out;
  std::function<double(const ::urdf::Joint&)> value = [&](const ::urdf::Joint& j) -> double {
    if (!j.mimic) return next.at(j.name);
    return j.mimic->multiplier * value(*model_->joints_.at(j.mimic->joint_name)) +
           j.mimic->offset;
  };
  for (const auto& [name, joint] : model_->joints_) {
    if (joint && joint->type != ::urdf::Joint::FIXED) out[name] = value(*joint);
  }
  return out;
}

MotionCheck Scene::motionCollides(const JointPositions& q0, const JointPositions& q1,
                                  const MotionOptions& options) {
  return motionCollides(q0, q1, {}, options);
}

namespace {

// The pairs to check: geometries of links that may collide (allowed(a, b)
// false), and every geometry with every environment object; cache(a, b,
// env) gives a pair's warm-start cache or null.
template <class Allowed, class CacheOf>
std::vector<MotionPair> motionPairs(const std::vector<std::unique_ptr<Scene::Geometry>>& geometries,
                                    const std::vector<GeometryMotion>& motion,
                                    const std::vector<fcl::CollisionObject<double>*>& env,
                                    Allowed allowed, CacheOf cache) {
  std::vector<MotionPair> pairs;
  for (const auto& a : geometries) {
    for (const auto& b : geometries) {
      if (b->index <= a->index || a->link == b->link || allowed(*a, *b)) continue;
      MotionPair p;
      p.a = a->index;
      p.b = b->index;
      p.mu = unsharedSpeed(motion[a->index].shares, motion[b->index].path) +
             unsharedSpeed(motion[b->index].shares, motion[a->index].path);
      p.cache = cache(*a, b.get(), nullptr);
      pairs.push_back(p);
    }
    for (std::size_t k = 0; k < env.size(); ++k) {
      MotionPair p;
      p.a = a->index;
      p.env = env[k];
      p.env_index = k;
      p.env_radius = boundingRadius(*env[k]->collisionGeometry());
      p.mu = unsharedSpeed(motion[a->index].shares, {});
      p.cache = cache(*a, nullptr, env[k]);
      pairs.push_back(p);
    }
  }
  return pairs;
}

// Conservative advancement of every pair, earliest unproved time first,
// until a pair comes within the tolerance (the first contact) or every
// pair is proved apart to t = 1.
class Advancement {
 public:
  Advancement(const Chain& chain, const std::vector<std::unique_ptr<Scene::Geometry>>& geometries,
              const std::vector<GeometryMotion>& motion, const std::vector<std::string>& links,
              const MotionOptions& options)
      : chain_(chain), geometries_(geometries), motion_(motion), links_(links),
        options_(options) {}

  // The answer for the pairs (their last proved distances are updated).
  MotionCheck run(std::vector<MotionPair>& pairs) {
    MotionCheck out;
    out.pairs = pairs.size();
    out.pair.distance = std::numeric_limits<double>::infinity();
    DueQueue due;
    for (std::size_t i = 0; i < pairs.size(); ++i) due.push({0.0, i});
    while (!due.empty()) {
      const auto [t, i] = due.top();
      due.pop();
      if (out.steps >= options_.max_steps) {
        throw sov::Error(SOV_ERR_NO_CONVERGENCE,
                         "scene motion check: " + std::to_string(out.steps) +
                             " steps without an answer; the segment is free on [0, " +
                             std::to_string(t) + ")");
      }
      ++out.steps;
      const double next = step(pairs[i], t, &out);
      if (out.collides) return out;
      if (next <= 1) due.push({next, i});
    }
    return out;
  }

 private:
  // One step of pair p at time t: the next time it must be looked at (> 1
  // when it is proved apart to the end), or a contact recorded in out.
  double step(MotionPair& p, double t, MotionCheck* out) {
    if (!(t == posed_at_)) {
      chain_.poses(t, poses_);
      posed_at_ = t;
    }
    const Scene::Geometry& a = *geometries_[p.a];
    const Scene::Geometry* b = p.env ? nullptr : geometries_[p.b].get();
    const Eigen::Isometry3d ta = poses_[a.link] * a.local;
    const Eigen::Isometry3d tb = p.env ? p.env->getTransform() : poses_[b->link] * b->local;
    // A pair that no joint moves (mu 0) is looked at once.
    const double balls =
        ballGap(ta, motion_[p.a].radius, tb, p.env ? p.env_radius : motion_[p.b].radius);
    if (balls > 0) {
      if (!(p.mu > 0) || balls > p.mu * (1 - t)) return 2;
      if (balls >= kBallShare * p.last) return t + balls / p.mu;
    }
    const Separation s =
        separation(a.object->collisionGeometry().get(), ta,
                   p.env ? p.env->collisionGeometry().get() : b->object->collisionGeometry().get(),
                   tb, options_.gjk_tolerance, p.cache);
    if (s.distance <= std::max(options_.distance_tolerance, s.touching)) {
      out->collides = true;
      out->t = t;
      out->pair = {links_[a.link], a.collision, p.env ? std::string() : links_[b->link],
                   p.env ? p.env_index : b->collision, s.distance, s.p1, s.p2};
      return t;
    }
    out->certified = out->certified && s.certified;
    if (!(p.mu > 0)) return 2;
    p.last = s.lower;
    if (!(s.lower > 0)) {
      throw sov::Error(SOV_ERR_NO_CONVERGENCE, "scene motion check: no step proved for link '" +
                                                   links_[a.link] + "' at t = " + std::to_string(t));
    }
    return t + s.lower / p.mu;
  }

  const Chain& chain_;
  const std::vector<std::unique_ptr<Scene::Geometry>>& geometries_;
  const std::vector<GeometryMotion>& motion_;
  const std::vector<std::string>& links_;
  const MotionOptions& options_;
  std::vector<Eigen::Isometry3d> poses_;
  double posed_at_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace

MotionCheck Scene::motionCollides(const JointPositions& q0, const JointPositions& q1,
                                  const std::vector<fcl::CollisionObject<double>*>& env,
                                  const MotionOptions& options) {
  // A NaN or negative tolerance never meets a distance: the check ran its
  // million steps before throwing.
  if (!(options.distance_tolerance >= 0) || !std::isfinite(options.distance_tolerance))
    throwIfError(SOV_ERR_OPTION, "scene motion check: distance_tolerance must be finite and >= 0");
  if (!(options.gjk_tolerance > 0) || !std::isfinite(options.gjk_tolerance))
    throwIfError(SOV_ERR_OPTION, "scene motion check: gjk_tolerance must be finite and > 0");
  if (options.max_steps == 0)
    throwIfError(SOV_ERR_OPTION, "scene motion check: max_steps must be at least 1");
  const Chain chain = buildChain(*model_, link_index_, resolvedPositions(q0), resolvedPositions(q1));
  const std::vector<GeometryMotion> motion = geometryMotions(chain, geometries_);
  const auto allowed = [&](const Geometry& a, const Geometry& b) {
    return allowedIndex(a.link, b.link);
  };
  // Warm starts for superovoid pairs, in the caches the queries use.
  const auto cache = [&](const Geometry& a, const Geometry* b,
                         const fcl::CollisionObject<double>* e) -> sov_cache* {
    if (!options_.warm_start || !a.superovoid) return nullptr;
    if (b && !b->superovoid) return nullptr;
    if (e && !dynamic_cast<const sov::Superovoid*>(e->collisionGeometry().get())) return nullptr;
    auto fresh = [](sov_cache& c, bool inserted) {
      if (inserted) sov_cache_reset(&c);
      return &c;
    };
    if (b) {
      auto [it, inserted] = caches_.try_emplace({a.index, b->index});
      return fresh(it->second, inserted);
    }
    auto [it, inserted] = env_caches_.try_emplace({a.index, e});
    return fresh(it->second, inserted);
  };
  std::vector<MotionPair> pairs = motionPairs(geometries_, motion, env, allowed, cache);
  return Advancement(chain, geometries_, motion, links_, options).run(pairs);
}

}  // namespace urdf
}  // namespace sov
