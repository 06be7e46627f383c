// Broadphase callbacks of CollisionEnvSuperovoid: pairs holding a superovoid
// are answered by sov::collide / sov::distance with MoveIt's bookkeeping
// (allowed-collision matrix, touch links, contacts, costs, distance maps);
// every other pair is handed to MoveIt's own callback.
#include "callbacks.h"

#include <moveit/collision_detection_fcl/collision_common.h>
#include <ros/console.h>

#include <fcl/geometry/octree/octree.h>

#include <algorithm>
#include <exception>
#include <limits>
#include <string>
#include <utility>

#include "superovoid/fcl/collision.h"
#include "superovoid/fcl/distance.h"
#include "superovoid/fcl/superovoid.h"

namespace sov {
namespace moveit {
namespace detail {
namespace {

namespace cd = collision_detection;
constexpr char kLog[] = "superovoid.moveit";

// True when o's geometry is a sov::Superovoid (the only BV_UNKNOWN shape here).
bool isSuperovoid(const fcl::CollisionObjectd* o) {
  const fcl::CollisionGeometryd* g = o->collisionGeometry().get();
  return g->getNodeType() == fcl::BV_UNKNOWN && dynamic_cast<const sov::Superovoid*>(g);
}

// The link a body belongs to (its own, or the one it is attached to), or null.
const ::moveit::core::LinkModel* ownerLink(const cd::CollisionGeometryData& d) {
  if (d.type == cd::BodyTypes::ROBOT_LINK) return d.ptr.link;
  if (d.type == cd::BodyTypes::ROBOT_ATTACHED) return d.ptr.ab->getAttachedLink();
  return nullptr;
}

// True when MoveIt would not check the pair at all: parts of one body, or
// neither in the active group.
bool ignoredPair(const cd::CollisionGeometryData& a, const cd::CollisionGeometryData& b,
                 const std::set<const ::moveit::core::LinkModel*>* active) {
  if (a.sameObject(b)) return true;
  if (!active) return false;
  const auto* la = ownerLink(a);
  const auto* lb = ownerLink(b);
  return (!la || !active->count(la)) && (!lb || !active->count(lb));
}

// True when an attached body may touch the link (its touch links), or two
// bodies hang from the same link.
bool touchAllowed(const cd::CollisionGeometryData& a, const cd::CollisionGeometryData& b) {
  using cd::BodyTypes::ROBOT_ATTACHED;
  using cd::BodyTypes::ROBOT_LINK;
  if (a.type == ROBOT_LINK && b.type == ROBOT_ATTACHED)
    return b.ptr.ab->getTouchLinks().count(a.getID()) > 0;
  if (b.type == ROBOT_LINK && a.type == ROBOT_ATTACHED)
    return a.ptr.ab->getTouchLinks().count(b.getID()) > 0;
  if (a.type == ROBOT_ATTACHED && b.type == ROBOT_ATTACHED)
    return a.ptr.ab->getAttachedLink() == b.ptr.ab->getAttachedLink();
  return false;
}

// The pair's key in MoveIt's contact and distance maps: names in order.
std::pair<std::string, std::string> pairKey(const cd::CollisionGeometryData& a,
                                            const cd::CollisionGeometryData& b) {
  return a.getID() < b.getID() ? std::make_pair(a.getID(), b.getID())
                               : std::make_pair(b.getID(), a.getID());
}

// How many contacts of this pair the request still wants stored.
std::size_t wantedContacts(const cd::CollisionRequest& req, const cd::CollisionResult& res,
                           const std::pair<std::string, std::string>& key) {
  if (!req.contacts || res.contact_count >= req.max_contacts) return 0;
  const auto it = res.contacts.find(key);
  const std::size_t have = it == res.contacts.end() ? 0 : it->second.size();
  if (have >= req.max_contacts_per_pair) return 0;
  return std::min(req.max_contacts_per_pair - have, req.max_contacts - res.contact_count);
}

// Keeps the request's cheapest cost sources (MoveIt's rule).
void addCosts(fcl::CollisionResultd& fres, const cd::CollisionRequest& req,
              cd::CollisionResult& res) {
  std::vector<fcl::CostSourced> sources;
  fres.getCostSources(sources);
  for (const fcl::CostSourced& s : sources) {
    cd::CostSource cs;
    cd::fcl2costsource(s, cs);
    res.cost_sources.insert(cs);
    while (res.cost_sources.size() > req.max_cost_sources)
      res.cost_sources.erase(--res.cost_sources.end());
  }
}

// sov::collide for one pair; a pair the FCL layer refuses (sov::Error) is
// logged and counted as a collision with no contact: a check must not pass
// a pair it could not answer.
std::size_t collidePair(const fcl::CollisionObjectd* o1, const fcl::CollisionObjectd* o2,
                        const fcl::CollisionRequestd& req, fcl::CollisionResultd& res,
                        bool* refused) {
  try {
    return sov::collide(o1, o2, req, res);
  } catch (const std::exception& e) {
    ROS_ERROR_STREAM_NAMED(kLog, "pair not answered, taken as colliding: " << e.what());
    *refused = true;
    return 0;
  }
}

// The superovoid branch of collisionCallback, as MoveIt's: returns true when
// the check is complete.
bool superovoidCollision(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2,
                         cd::CollisionData& data) {
  const auto& d1 = *static_cast<const cd::CollisionGeometryData*>(o1->collisionGeometry()->getUserData());
  const auto& d2 = *static_cast<const cd::CollisionGeometryData*>(o2->collisionGeometry()->getUserData());
  if (ignoredPair(d1, d2, data.active_components_only_) || touchAllowed(d1, d2)) return false;
  cd::DecideContactFn decide;
  cd::AllowedCollision::Type type;
  if (data.acm_ && data.acm_->getAllowedCollision(d1.getID(), d2.getID(), type)) {
    if (type == cd::AllowedCollision::ALWAYS) return false;
    if (type == cd::AllowedCollision::CONDITIONAL)
      data.acm_->getAllowedCollision(d1.getID(), d2.getID(), decide);
  }
  const cd::CollisionRequest& req = *data.req_;
  cd::CollisionResult& res = *data.res_;
  const auto key = pairKey(d1, d2);
  std::size_t want = wantedContacts(req, res, key);
  // A decider must see every contact; otherwise one is enough for a verdict.
  const std::size_t ask = decide ? std::numeric_limits<std::size_t>::max() : std::max<std::size_t>(want, 1);
  fcl::CollisionRequestd freq(ask, decide || want > 0, req.max_cost_sources, req.cost);
  fcl::CollisionResultd fres;
  bool refused = false;
  const std::size_t n = collidePair(o1, o2, freq, fres, &refused);
  res.collision = res.collision || refused;
  for (std::size_t i = 0; i < n; ++i) {
    cd::Contact c;
    if (freq.enable_contact) cd::fcl2contact(fres.getContact(i), c);
    if (decide && decide(c)) continue;
    res.collision = true;
    if (want == 0) break;
    res.contacts[key].push_back(c);
    ++res.contact_count;
    if (--want == 0) break;
  }
  if (req.cost) addCosts(fres, req, res);
  if (res.collision && (!req.contacts || res.contact_count >= req.max_contacts) && !req.cost)
    data.done_ = true;
  if (!data.done_ && req.is_done) data.done_ = req.is_done(res);
  return data.done_;
}

// True when g is a triangle mesh or an octree (no penetration depth from
// sov::distance: MoveIt's contact-based depth is used, as for its own pairs).
bool hasNoDepth(const fcl::CollisionGeometryd* g) {
  return g->getObjectType() == fcl::OT_BVH || g->getObjectType() == fcl::OT_OCTREE;
}

// MoveIt's signed distance of an overlapping mesh or octree pair: the
// deepest of up to 200 contacts, at its position, normal from o1 to o2.
void contactDepth(const fcl::CollisionObjectd* o1, const fcl::CollisionObjectd* o2,
                  cd::DistanceResultsData& out) {
  fcl::CollisionRequestd req(200, true);
  fcl::CollisionResultd res;
  bool refused = false;
  const std::size_t n = collidePair(o1, o2, req, res, &refused);
  if (n == 0) return;
  std::size_t deepest = 0;
  for (std::size_t i = 1; i < n; ++i)
    if (res.getContact(i).penetration_depth > res.getContact(deepest).penetration_depth) deepest = i;
  const fcl::Contactd& c = res.getContact(deepest);
  out.distance = -c.penetration_depth;
  out.nearest_points[0] = out.nearest_points[1] = c.pos;
  out.normal = c.o1 == o1->collisionGeometry().get() ? c.normal : Eigen::Vector3d(-c.normal);
}

// The threshold a new distance of this pair must beat (MoveIt's rule per
// request type); false when the pair has all the entries it may have.
bool distanceThreshold(const cd::DistanceData& data, const cd::DistanceMap::iterator& it,
                       double* threshold) {
  *threshold = data.req->distance_threshold;
  if (data.req->type == cd::DistanceRequestType::GLOBAL) {
    *threshold = data.res->minimum_distance.distance;
  } else if (it != data.res->distances.end()) {
    if (data.req->type == cd::DistanceRequestType::LIMITED &&
        it->second.size() >= data.req->max_contacts_per_body)
      return false;
    if (data.req->type == cd::DistanceRequestType::SINGLE) *threshold = it->second[0].distance;
  }
  return true;
}

// Files a pair's distance in the result as MoveIt does.
void recordDistance(cd::DistanceData& data, cd::DistanceMap::iterator it,
                    const std::pair<std::string, std::string>& key,
                    const cd::DistanceResultsData& r) {
  cd::DistanceResult& res = *data.res;
  if (r.distance < res.minimum_distance.distance) res.minimum_distance = r;
  if (r.distance <= 0) res.collision = true;
  const cd::DistanceRequestType type = data.req->type;
  if (type != cd::DistanceRequestType::GLOBAL) {
    if (it == res.distances.end())
      res.distances.emplace(key, std::vector<cd::DistanceResultsData>{r});
    else if (type == cd::DistanceRequestType::SINGLE)
      it->second[0] = r.distance < it->second[0].distance ? r : it->second[0];
    else
      it->second.push_back(r);
  }
  if (!data.req->enable_signed_distance && res.collision) data.done = true;
}

// The superovoid branch of distanceCallback: returns true when complete.
bool superovoidDistance(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2,
                        cd::DistanceData& data) {
  const auto& d1 = *static_cast<const cd::CollisionGeometryData*>(o1->collisionGeometry()->getUserData());
  const auto& d2 = *static_cast<const cd::CollisionGeometryData*>(o2->collisionGeometry()->getUserData());
  const cd::DistanceRequest& req = *data.req;
  if (ignoredPair(d1, d2, req.active_components_only) || touchAllowed(d1, d2)) return false;
  cd::AllowedCollision::Type type;
  if (req.acm && req.acm->getAllowedCollision(d1.getID(), d2.getID(), type) &&
      type == cd::AllowedCollision::ALWAYS)
    return false;
  for (const fcl::CollisionObjectd* o : {o1, o2})
    if (o->getObjectType() == fcl::OT_OCTREE &&
        !static_cast<const fcl::OcTreed*>(o->collisionGeometry().get())->getRoot())
      return false;  // an empty octree (MoveIt skips it too)
  const auto key = pairKey(d1, d2);
  const auto it = data.res->distances.find(key);
  double threshold = 0;
  if (!distanceThreshold(data, it, &threshold)) return data.done;
  fcl::DistanceRequestd freq(true);
  freq.enable_signed_distance = req.enable_signed_distance;
  fcl::DistanceResultd fres;
  fres.min_distance = threshold;
  double d = threshold;
  try {
    d = sov::distance(o1, o2, freq, fres);
  } catch (const std::exception& e) {
    ROS_ERROR_STREAM_NAMED(kLog, "distance not answered, pair skipped: " << e.what());
    return data.done;
  }
  if (!(d < threshold)) return data.done;
  cd::DistanceResultsData r;
  r.distance = d;
  r.link_names[0] = d1.getID();
  r.link_names[1] = d2.getID();
  r.body_types[0] = d1.type;
  r.body_types[1] = d2.type;
  r.nearest_points[0] = fres.nearest_points[0];
  r.nearest_points[1] = fres.nearest_points[1];
  // p2 - p1 = d n for exact pairs: n, from o1 to o2, whatever the sign of d.
  r.normal = (r.nearest_points[1] - r.nearest_points[0]).normalized() * (d < 0 ? -1.0 : 1.0);
  if (d <= 0 && req.enable_signed_distance &&
      (hasNoDepth(o1->collisionGeometry().get()) || hasNoDepth(o2->collisionGeometry().get())))
    contactDepth(o1, o2, r);
  if (!req.enable_nearest_points) r.normal.setZero();
  recordDistance(data, it, key, r);
  return data.done;
}

}  // namespace

bool collisionCallback(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2, void* data) {
  auto* cdata = static_cast<cd::CollisionData*>(data);
  if (cdata->done_) return true;
  if (!isSuperovoid(o1) && !isSuperovoid(o2)) return cd::collisionCallback(o1, o2, data);
  return superovoidCollision(o1, o2, *cdata);
}

bool distanceCallback(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2, void* data,
                      double& min_dist) {
  if (!isSuperovoid(o1) && !isSuperovoid(o2)) return cd::distanceCallback(o1, o2, data, min_dist);
  return superovoidDistance(o1, o2, *static_cast<cd::DistanceData*>(data));
}

}  // namespace detail
}  // namespace moveit
}  // namespace sov
