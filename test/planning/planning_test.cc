// Tests of the planning example (planning/): its Panda data, the point speed
// bound, the re-check of paths on the meshes, and OMPL planning on the fitted
// Panda with every path re-checked on the meshes.
#include <gtest/gtest.h>
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/shape/box.h>
#include <octomap/OcTree.h>
#include <ompl/base/ScopedState.h>
#include <ompl/util/Console.h>
#include <ompl/util/RandomNumbers.h>
#include <superovoid/planning/arm.h>
#include <superovoid/planning/ompl_planning.h>
#include <superovoid/planning/queries.h>
#include <superovoid/planning/recheck.h>
#include <superovoid/planning/world.h>
#include <superovoid/urdf/mesh.h>
#include <urdf_model/model.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

namespace sp = sov::planning;

const std::string kDir = SOV_PLANNING_PANDA_DIR;
// The Panda's "ready" configuration (MoveIt's panda_moveit_config).
const sp::Config kReady = {0, -0.785, 0, -2.356, 0, 1.571, 0.785};

// Every vertex of every mesh of panda.urdf lies in the superovoid that
// panda_fit.urdf gives the same link (F <= 0 in its frame): the committed
// fit still contains the committed meshes.
TEST(PlanningPanda, FittedLinksContainTheirMeshes) {
  const auto meshes = sov::urdf::parseFile(kDir + "/panda.urdf");
  const auto fitted = sov::urdf::parseFile(kDir + "/panda_fit.urdf");
  std::size_t links = 0;
  for (const auto& s : fitted.superovoids) {
    const auto link = meshes.urdf->getLink(s.link);
    ASSERT_TRUE(link && link->collision) << s.link;
    const auto* mesh = dynamic_cast<const ::urdf::Mesh*>(link->collision->geometry.get());
    ASSERT_NE(mesh, nullptr) << s.link;
    const auto m = sov::urdf::loadMesh(kDir + "/" + mesh->filename);
    sov_shape shape;
    sov_pose pose;
    ASSERT_EQ(sov_shape_init(&shape, s.params.data()), 0);
    ASSERT_EQ(sov_pose_from_quat(&pose, s.quat.data(), s.xyz.data()), 0);
    const Eigen::Quaterniond q(s.quat[0], s.quat[1], s.quat[2], s.quat[3]);
    const Eigen::Vector3d p(s.xyz[0], s.xyz[1], s.xyz[2]);
    double worst = -1;
    for (const auto& v : m.vertices) {
      const Eigen::Vector3d local = q.conjugate() * (Eigen::Vector3d(v[0], v[1], v[2]) - p);
      double F = 0;
      ASSERT_EQ(sov_shape_implicit(&F, nullptr, nullptr, &shape, local.data()), 0);
      worst = std::max(worst, F);
    }
    EXPECT_LE(worst, 0.0) << s.link;
    ++links;
  }
  EXPECT_EQ(links, 9u);  // link0 .. link7 and the hand; the fingers stay boxes
}

// The committed meshes are the shared Panda's collision meshes, byte for
// byte (runs when ../shared/data exists beside the repository).
TEST(PlanningPanda, MeshesAreTheSharedPandasCollisionMeshes) {
  const std::string shared = std::string(SOV_SHARED_DATA_DIR) + "/robots/panda/meshes/collision";
  if (!std::ifstream(shared + "/link0.stl"))
    GTEST_SKIP() << shared << " not found: the committed meshes are not compared";
  const auto bytes = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  for (const char* name : {"link0", "link1", "link2", "link3", "link4", "link5", "link6",
                           "link7", "hand"}) {
    const std::string mine = bytes(kDir + "/meshes/" + name + ".stl");
    EXPECT_FALSE(mine.empty()) << name;
    EXPECT_EQ(mine, bytes(shared + "/" + name + ".stl")) << name;
  }
}

// The SRDF names only links of the model, and the pairs a planner must
// never skip are checked: the hand against the upper arm and the base.
TEST(PlanningPanda, SrdfNamesModelLinksAndLeavesDistantPairsChecked) {
  const auto model = sov::urdf::parseFile(kDir + "/panda.urdf");
  sov::urdf::SceneOptions so;
  so.mesh_directory = kDir;
  sov::urdf::Scene scene(model, so);
  const auto report = scene.loadSrdf(kDir + "/panda.srdf");
  EXPECT_TRUE(report.skipped.empty());
  EXPECT_GT(report.disabled, 0u);
  EXPECT_TRUE(scene.isCollisionAllowed("fer_link7", "fer_hand"));  // adjacent past fer_link8
  EXPECT_FALSE(scene.isCollisionAllowed("fer_hand", "fer_link2"));
  EXPECT_FALSE(scene.isCollisionAllowed("fer_hand", "fer_link0"));
}

// The vertices of the mesh model move, over a short piece of random
// segments, no farther than the point speed bound allows.
TEST(PlanningArm, PointSpeedBoundHoldsForEveryVertex) {
  const auto model = sov::urdf::parseFile(kDir + "/panda.urdf");
  auto scene = sp::pandaScene(model, kDir);
  const sp::Arm arm = sp::pandaArm(model);
  const auto reach = sp::reachBounds(model, *scene, arm);
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  const double dt = 1e-3;
  for (int trial = 0; trial < 50; ++trial) {
    sp::Config a(7), b(7), a2(7);
    for (int j = 0; j < 7; ++j) {
      a[j] = arm.lower[j] + u(rng) * (arm.upper[j] - arm.lower[j]);
      b[j] = arm.lower[j] + u(rng) * (arm.upper[j] - arm.lower[j]);
      a2[j] = a[j] + dt * (b[j] - a[j]);
    }
    const double bound = sp::pointSpeedBound(arm, reach, a, b) * dt;
    std::vector<Eigen::Vector3d> before;
    scene->setJointPositions(arm.positions(a));
    for (const auto& g : scene->geometries())
      before.push_back(g.object->getTransform() * g.object->collisionGeometry()->aabb_center);
    scene->setJointPositions(arm.positions(a2));
    std::size_t i = 0;
    for (const auto& g : scene->geometries()) {
      const auto* mesh =
          dynamic_cast<const fcl::BVHModel<fcl::OBBRSS<double>>*>(g.object->collisionGeometry().get());
      const Eigen::Vector3d after =
          g.object->getTransform() * g.object->collisionGeometry()->aabb_center;
      EXPECT_LE((after - before[i++]).norm(), bound) << g.link;
      if (!mesh) continue;
      // Every vertex: moved by the difference of the two transforms.
      scene->setJointPositions(arm.positions(a));
      const auto t0 = g.object->getTransform();
      scene->setJointPositions(arm.positions(a2));
      const auto t1 = g.object->getTransform();
      for (int v = 0; v < mesh->num_vertices; ++v)
        ASSERT_LE((t1 * mesh->vertices[v] - t0 * mesh->vertices[v]).norm(), bound) << g.link;
    }
  }
}

// A 4 mm plate across the sweep of the arm: both ends are free, the segment
// is not, and the re-check finds it; without the plate the same segment is
// free and partly proved by clearance.
TEST(PlanningRecheck, FindsAThinPlateBetweenFreeEnds) {
  const auto model = sov::urdf::parseFile(kDir + "/panda.urdf");
  auto scene = sp::pandaScene(model, kDir);
  const sp::Arm arm = sp::pandaArm(model);
  const auto reach = sp::reachBounds(model, *scene, arm);
  fcl::Transform3<double> at = fcl::Transform3<double>::Identity();
  at.translation() = Eigen::Vector3d(0.4, 0.0, 0.55);
  fcl::CollisionObject<double> plate(std::make_shared<fcl::Box<double>>(0.25, 0.004, 0.3), at);
  plate.computeAABB();
  const std::vector<fcl::CollisionObject<double>*> env = {&plate};
  sp::Config a = kReady, b = kReady;
  a[0] = -0.6;
  b[0] = 0.6;
  ASSERT_TRUE(sp::isFree(*scene, env, arm, a));
  ASSERT_TRUE(sp::isFree(*scene, env, arm, b));
  const sp::Recheck hit = sp::recheckPath(*scene, env, {}, arm, reach, {a, b});
  EXPECT_TRUE(hit.collides);
  EXPECT_EQ(hit.link2, "env:0");
  EXPECT_GT(hit.t, 0.0);
  EXPECT_LT(hit.t, 1.0);
  const sp::Recheck free = sp::recheckPath(*scene, {}, {}, arm, reach, {a, b});
  EXPECT_FALSE(free.collides);
  EXPECT_GT(free.min_clearance, 0.0);
  EXPECT_GT(free.proved_fraction, 0.0);
}

// The same plate between the same free ends, on the fitted Panda: OMPL's
// discrete validator at a resolution of half the extent (6.5 rad) checks
// the end only and passes the segment; the certified one (Scene::motionCollides) stops it
// at a first contact inside, and passes it without the plate.
TEST(PlanningMotion, CertifiedValidatorStopsAtAPlateTheDiscreteOneStepsOver) {
  const auto model = sov::urdf::parseFile(kDir + "/panda_fit.urdf");
  auto scene = sp::pandaScene(model, kDir);
  const sp::Arm arm = sp::pandaArm(model);
  fcl::Transform3<double> at = fcl::Transform3<double>::Identity();
  at.translation() = Eigen::Vector3d(0.4, 0.0, 0.55);
  fcl::CollisionObject<double> plate(std::make_shared<fcl::Box<double>>(0.25, 0.004, 0.3), at);
  plate.computeAABB();
  const std::vector<fcl::CollisionObject<double>*> env = {&plate};
  sp::Config a = kReady, b = kReady;
  a[0] = -0.6;
  b[0] = 0.6;
  ASSERT_TRUE(sp::isFree(*scene, env, arm, a));
  ASSERT_TRUE(sp::isFree(*scene, env, arm, b));

  sp::CheckCounts coarse_counts, certified_counts, free_counts;
  const auto coarse = sp::spaceOf(*scene, env, arm, sp::MotionValidation::kDiscrete, 0.5,
                                  &coarse_counts);
  const auto certified = sp::spaceOf(*scene, env, arm, sp::MotionValidation::kCertified, 0.01,
                                     &certified_counts);
  ompl::base::ScopedState<> s1(certified), s2(certified), last(certified);
  sp::setState(s1.get(), a);
  sp::setState(s2.get(), b);
  EXPECT_TRUE(coarse->checkMotion(s1.get(), s2.get()));
  EXPECT_EQ(certified_counts.motions, 0u);
  EXPECT_FALSE(certified->checkMotion(s1.get(), s2.get()));
  std::pair<ompl::base::State*, double> first_contact(last.get(), -1.0);
  EXPECT_FALSE(certified->getMotionValidator()->checkMotion(s1.get(), s2.get(), first_contact));
  EXPECT_GT(first_contact.second, 0.0);
  EXPECT_LT(first_contact.second, 1.0);
  EXPECT_EQ(certified_counts.motions, 2u);
  EXPECT_GT(certified_counts.motion_steps, 0u);
  EXPECT_EQ(certified_counts.motion_failures, 0u);

  const auto free = sp::spaceOf(*scene, {}, arm, sp::MotionValidation::kCertified, 0.01,
                                &free_counts);
  EXPECT_TRUE(free->checkMotion(s1.get(), s2.get()));
  EXPECT_EQ(free_counts.motions, 1u);
}

// States the scene does not take (a joint one ulp past its URDF limit, which
// OMPL's satisfiesBounds lets through, or NaN, which it passes) are invalid,
// and so is every motion to them (from them too, for the certified
// validator; OMPL's discrete one takes a motion's start as valid): nothing
// throws out of the checks or out of plan().
TEST(PlanningLimits, StatesPastTheLimitsAreInvalidNotErrors) {
  const auto model = sov::urdf::parseFile(kDir + "/panda_fit.urdf");
  auto scene = sp::pandaScene(model, kDir);
  const sp::Arm arm = sp::pandaArm(model);
  sp::CheckCounts counts;
  const auto discrete =
      sp::spaceOf(*scene, {}, arm, sp::MotionValidation::kDiscrete, 0.05, &counts);
  const auto certified =
      sp::spaceOf(*scene, {}, arm, sp::MotionValidation::kCertified, 0.01, &counts);
  ompl::base::ScopedState<> ready(discrete), off(discrete);
  sp::setState(ready.get(), kReady);
  ASSERT_TRUE(discrete->isValid(ready.get()));
  std::vector<sp::Config> outside;
  for (std::size_t j = 0; j < arm.joints.size(); ++j) {
    sp::Config q = kReady;
    q[j] = std::nextafter(arm.upper[j], HUGE_VAL);
    outside.push_back(q);
    q[j] = std::nextafter(arm.lower[j], -HUGE_VAL);
    outside.push_back(q);
    q[j] = std::nan("");
    outside.push_back(q);
  }
  for (const sp::Config& q : outside) {
    sp::setState(off.get(), q);
    for (const auto& si : {discrete, certified}) {
      EXPECT_NO_THROW(EXPECT_FALSE(si->isValid(off.get())));
      EXPECT_NO_THROW(EXPECT_FALSE(si->checkMotion(ready.get(), off.get())));
    }
    // OMPL's discrete validator takes the start as valid; the certified one checks it.
    EXPECT_NO_THROW(EXPECT_FALSE(certified->checkMotion(off.get(), ready.get())));
  }
  sp::PlanOptions options;
  options.time_limit = 0.5;
  sp::PlanResult r;
  EXPECT_NO_THROW(r = sp::plan(*scene, {}, arm, kReady, outside.front(), options));
  EXPECT_FALSE(r.solved);
}

// The world's octree holds the point cloud, its cover holds every occupied
// leaf, and the query regions are clear of every box obstacle and leaf.
TEST(PlanningWorld, OctreeHoldsTheCloudCoverHoldsTheLeavesRegionsAreClear) {
  const sp::World w = sp::shelfWorld(1);
  ASSERT_TRUE(w.octree);
  for (const auto& p : w.cloud) {
    const auto* node = w.octree->search(p.x(), p.y(), p.z());
    ASSERT_NE(node, nullptr);
    EXPECT_TRUE(w.octree->isNodeOccupied(node));
  }
  std::vector<Eigen::AlignedBox3d> cover;
  for (const auto& o : w.octree_cover) cover.emplace_back(o->getAABB().min_, o->getAABB().max_);
  std::vector<std::pair<std::string, Eigen::AlignedBox3d>> obstacles;
  for (std::size_t i = 0; i < w.objects.size(); ++i)
    if (w.objects[i]->getObjectType() != fcl::OT_OCTREE)
      obstacles.emplace_back(w.names[i], Eigen::AlignedBox3d(w.objects[i]->getAABB().min_,
                                                             w.objects[i]->getAABB().max_));
  std::size_t leaves = 0;
  for (const auto& b : sp::drawnBoxes(w)) {
    if (b.name != "octree") continue;
    ++leaves;
    const Eigen::AlignedBox3d leaf(b.pose.translation() - 0.5 * b.size,
                                   b.pose.translation() + 0.5 * b.size);
    obstacles.emplace_back("octree leaf", leaf);
    EXPECT_TRUE(std::any_of(cover.begin(), cover.end(),
                            [&](const Eigen::AlignedBox3d& c) { return c.contains(leaf); }))
        << "leaf at " << b.pose.translation().transpose();
  }
  EXPECT_GT(leaves, cover.size());
  for (const auto& r : w.regions)
    for (const auto& [name, box] : obstacles)
      EXPECT_FALSE(box.intersects(r.box)) << r.name << " and " << name;
}

// OMPL's RRTConnect on the fitted Panda among the table, the shelf and the
// octree, with discrete and with certified motion checks: a few seeded
// queries, each solved, from its start to its goal, and free on the meshes
// along its whole length.
TEST(PlanningPanda, FittedPathsAreFreeOnTheMeshes) {
  ompl::msg::setLogLevel(ompl::msg::LOG_WARN);
  ompl::RNG::setSeed(11);
  const auto fitted_model = sov::urdf::parseFile(kDir + "/panda_fit.urdf");
  const auto mesh_model = sov::urdf::parseFile(kDir + "/panda.urdf");
  auto fitted = sp::pandaScene(fitted_model, kDir), mesh = sp::pandaScene(mesh_model, kDir);
  const sp::Arm arm = sp::pandaArm(mesh_model);
  const auto reach = sp::reachBounds(mesh_model, *mesh, arm);
  const sp::World world = sp::shelfWorld(1);
  const auto env = world.env();
  const auto queries = sp::makeQueries(mesh_model, {fitted.get(), mesh.get()}, env, arm,
                                       "fer_hand_tcp", world.regions, {{0, 1}, {2, 0}}, 2, 5);
  for (const auto& q : queries)
    for (const auto motion : {sp::MotionValidation::kDiscrete, sp::MotionValidation::kCertified}) {
      sp::PlanOptions o;
      o.time_limit = 30;
      o.motion = motion;
      const sp::PlanResult r = sp::plan(*fitted, env, arm, q.start, q.goal, o);
      ASSERT_TRUE(r.solved) << q.from << " -> " << q.to;
      EXPECT_EQ(r.counts.motions > 0, motion == sp::MotionValidation::kCertified);
      EXPECT_EQ(r.counts.motion_failures, 0u);
      ASSERT_GE(r.path.size(), 2u);
      EXPECT_EQ(r.path.front(), q.start);
      EXPECT_EQ(r.path.back(), q.goal);
      const sp::Recheck c = sp::recheckPath(*mesh, env, world.coveringEnv(), arm, reach, r.path);
      EXPECT_FALSE(c.collides) << q.from << " -> " << q.to << ": segment " << c.segment << " t "
                               << c.t << " " << c.link1 << " - " << c.link2;
      EXPECT_GE(c.configurations, r.path.size());
    }
}

}  // namespace
