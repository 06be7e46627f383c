// A robot collision scene: forward kinematics of a parsed URDF model and an
// FCL broadphase world of every link's collision geometry (superovoids from
// sov::urdf::Model's table, boxes, spheres, cylinders and meshes (assimp) from
// urdfdom), with self-collision, minimum self-distance, every pair within a
// margin (contacts), an SRDF's disabled collisions, and queries against
// environment objects (FCL objects, OctoMap octrees among them). Library
// superovoid::scene (needs superovoid::urdf and superovoid::fcl). C API:
// superovoid/scene.h.
//
//   sov::urdf::Scene scene(sov::urdf::parseFile("hand.urdf"));
//   scene.loadSrdf("hand.srdf");
//   scene.setJointPositions({{"index_mcp", 0.3}});
//   sov::urdf::PairDistance d = scene.minSelfDistance();
//   // d.link1, d.link2, d.distance (signed), d.p1, d.p2 (root frame)
//   std::vector<sov::urdf::Contact> c = scene.contacts(0.01);  // within 1 cm
#ifndef SUPEROVOID_URDF_SCENE_H
#define SUPEROVOID_URDF_SCENE_H

#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/narrowphase/collision_object.h>
#include <superovoid/superovoid.h>

#include <Eigen/Geometry>
#include <cstddef>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "superovoid/scene.h"
#include "superovoid/urdf/model.h"
#include "superovoid/urdf/scene_export.h"

namespace sov {
namespace urdf {

// A rejected scene input: an unknown or unsupported joint, a position outside
// a joint's limits, an unknown link, a geometry that cannot be built (mesh
// file). A sov::urdf::Error (superovoid/error.h has the hierarchy): status()
// is SOV_SCENE_ERR_JOINT, SOV_SCENE_ERR_LINK or SOV_SCENE_ERR_GEOMETRY
// (superovoid/scene.h); name() is the joint or link at fault; where() the
// document and line that define it, when known (what() then begins with
// "<file>:<line>: ").
class SOV_SCENE_API SceneError : public Error {
 public:
  SceneError(int status, const std::string& name, const std::string& message);
  SceneError(int status, const std::string& name, const Location& where,
             const std::string& message);
  // The joint or link at fault.
  const std::string& name() const noexcept { return name_; }

 private:
  std::string name_;
};

// Joint positions by joint name (radians for revolute and continuous joints,
// length units for prismatic ones).
using JointPositions = std::map<std::string, double>;
// Link poses in the model's root link frame, by link name.
using LinkPoses = std::map<std::string, Eigen::Isometry3d>;

// Forward kinematics: the pose of every link in the root link's frame.
// Joints absent from q are at 0, or at the nearest limit when 0 is outside
// the limits of a revolute or prismatic joint (as a Scene starts). Fixed,
// revolute, continuous and prismatic joints are supported; pose of the child
// = pose of the parent * joint origin * motion (rotation by q about the unit
// joint axis, or translation by q along it). A mimic joint is at multiplier *
// q(master) + offset (chains of mimic joints are followed) and takes no
// position of its own. Throws SceneError for a name in q that is not a
// movable joint of the model or is a mimic joint, a position (given or
// derived) that is not finite or lies outside the limits of a revolute or
// prismatic joint (a mimic joint's message names its master too), a mimic
// joint following an unknown or fixed joint, a cycle of mimic joints, a
// floating or planar joint, or a zero axis.
SOV_SCENE_API LinkPoses forwardKinematics(const ::urdf::ModelInterface& model,
                                          const JointPositions& q);

// Result of a distance query between two collision geometries.
struct PairDistance {
  std::string link1;           // link of the first geometry
  std::size_t collision1 = 0;  // its <collision> index in the link
  std::string link2;           // link of the second geometry ("" for an
                               // environment object)
  std::size_t collision2 = 0;  // its <collision> index, or the index of the
                               // environment object in the list
  double distance = 0;         // signed: < 0 overlap (see Scene::minSelfDistance);
                               // +infinity when no pair was checked
  Eigen::Vector3d p1 = Eigen::Vector3d::Zero();  // witness point on the first,
  Eigen::Vector3d p2 = Eigen::Vector3d::Zero();  // and on the second (root frame)
};

// A pair of collision geometries within a margin (Scene::contacts), with
// the same conventions as PairDistance.
struct Contact {
  std::string link1;           // link of the first geometry
  std::size_t collision1 = 0;  // its <collision> index in the link
  std::string link2;           // link of the second ("" for an environment object)
  std::size_t collision2 = 0;  // its <collision> index, or the object's index in env
  double distance = 0;         // signed as PairDistance's (mesh pairs: 0 when touching)
  Eigen::Vector3d p1 = Eigen::Vector3d::Zero();  // witness point on the first,
  Eigen::Vector3d p2 = Eigen::Vector3d::Zero();  // and on the second (root frame)
  // Unit normal from the first geometry towards the second: the core's for
  // superovoid pairs, (p2 - p1) / distance for the others, FCL's contact
  // normal when the distance is 0 (a mesh pair whose surfaces touch or cross).
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();
};

// What Scene::loadSrdf changed.
struct SrdfReport {
  std::size_t disabled = 0;  // <disable_collisions> pairs, and the pairs of each
                             // <disable_default_collisions> link, now allowed
  std::size_t enabled = 0;   // <enable_collisions> pairs now checked
  // Entries naming a link the model does not have, skipped as srdfdom and
  // MoveIt skip them: "<srdf>:<line>: link '<name>'" each.
  std::vector<std::string> skipped;
};

// Options of Scene::motionCollides.
struct MotionOptions {
  // A pair is in contact once its distance is at most this (length units),
  // or at most its rounding floor (sov::Separation::touching), so that 0
  // asks for contact itself: conservative advancement never steps past a
  // contact, and without the floor its steps shrank towards it until none
  // was proved.
  double distance_tolerance = 1e-6;
  // distance_tolerance of the FCL requests for GJK pairs in the steps
  // (sov::separation runs GJK again at 1e-10 where the support gap along
  // its direction is not positive).
  double gjk_tolerance = 1e-6;
  // Distance queries at most for one check; beyond, sov::Error
  // (SOV_ERR_NO_CONVERGENCE, the message says how far the segment is proved
  // free).
  std::size_t max_steps = 1000000;
};

// Answer of Scene::motionCollides for the joint-space segment
// q(t) = q0 + t (q1 - q0), t in [0, 1].
struct MotionCheck {
  // A checked pair comes within MotionOptions::distance_tolerance.
  bool collides = false;
  // The time of first contact (1 when free): never after the first time a
  // checked pair touches, and every checked pair is apart on [0, t).
  double t = 1.0;
  // The pair in contact at t, with its distance and witness points at
  // q(t) (PairDistance's conventions: link2 "" and collision2 the object's
  // index for an environment object); distance +infinity when free.
  PairDistance pair;
  std::size_t steps = 0;  // distance queries made
  std::size_t pairs = 0;  // geometry pairs checked
  // Every step's lower bound was proved (exact support functions or the
  // core); false when a mesh or octree pair stepped on FCL's GJK distance
  // (sov::Separation).
  bool certified = true;
};

// Scene options.
struct SceneOptions {
  // Superovoid-superovoid self pairs start from the previous answer of the
  // same pair (a sov_cache per pair, owned by the scene).
  bool warm_start = true;
  // distance_tolerance of the FCL requests for GJK pairs (superovoid vs box
  // or cylinder, see fcl_ext/README.md). FCL's default, 1e-6, leaves a
  // curved body's distance up to 3e-4 long (0.4 mm measured between a
  // fitted Panda and primitives); 1e-9 costs a quarter more time there.
  double gjk_tolerance = 1e-9;
  // Folder against which relative mesh file names (and relative file://
  // URIs) are resolved; "" is the current directory. Scene(urdf_path) uses
  // the URDF file's folder when this is "".
  std::string mesh_directory;
  // Folder of each package, by name, for package://name/path mesh URIs.
  std::map<std::string, std::string> package_paths;
};

// The collision scene of one robot. Not copyable (the FCL objects point into
// it); not safe to query from two threads at once (queries update the
// warm-start caches and the self queries' scratch), warm starts or not.
class SOV_SCENE_API Scene {
 public:
  // Builds the world from model: every <collision> of every link, at joint
  // positions 0 (or the nearest limit, as in forwardKinematics). Adjacent
  // links (parent and child of a joint) are allowed to collide (not
  // checked). <mesh> collisions are read with loadMesh (assimp; the URDF
  // scale applied) into OBBRSS trees, one per (file, scale); the filename is
  // a path (relative ones against options.mesh_directory), a file:// URI or
  // a package://name/path URI (name looked up in options.package_paths).
  // Throws SceneError (SOV_SCENE_ERR_GEOMETRY naming the link, collision and
  // file or URI) when a mesh cannot be loaded, and as forwardKinematics does.
  explicit Scene(const Model& model, const SceneOptions& options = SceneOptions());
  // Parses the URDF file at urdf_path and builds its scene; relative mesh
  // file names resolve against the file's folder unless
  // options.mesh_directory is set. Throws sov::urdf::Error for a rejected
  // document and SceneError as above.
  explicit Scene(const std::string& urdf_path, const SceneOptions& options = SceneOptions());
  ~Scene();
  Scene(const Scene&) = delete;
  Scene& operator=(const Scene&) = delete;

  // Sets the given joints (the others keep their positions), recomputes the
  // link poses and updates the broadphase manager. Throws as
  // forwardKinematics; on error the scene is unchanged.
  void setJointPositions(const JointPositions& q);
  // Current joint positions (every movable joint but the mimic joints).
  const JointPositions& jointPositions() const noexcept { return q_; }
  // Current pose of a link in the root frame; throws SceneError if unknown.
  const Eigen::Isometry3d& linkPose(const std::string& link) const;
  // Names of the links, in the model's order (urdfdom's map: by name).
  std::vector<std::string> linkNames() const;

  // Allowed-collision matrix: an allowed pair is never checked. Unknown link
  // names throw SceneError.
  void allowCollision(const std::string& link1, const std::string& link2);
  void disallowCollision(const std::string& link1, const std::string& link2);
  bool isCollisionAllowed(const std::string& link1, const std::string& link2) const;

  // Applies the collision entries of an SRDF (MoveIt's semantic robot
  // description; read with tinyxml2, as srdfdom is not in Debian):
  // <disable_default_collisions link> allows the link with every other, then
  // <disable_collisions link1 link2> allows the pair, then
  // <enable_collisions link1 link2> checks it again (MoveIt's order: the
  // specific entries override the defaults, enabling last). Groups, states
  // and the rest are ignored. Entries naming links the model does not have
  // are skipped and listed in the report. Throws sov::urdf::Error naming the
  // SRDF and line: SOV_URDF_ERR_IO (unreadable), SOV_URDF_ERR_XML (not
  // well-formed), SOV_SCENE_ERR_SRDF (no <robot>, a missing link attribute);
  // on error the scene is unchanged.
  SrdfReport loadSrdf(const std::string& srdf_path);
  // loadSrdf for SRDF text, named source in messages.
  SrdfReport loadSrdfString(const std::string& xml, const std::string& source = "<string>");

  // True when two geometries of links that may not collide touch (signed
  // distance <= 0). If pairs is given, every such link pair (each once, link
  // names ordered) is stored in it.
  bool selfCollision(std::set<std::pair<std::string, std::string>>* pairs = nullptr);
  // The smallest signed distance over the geometry pairs of links that may
  // not collide, with its pair and witness points. Overlaps are exact
  // (-depth) for superovoid, sphere pairs; EPA's for GJK pairs; FCL's for
  // primitive pairs. A pair with a mesh (or an octree) has no depth: its
  // distance is the unsigned one, 0 when they touch or cross, with one
  // point of contact as both witnesses (FCL has no penetration depth for
  // meshes, and asking it for one can abort the process). A mesh is its
  // surface, as in FCL: a body wholly inside a closed mesh is apart from it.
  // distance is +infinity if every pair is allowed.
  PairDistance minSelfDistance();

  // True when any link geometry touches an environment object; pairs gets
  // (link, index of the object in env). An object may hold an
  // fcl::OcTree<double>: its occupied leaves are boxes (fcl_ext/README.md).
  bool collides(const std::vector<fcl::CollisionObject<double>*>& env,
                std::set<std::pair<std::string, std::size_t>>* pairs = nullptr);
  // Smallest signed distance between a link geometry and an environment
  // object (link2 is "", collision2 the object's index in env).
  PairDistance distance(const std::vector<fcl::CollisionObject<double>*>& env);

  // Every geometry pair of links that may collide whose distance is at most
  // margin (0: the touching and overlapping ones), with its distance, witness
  // points and normal, nearest first (then by link names and collision
  // indices). What MoveIt's contact and distance results and contact-aware
  // planners consume. Throws sov::Error (SOV_ERR_NONFINITE) for a NaN margin.
  std::vector<Contact> contacts(double margin);
  // Every (link geometry, environment object) pair within margin (link2 "",
  // collision2 the object's index in env), as above.
  std::vector<Contact> contacts(const std::vector<fcl::CollisionObject<double>*>& env,
                                double margin);

  // Whether the straight joint-space segment from q0 to q1 is free, with a
  // certificate: conservative advancement (Mirtich 2000) over every
  // geometry pair of links that may collide (the allowed-collision matrix
  // and the SRDF applied), and against env (static objects) when given.
  // Joints absent from q0 or q1 keep their current positions; mimic joints
  // follow their masters (linearly along the segment); continuous joints
  // are interpolated in value, without wrapping. Each pair advances on its
  // own: at time t its distance d and normal n (sov::separation, superovoid
  // pairs warm-started from the scene's caches) and a lower bound g on d;
  // no point of a link moves faster, per unit of t, than the sum over the
  // joints between the pair's links (those the two links' chains do not
  // share) of |q1_j - q0_j| times the distance from joint j's axis to the
  // farthest point of the link's geometry (bounded through the chain's
  // joint offsets, prismatic extensions and the geometry's bounding
  // radius), plus |q1_j - q0_j| for a prismatic joint; so the pair cannot
  // touch before t + g / (the pair's two bounds). The pair with the
  // earliest unproved time is advanced first, so the first contact found
  // is the first along the segment. Throws SceneError as setJointPositions
  // for bad positions at either end, sov::Error (SOV_ERR_OPTION) for options
  // out of range (distance_tolerance NaN, infinite or negative,
  // gjk_tolerance NaN, infinite or not positive, max_steps 0), sov::Error
  // (SOV_ERR_NO_CONVERGENCE) after
  // options.max_steps queries, and as sov::distance. The joint
  // positions and objects of the scene are left as they were (the
  // warm-start caches are updated).
  MotionCheck motionCollides(const JointPositions& q0, const JointPositions& q1,
                             const MotionOptions& options = MotionOptions());
  MotionCheck motionCollides(const JointPositions& q0, const JointPositions& q1,
                             const std::vector<fcl::CollisionObject<double>*>& env,
                             const MotionOptions& options = MotionOptions());

  // One collision geometry of the world: its link, <collision> index, FCL
  // object (world pose = link pose * collision origin) and whether it is a
  // superovoid.
  struct GeometryRef {
    std::string link;
    std::size_t collision = 0;
    const fcl::CollisionObject<double>* object = nullptr;
    bool superovoid = false;
  };
  // Every collision geometry, links in name order, collisions in document order.
  std::vector<GeometryRef> geometries() const;

  // The broadphase manager of the link geometries (for FCL users; do not
  // register or unregister objects).
  fcl::DynamicAABBTreeCollisionManager<double>& manager() noexcept { return manager_; }
  // Number of warm-start caches the scene holds: superovoid pairs met so far,
  // self pairs and (link geometry, environment object) pairs. Environment
  // objects are told apart by address; a cache left by an object that was
  // destroyed only seeds the next query of a new object at that address (every
  // answer is checked as a cold one is), so it costs time, never accuracy.
  std::size_t cacheCount() const noexcept { return caches_.size() + env_caches_.size(); }
  // Forget every warm-start cache.
  void resetCaches() noexcept {
    caches_.clear();
    env_caches_.clear();
  }

  // One collision geometry (public for the query callbacks).
  struct Geometry;

 private:
  // Moves the objects to the link poses.
  void updatePoses(const LinkPoses& poses);
  // Every movable joint's position (mimic joints derived) with q applied
  // over the current ones; throws as setJointPositions.
  std::map<std::string, double> resolvedPositions(const JointPositions& q) const;
  // True when the links (indices) may collide without being checked.
  bool allowedIndex(std::size_t link1, std::size_t link2) const;
  void setAllowed(std::size_t link1, std::size_t link2, bool allowed);
  // The index of a link; throws SceneError if unknown.
  std::size_t linkIndex(const std::string& link) const;
  // e placed in the scene's document at line (or, without one, at the line
  // of the joint or link it names), unless it has a place already.
  SceneError located(const SceneError& e, int line) const;
  SceneError located(const SceneError& e) const;

  ::urdf::ModelInterfaceSharedPtr model_;
  std::string source_;  // the document's source name and element lines (Model)
  std::map<std::string, int> link_lines_, joint_lines_;
  SceneOptions options_;
  JointPositions q_;
  std::vector<std::string> links_;
  std::map<std::string, std::size_t> link_index_;
  std::vector<Eigen::Isometry3d> link_poses_;
  std::vector<std::unique_ptr<Geometry>> geometries_;
  // Link l's geometries are geometries_[link_first_[l]] up to
  // geometries_[link_first_[l + 1]] (excluded).
  std::vector<std::size_t> link_first_;
  // allowed_[i * links_.size() + j], both orders: a dense table, because
  // the self queries ask for every link pair they meet (and contacts' for
  // every pair whose boxes overlap).
  std::vector<bool> allowed_;
  // Scratch of the self queries (each link's merged box, the links with
  // geometry, link pairs, and link or body pairs ranked by box distance),
  // kept so that a query allocates nothing once an earlier one sized it.
  std::vector<fcl::AABB<double>> link_boxes_;
  std::vector<std::size_t> query_links_;
  std::vector<std::pair<std::size_t, std::size_t>> apart_links_;
  std::vector<std::pair<double, std::pair<std::size_t, std::size_t>>> ranked_links_, ranked_bodies_;
  std::map<std::pair<std::size_t, std::size_t>, sov_cache> caches_;
  std::map<std::pair<std::size_t, const void*>, sov_cache> env_caches_;
  fcl::DynamicAABBTreeCollisionManager<double> manager_;

  friend struct SceneAccess;
};

}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_SCENE_H
