// The code path a MoveIt collision plugin would take (urdf/MOVEIT.md),
// mirrored without MoveIt: the URDF string goes through urdfdom; every link's
// collisions become shapes as MoveIt's RobotModel::constructLinkModel /
// constructShape make them (collision_array order, one shape per collision
// with geometry) and FCL geometry as collision_detection_fcl's
// createCollisionGeometry makes it (primitives; meshes as OBBRSS BVHModels);
// then the plugin step swaps the fallback box of every superovoid collision,
// keyed by link and shape index, for a sov::Superovoid. Distances go through
// the drop-in sov::distance and are checked against the scene and the core.
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/sphere.h>
#include <gtest/gtest.h>
#include <superovoid/fcl.h>
#include <superovoid/urdf/mesh.h>
#include <superovoid/urdf/model.h>
#include <superovoid/urdf/scene.h>
#include <tinyxml2.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#ifdef SOV_HAVE_GEOMETRIC_SHAPES
#include <geometric_shapes/bodies.h>
#include <geometric_shapes/mesh_operations.h>
#include <geometric_shapes/shape_operations.h>
#include <geometric_shapes/shapes.h>
#endif

#include "examples_test_util.h"

namespace {

using sov_test::examplePath;
using sov_test::ordered;
using sov_test::readText;

// Same distance through two routes that call the same solver on poses
// composed in a different order (rounding of the poses only).
constexpr double kComposedPoseDistance = 1e-9;
// FCL's GJK tolerance on the box pairs of plain MoveIt (FCL's default
// distance_tolerance, 1e-6).
constexpr double kGjk = 1e-6;

std::string twinPath() { return std::string(SOV_EXAMPLES_BUILD_DIR) + "/hand_mesh/hand_mesh.urdf"; }

// One collision body as MoveIt holds it: link, shape index among the link's
// shapes, the collision origin (urdfPose2Isometry3d), the FCL geometry.
struct Body {
  std::string link;
  std::size_t shape_index = 0;
  int urdf_type = urdf::Geometry::BOX;  // urdf::Geometry's (unnamed) enum
  Eigen::Isometry3d origin = Eigen::Isometry3d::Identity();
  std::shared_ptr<fcl::CollisionGeometry<double>> geometry;
  bool superovoid = false;
};

Eigen::Isometry3d isometry(const urdf::Pose& p) {
  return Eigen::Translation3d(p.position.x, p.position.y, p.position.z) *
         Eigen::Quaterniond(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z);
}

// FCL geometry of a urdfdom geometry, as MoveIt builds it (meshes loaded
// relative to mesh_dir; MoveIt resolves package:// and file:// URLs instead).
std::shared_ptr<fcl::CollisionGeometry<double>> fclGeometry(const urdf::Geometry& g,
                                                            const std::string& mesh_dir) {
  switch (g.type) {
    case urdf::Geometry::SPHERE:
      return std::make_shared<fcl::Sphere<double>>(static_cast<const urdf::Sphere&>(g).radius);
    case urdf::Geometry::BOX: {
      const urdf::Vector3& d = static_cast<const urdf::Box&>(g).dim;
      return std::make_shared<fcl::Box<double>>(d.x, d.y, d.z);
    }
    case urdf::Geometry::CYLINDER: {
      const auto& c = static_cast<const urdf::Cylinder&>(g);
      return std::make_shared<fcl::Cylinder<double>>(c.radius, c.length);
    }
    case urdf::Geometry::MESH: {
      const auto& m = static_cast<const urdf::Mesh&>(g);
      const sov::urdf::TriangleMesh mesh =
          sov::urdf::loadMesh(mesh_dir + "/" + m.filename, {m.scale.x, m.scale.y, m.scale.z});
      std::vector<fcl::Vector3<double>> points;
      std::vector<fcl::Triangle> triangles;
      for (const auto& v : mesh.vertices) points.emplace_back(v[0], v[1], v[2]);
      for (const auto& t : mesh.triangles) triangles.emplace_back(t[0], t[1], t[2]);
      auto model = std::make_shared<fcl::BVHModel<fcl::OBBRSS<double>>>();
      model->beginModel();
      model->addSubModel(points, triangles);
      model->endModel();
      return model;
    }
  }
  return nullptr;
}

// Every collision body of the URDF string, as MoveIt loads it; with a
// superovoid table, the plugin's swap is applied.
std::vector<Body> loadLikeMoveIt(const std::string& urdf_string, const std::string& mesh_dir,
                                 const sov::urdf::Model* table) {
  const urdf::ModelInterfaceSharedPtr model = urdf::parseURDF(urdf_string);
  EXPECT_TRUE(model);
  std::vector<Body> bodies;
  if (!model) return bodies;
  std::vector<urdf::LinkSharedPtr> links;
  model->getLinks(links);
  for (const urdf::LinkSharedPtr& link : links) {
    // MoveIt falls back to the single <collision> when the array is empty.
    const std::vector<urdf::CollisionSharedPtr> collisions =
        link->collision_array.empty() ? std::vector<urdf::CollisionSharedPtr>(1, link->collision)
                                      : link->collision_array;
    std::size_t shape_index = 0;
    for (const urdf::CollisionSharedPtr& c : collisions) {
      if (!c || !c->geometry) continue;
      Body b;
      b.link = link->name;
      b.shape_index = shape_index++;
      b.urdf_type = c->geometry->type;
      b.origin = isometry(c->origin);
      b.geometry = fclGeometry(*c->geometry, mesh_dir);
      const sov::urdf::Superovoid* s = table ? table->find(b.link, b.shape_index) : nullptr;
      if (s) {  // the plugin's swap
        b.geometry = std::make_shared<sov::Superovoid>(s->params);
        b.superovoid = true;
      }
      bodies.push_back(b);
    }
  }
  return bodies;
}

// The joint values of group_state name in hand.srdf, scaled by t.
sov::urdf::JointPositions state(const std::string& name, double t) {
  tinyxml2::XMLDocument doc;
  EXPECT_EQ(doc.LoadFile(examplePath("hand.srdf").c_str()), tinyxml2::XML_SUCCESS);
  sov::urdf::JointPositions q;
  for (const tinyxml2::XMLElement* s =
           doc.FirstChildElement("robot")->FirstChildElement("group_state");
       s; s = s->NextSiblingElement("group_state")) {
    if (name != s->Attribute("name")) continue;
    for (const tinyxml2::XMLElement* j = s->FirstChildElement("joint"); j;
         j = j->NextSiblingElement("joint"))
      q[j->Attribute("name")] = t * j->DoubleAttribute("value");
  }
  return q;
}

// Closest pair over bodies of links that may collide (the scene's default
// allowed pairs: the same link, or parent and child of a joint).
struct Closest {
  double d = std::numeric_limits<double>::infinity();
  std::map<std::pair<std::string, std::string>, double> pairs;  // per link pair
};

Closest minSelfDistance(const std::vector<Body>& bodies, const sov::urdf::LinkPoses& poses,
                        const sov::urdf::Scene& allowed) {
  std::vector<std::unique_ptr<fcl::CollisionObject<double>>> objects;
  for (const Body& b : bodies) {
    const Eigen::Isometry3d world = poses.at(b.link) * b.origin;  // getCollisionBodyTransform
    objects.push_back(std::make_unique<fcl::CollisionObject<double>>(b.geometry, world.linear(),
                                                                     world.translation()));
  }
  Closest best;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    for (std::size_t j = i + 1; j < bodies.size(); ++j) {
      if (bodies[i].link == bodies[j].link ||
          allowed.isCollisionAllowed(bodies[i].link, bodies[j].link))
        continue;
      fcl::DistanceRequest<double> request(true, true);
      fcl::DistanceResult<double> result;
      const double d = sov::distance(objects[i].get(), objects[j].get(), request, result);
      const auto it = best.pairs.emplace(ordered(bodies[i].link, bodies[j].link), d).first;
      it->second = std::min(it->second, d);
      best.d = std::min(best.d, d);
    }
  }
  return best;
}

// urdfdom hands MoveIt every collision of the hand, superovoids as their
// fallback boxes, in document order: the plugin's key (link, shape index) is
// the table's (link, collision index).
TEST(MoveItLoading, ShapesAreTheFallbacksInDocumentOrder) {
  const std::string xml = readText(examplePath("hand.urdf"));
  const sov::urdf::Model table = sov::urdf::parse(xml);
  const std::vector<Body> plain = loadLikeMoveIt(xml, "", nullptr);
  std::size_t collisions = 0;
  for (const auto& kv : table.urdf->links_) collisions += kv.second->collision_array.size();
  ASSERT_EQ(plain.size(), collisions);
  std::size_t swapped = 0;
  for (const Body& b : plain) {
    const sov::urdf::Superovoid* s = table.find(b.link, b.shape_index);
    if (!s) continue;
    ++swapped;
    EXPECT_EQ(b.urdf_type, urdf::Geometry::BOX) << b.link;
    // The collision origin MoveIt reads is the superovoid's frame.
    const Eigen::Isometry3d frame =
        Eigen::Translation3d(s->xyz[0], s->xyz[1], s->xyz[2]) *
        Eigen::Quaterniond(s->quat[0], s->quat[1], s->quat[2], s->quat[3]);
    EXPECT_TRUE(b.origin.isApprox(frame, 1e-15)) << b.link;
  }
  EXPECT_EQ(swapped, table.superovoids.size());
}

// After the swap, the minimum self distance over MoveIt's bodies equals the
// scene's, and each superovoid pair equals sov_distance on the table's shapes.
TEST(MoveItLoading, SwappedBodiesGiveTheSceneAndCoreDistances) {
  const std::string xml = readText(examplePath("hand.urdf"));
  const sov::urdf::Model table = sov::urdf::parse(xml);
  const std::vector<Body> bodies = loadLikeMoveIt(xml, "", &table);
  sov::urdf::Scene scene(table);
  for (const double t : {0.0, 0.5, 1.0}) {
    const sov::urdf::JointPositions q = state("grasp", t);
    scene.setJointPositions(q);
    const sov::urdf::LinkPoses poses = sov::urdf::forwardKinematics(*table.urdf, q);
    const Closest moveit = minSelfDistance(bodies, poses, scene);
    const sov::urdf::PairDistance ours = scene.minSelfDistance();
    EXPECT_NEAR(moveit.d, ours.distance, kComposedPoseDistance) << "t = " << t;
    // The scene's pair is at the minimum over MoveIt's bodies too (ties allowed).
    ASSERT_TRUE(moveit.pairs.count(ordered(ours.link1, ours.link2)));
    EXPECT_NEAR(moveit.pairs.at(ordered(ours.link1, ours.link2)), moveit.d, kComposedPoseDistance);

    // The nearest pair straight through the C API, poses from the table.
    const sov::urdf::Superovoid* a = table.find(ours.link1, ours.collision1);
    const sov::urdf::Superovoid* b = table.find(ours.link2, ours.collision2);
    ASSERT_TRUE(a && b);
    auto pose = [&](const sov::urdf::Superovoid& s) {
      const Eigen::Isometry3d w = poses.at(s.link) *
                                  Eigen::Translation3d(s.xyz[0], s.xyz[1], s.xyz[2]) *
                                  Eigen::Quaterniond(s.quat[0], s.quat[1], s.quat[2], s.quat[3]);
      const Eigen::Quaterniond r(w.linear());
      const double quat[4] = {r.w(), r.x(), r.y(), r.z()};
      const double p[3] = {w.translation().x(), w.translation().y(), w.translation().z()};
      sov_pose out;
      EXPECT_EQ(sov_pose_from_quat(&out, quat, p), SOV_OK);
      return out;
    };
    const sov_pose xa = pose(*a), xb = pose(*b);
    sov_result r;
    ASSERT_EQ(sov_distance(&r, &a->shape, &xa, &b->shape, &xb, nullptr, nullptr), SOV_OK);
    EXPECT_NEAR(r.d, ours.distance, kComposedPoseDistance) << "t = " << t;
  }
}

// Plain MoveIt (no plugin) sees the enclosing fallback boxes: its distances
// never exceed the superovoids'.
TEST(MoveItLoading, FallbackBoxesAreConservative) {
  const std::string xml = readText(examplePath("hand.urdf"));
  const sov::urdf::Model table = sov::urdf::parse(xml);
  const std::vector<Body> plain = loadLikeMoveIt(xml, "", nullptr);
  const std::vector<Body> swapped = loadLikeMoveIt(xml, "", &table);
  sov::urdf::Scene scene(table);
  for (const double t : {0.0, 0.5, 1.0}) {
    const sov::urdf::LinkPoses poses = sov::urdf::forwardKinematics(*table.urdf, state("grasp", t));
    EXPECT_LE(minSelfDistance(plain, poses, scene).d,
              minSelfDistance(swapped, poses, scene).d + kGjk)
        << "t = " << t;
  }
}

// The mesh twin loads as MoveIt meshes; its inscribed meshes are never
// nearer to each other than the superovoids they tessellate.
TEST(MoveItLoading, MeshTwinLoadsAsMeshes) {
  const std::string twin = readText(twinPath());
  ASSERT_FALSE(twin.empty()) << twinPath() << " is missing (target sov_hand_mesh)";
  const std::vector<Body> meshes =
      loadLikeMoveIt(twin, std::string(SOV_EXAMPLES_BUILD_DIR) + "/hand_mesh", nullptr);
  const std::string xml = readText(examplePath("hand.urdf"));
  const sov::urdf::Model table = sov::urdf::parse(xml);
  const std::vector<Body> swapped = loadLikeMoveIt(xml, "", &table);
  ASSERT_EQ(meshes.size(), swapped.size());
  std::size_t mesh_count = 0;
  for (const Body& b : meshes) {
    if (b.urdf_type != urdf::Geometry::MESH) continue;
    ++mesh_count;
    EXPECT_TRUE(table.find(b.link, b.shape_index)) << b.link;
  }
  EXPECT_EQ(mesh_count, table.superovoids.size());
  sov::urdf::Scene scene(table);
  const sov::urdf::LinkPoses poses = sov::urdf::forwardKinematics(*table.urdf, state("grasp", 0));
  const Closest d_mesh = minSelfDistance(meshes, poses, scene);
  const Closest d_sov = minSelfDistance(swapped, poses, scene);
  ASSERT_GT(d_sov.d, 0);
  EXPECT_GE(d_mesh.d, d_sov.d - kGjk);
}

#ifdef SOV_HAVE_GEOMETRIC_SHAPES
// geometric_shapes (MoveIt's shape layer; Debian's ROS 1 build): the
// fallback boxes become shapes::Box bodies that contain their superovoids,
// and the mesh twin's files load through createMeshFromResource with the
// tessellation's triangles, vertices on the surfaces.
TEST(MoveItLoading, GeometricShapesReadsFallbacksAndTwinMeshes) {
  const std::string xml = readText(examplePath("hand.urdf"));
  const sov::urdf::Model table = sov::urdf::parse(xml);
  for (const sov::urdf::Superovoid& s : table.superovoids) {
    const auto& box = static_cast<const urdf::Box&>(
        *table.urdf->getLink(s.link)->collision_array[s.index]->geometry);
    const shapes::Box shape(box.dim.x, box.dim.y, box.dim.z);  // constructShape's BOX case
    const Eigen::Vector3d extents = shapes::computeShapeExtents(&shape);
    EXPECT_EQ(extents, Eigen::Vector3d(box.dim.x, box.dim.y, box.dim.z));
    bodies::Box body(&shape);
    for (int i = 0; i < 12; ++i) {
      for (int j = 0; j <= 6; ++j) {
        double x[3];
        ASSERT_EQ(sov_shape_point(x, nullptr, nullptr, nullptr, &s.shape, -M_PI + i * M_PI / 6,
                                  -M_PI / 2 + j * M_PI / 6),
                  SOV_OK);
        EXPECT_TRUE(body.containsPoint(Eigen::Vector3d(x[0], x[1], x[2]))) << s.link;
      }
    }
  }
  const std::string dir = std::string(SOV_EXAMPLES_BUILD_DIR) + "/hand_mesh/";
  std::size_t nv = 0, nt = 0;
  ASSERT_EQ(sov_shape_tessellation_size(&nv, &nt, SOV_EXAMPLES_MESH_LAT, SOV_EXAMPLES_MESH_LON),
            SOV_OK);
  const urdf::ModelInterfaceSharedPtr twin = urdf::parseURDF(readText(twinPath()));
  ASSERT_TRUE(twin);
  for (const sov::urdf::Superovoid& s : table.superovoids) {
    const auto& m =
        static_cast<const urdf::Mesh&>(*twin->getLink(s.link)->collision_array[s.index]->geometry);
    std::unique_ptr<shapes::Mesh> mesh(
        shapes::createMeshFromResource("file://" + dir + m.filename));
    ASSERT_TRUE(mesh) << m.filename;
    EXPECT_EQ(mesh->triangle_count, nt) << m.filename;
    for (unsigned int i = 0; i < mesh->vertex_count; ++i) {
      double F = 0;
      ASSERT_EQ(sov_shape_implicit(&F, nullptr, nullptr, &s.shape, mesh->vertices + 3 * i), SOV_OK);
      EXPECT_NEAR(F, 0.0, 1e-5) << m.filename;  // STL stores float32
    }
  }
}
#endif

}  // namespace
