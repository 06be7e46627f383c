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

// One checked pair: two geometries, or a geometry and an environment object.
struct MotionPair {
  std::size_t a = 0, b = 0;  // geometry indices (b unused for env)
  const fcl::CollisionObject<double>* env = nullptr;
  std::size_t env_index = 0;
  double mu = 0;  // bound on the shrinking of their distance per unit of t
  sov_cache* cache = nullptr;
};

// The next time a pair must be looked at, earliest first.
using Due = std::pair<double, std::size_t>;
using DueQueue = std::priority_queue<Due, std::vector<Due>, std::greater<Due>>;

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

MotionCheck Scene::motionCollides(const JointPositions& q0, const JointPositions& q1,
                                  const std::vector<fcl::CollisionObject<double>*>& env,
                                  const MotionOptions& options) {
  const Chain chain = buildChain(*model_, link_index_, resolvedPositions(q0), resolvedPositions(q1));
  // Per geometry: its link's path and the joints' shares of its speed.
  std::vector<std::vector<int>> paths(geometries_.size());
  std::vector<std::vector<JointShare>> shares(geometries_.size());
  for (const auto& g : geometries_) {
    const double rho = g->local.translation().norm() + boundingRadius(*g->object->collisionGeometry());
    paths[g->index] = chain.path(static_cast<int>(g->link));
    shares[g->index] = speedShares(chain, static_cast<int>(g->link), rho);
  }
  std::vector<MotionPair> pairs;
  for (const auto& a : geometries_) {
    for (const auto& b : geometries_) {
      if (b->index <= a->index || a->link == b->link || allowedIndex(a->link, b->link)) continue;
      MotionPair p;
      p.a = a->index;
      p.b = b->index;
      p.mu = unsharedSpeed(shares[a->index], paths[b->index]) +
             unsharedSpeed(shares[b->index], paths[a->index]);
      if (options_.warm_start && a->superovoid && b->superovoid) {
        auto [it, inserted] = caches_.try_emplace({a->index, b->index});
        if (inserted) sov_cache_reset(&it->second);
        p.cache = &it->second;
      }
      pairs.push_back(p);
    }
    for (std::size_t k = 0; k < env.size(); ++k) {
      MotionPair p;
      p.a = a->index;
      p.env = env[k];
      p.env_index = k;
      p.mu = unsharedSpeed(shares[a->index], {});
      const bool core = a->superovoid &&
                        dynamic_cast<const sov::Superovoid*>(env[k]->collisionGeometry().get());
      if (options_.warm_start && core) {
        auto [it, inserted] = env_caches_.try_emplace({a->index, env[k]});
        if (inserted) sov_cache_reset(&it->second);
        p.cache = &it->second;
      }
      pairs.push_back(p);
    }
  }
  MotionCheck out;
  out.pairs = pairs.size();
  out.pair.distance = std::numeric_limits<double>::infinity();
  DueQueue due;
  for (std::size_t i = 0; i < pairs.size(); ++i) due.push({0.0, i});
  std::vector<Iso> poses;
  double posed_at = std::numeric_limits<double>::quiet_NaN();
  while (!due.empty()) {
    const auto [t, i] = due.top();
    due.pop();
    if (out.steps >= options.max_steps) {
      throw sov::Error(SOV_ERR_NO_CONVERGENCE,
                  "scene motion check: " + std::to_string(out.steps) +
                      " distance queries without an answer; the segment is free on [0, " +
                      std::to_string(t) + ")");
    }
    if (!(t == posed_at)) {
      chain.poses(t, poses);
      posed_at = t;
    }
    const MotionPair& p = pairs[i];
    const Geometry& a = *geometries_[p.a];
    const Iso ta = poses[a.link] * a.local;
    const fcl::CollisionGeometry<double>* ga = a.object->collisionGeometry().get();
    Separation s;
    if (p.env) {
      s = separation(ga, ta, p.env->collisionGeometry().get(), p.env->getTransform(),
                     options.gjk_tolerance, p.cache);
    } else {
      const Geometry& b = *geometries_[p.b];
      s = separation(ga, ta, b.object->collisionGeometry().get(), poses[b.link] * b.local,
                     options.gjk_tolerance, p.cache);
    }
    ++out.steps;
    if (s.distance <= options.distance_tolerance) {
      out.collides = true;
      out.t = t;
      out.pair = {links_[a.link], a.collision,
                  p.env ? std::string() : links_[geometries_[p.b]->link],
                  p.env ? p.env_index : geometries_[p.b]->collision,
                  s.distance, s.p1, s.p2};
      return out;
    }
    out.certified = out.certified && s.certified;
    if (!(p.mu > 0)) continue;  // the pair does not move relative to itself
    const double step = s.lower / p.mu;
    if (!(step > 0)) {
      throw sov::Error(SOV_ERR_NO_CONVERGENCE,
                  "scene motion check: no step proved for links '" + links_[a.link] + "' at t = " +
                      std::to_string(t));
    }
    if (step <= 1 - t) due.push({t + step, i});
  }
  return out;
}

}  // namespace urdf
}  // namespace sov
