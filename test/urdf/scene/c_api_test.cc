// The scene's C API (superovoid/scene.h): answers equal to the C++ scene's,
// called from C; every error status with its message; NULL arguments;
// truncated messages; status strings.
#include <gtest/gtest.h>
#include <superovoid/fcl.h>
#include <superovoid/scene.h>
#include <superovoid/urdf/scene.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>
#include <set>
#include <string>

#include "scene_test_util.h"

extern "C" int sov_test_scene_from_c(sov_scene_distance* out, size_t* pairs, const char* path,
                                     const char* const* names, const double* positions,
                                     size_t count, char* err, size_t err_size);

namespace {

using sov_test::dataPath;

const char* const kNames[] = {"shoulder", "elbow", "wrist"};

// A scene of the mesh arm through the C API (asserting success).
sov_scene* meshArm() {
  sov_scene* scene = nullptr;
  char err[512];
  EXPECT_EQ(sov_scene_create_file(&scene, dataPath("mesh_arm.urdf").c_str(), err, sizeof err),
            SOV_OK)
      << err;
  return scene;
}

TEST(SceneCApi, FromCMatchesTheCppScene) {
  const std::string path = dataPath("mesh_arm.urdf");
  sov::urdf::Scene cpp(path);
  // A free and a folded (self-colliding) configuration.
  for (const auto& q : {std::array<double, 3>{0.3, -0.5, 0.2}, {2.6, 2.4, 0.0}}) {
    cpp.setJointPositions({{kNames[0], q[0]}, {kNames[1], q[1]}, {kNames[2], q[2]}});
    const sov::urdf::PairDistance expected = cpp.minSelfDistance();
    std::set<std::pair<std::string, std::string>> expected_pairs;
    cpp.selfCollision(&expected_pairs);
    sov_scene_distance d;
    size_t pairs = 99;
    char err[512] = "unchanged";
    ASSERT_EQ(sov_test_scene_from_c(&d, &pairs, path.c_str(), kNames, q.data(), 3, err, sizeof err),
              SOV_OK)
        << err;
    EXPECT_STREQ(err, "");
    EXPECT_EQ(d.distance, expected.distance);
    EXPECT_EQ(std::string(d.link1), expected.link1);
    EXPECT_EQ(std::string(d.link2), expected.link2);
    EXPECT_EQ(d.collision1, expected.collision1);
    EXPECT_EQ(d.collision2, expected.collision2);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(d.p1[i], expected.p1[i]);
      EXPECT_EQ(d.p2[i], expected.p2[i]);
    }
    EXPECT_EQ(pairs, expected_pairs.size());
    EXPECT_EQ(expected.distance > 0, pairs == 0);
  }
}

TEST(SceneCApi, SelfCollisionWithoutPairCount) {
  sov_scene* scene = meshArm();
  const double folded[] = {2.6, 2.4, 0.0};
  char err[256];
  ASSERT_EQ(sov_scene_set_joint_positions(scene, kNames, folded, 3, err, sizeof err), SOV_OK);
  int colliding = -1;
  ASSERT_EQ(sov_scene_self_collision(&colliding, nullptr, scene, err, sizeof err), SOV_OK);
  size_t count = 0;
  int colliding_counted = -1;
  ASSERT_EQ(sov_scene_self_collision(&colliding_counted, &count, scene, err, sizeof err), SOV_OK);
  // Folded back, the hand and finger reach the base.
  EXPECT_EQ(colliding, 1);
  EXPECT_EQ(colliding_counted, 1);
  EXPECT_GT(count, 0u);
  sov_scene_destroy(scene);
}

TEST(SceneCApi, AllowingTheNearestPairMovesTheMinimum) {
  sov_scene* scene = meshArm();
  const double q[] = {0.3, -0.5, 0.2};
  char err[256];
  ASSERT_EQ(sov_scene_set_joint_positions(scene, kNames, q, 3, err, sizeof err), SOV_OK);
  sov_scene_distance first, second, third;
  ASSERT_EQ(sov_scene_min_self_distance(&first, scene, err, sizeof err), SOV_OK);
  ASSERT_EQ(sov_scene_allow_collision(scene, first.link1, first.link2, 1, err, sizeof err), SOV_OK);
  ASSERT_EQ(sov_scene_min_self_distance(&second, scene, err, sizeof err), SOV_OK);
  EXPECT_GE(second.distance, first.distance);
  EXPECT_FALSE(std::string(second.link1) == first.link1 &&
               std::string(second.link2) == first.link2);
  ASSERT_EQ(sov_scene_allow_collision(scene, first.link1, first.link2, 0, err, sizeof err), SOV_OK);
  ASSERT_EQ(sov_scene_min_self_distance(&third, scene, err, sizeof err), SOV_OK);
  EXPECT_EQ(third.distance, first.distance);
  sov_scene_destroy(scene);
}

// Two superovoid obstacles moving through the toy hand while it closes: the
// C API's warm-started environment queries give the cold C++ scene's answers.
TEST(SceneCApi, SuperovoidObstaclesMatchTheCppScene) {
  const std::string path = dataPath("toy_finger.urdf");
  sov::urdf::SceneOptions cold_options;
  cold_options.warm_start = false;
  sov::urdf::Scene cpp(sov::urdf::parseFile(path), cold_options);
  sov_scene* scene = nullptr;
  char err[512];
  ASSERT_EQ(sov_scene_create_file(&scene, path.c_str(), err, sizeof err), SOV_OK) << err;
  const double params[2][7] = {{0.015, 0.012, 0.02, 0.7, 0.9, 0.1, 0.1},
                               {0.01, 0.01, 0.03, 1.0, 0.4, 0.0, 0.0}};
  sov_shape shapes[2];
  for (int k = 0; k < 2; ++k) ASSERT_EQ(sov_shape_init(&shapes[k], params[k]), SOV_OK);
  auto o0 = std::make_shared<sov::Superovoid>(0.015, 0.012, 0.02, 0.7, 0.9, 0.1, 0.1);
  auto o1 = std::make_shared<sov::Superovoid>(0.01, 0.01, 0.03, 1.0, 0.4, 0.0, 0.0);
  fcl::CollisionObject<double> c0(o0), c1(o1);
  std::vector<fcl::CollisionObject<double>*> env{&c0, &c1};
  const char* const joints[] = {"finger_base", "finger_middle", "finger_distal", "thumb_base"};
  int overlapping = 0;
  for (int step = 0; step <= 40; ++step) {
    const double t = step / 40.0;
    const double q[] = {-0.5 + 2.2 * t, 1.7 * t, 1.7 * t, t};
    ASSERT_EQ(sov_scene_set_joint_positions(scene, joints, q, 4, err, sizeof err), SOV_OK) << err;
    cpp.setJointPositions({{joints[0], q[0]}, {joints[1], q[1]}, {joints[2], q[2]},
                           {joints[3], q[3]}});
    sov_pose poses[2];
    const double quat0[4] = {std::cos(0.7 * t), std::sin(0.7 * t), 0, 0};
    const double p0[3] = {0.06 - 0.1 * t, 0.01, 0.05 - 0.03 * t};
    const double quat1[4] = {std::cos(0.4 * t), 0, 0, std::sin(0.4 * t)};
    // Off the symmetry planes x = 0 and y = 0: obstacle 1 is a body of
    // revolution, and on a symmetry plane its overlap with the thumb has two
    // mirror-image answers of equal d (SPEC: the witnesses are then not unique).
    const double p1[3] = {0.004, 0.153 - 0.15 * t, 0.04};
    ASSERT_EQ(sov_pose_from_quat(&poses[0], quat0, p0), SOV_OK);
    ASSERT_EQ(sov_pose_from_quat(&poses[1], quat1, p1), SOV_OK);
    for (int k = 0; k < 2; ++k) {
      Eigen::Matrix3d R;
      for (int i = 0; i < 9; ++i) R(i / 3, i % 3) = poses[k].R[i];
      env[k]->setTransform(R, Eigen::Vector3d(poses[k].p[0], poses[k].p[1], poses[k].p[2]));
      env[k]->computeAABB();
    }
    const sov::urdf::PairDistance expected = cpp.distance(env);
    sov_scene_distance d;
    ASSERT_EQ(sov_scene_distance_superovoids(&d, scene, shapes, poses, 2, err, sizeof err),
              SOV_OK)
        << err;
    ASSERT_NEAR(d.distance, expected.distance, 1e-9) << "step " << step;
    EXPECT_EQ(std::string(d.link1), expected.link1);
    EXPECT_STREQ(d.link2, "");
    EXPECT_EQ(d.collision2, expected.collision2);
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(d.p1[i], expected.p1[i], 1e-6) << "step " << step;
      EXPECT_NEAR(d.p2[i], expected.p2[i], 1e-6) << "step " << step;
    }
    int colliding = -1;
    ASSERT_EQ(sov_scene_collides_superovoids(&colliding, scene, shapes, poses, 2, err, sizeof err),
              SOV_OK);
    EXPECT_EQ(colliding, cpp.collides(env) ? 1 : 0) << "step " << step;
    overlapping += expected.distance < 0;
  }
  EXPECT_GT(overlapping, 0);
  EXPECT_LT(overlapping, 41);
  sov_scene_distance none;
  ASSERT_EQ(sov_scene_distance_superovoids(&none, scene, nullptr, nullptr, 0, err, sizeof err),
            SOV_OK);
  EXPECT_EQ(none.distance, std::numeric_limits<double>::infinity());
  sov_scene_destroy(scene);
}

TEST(SceneCApi, InvalidObstaclesAreRefusedByName) {
  sov_scene* scene = nullptr;
  char err[512];
  ASSERT_EQ(sov_scene_create_file(&scene, dataPath("toy_finger.urdf").c_str(), err, sizeof err),
            SOV_OK);
  const double params[7] = {0.01, 0.01, 0.02, 1, 1, 0, 0};
  sov_shape shapes[2];
  ASSERT_EQ(sov_shape_init(&shapes[0], params), SOV_OK);
  shapes[1] = shapes[0];
  sov_pose poses[2];
  const double q[4] = {1, 0, 0, 0}, p[3] = {0, 0, 0.2};
  ASSERT_EQ(sov_pose_from_quat(&poses[0], q, p), SOV_OK);
  poses[1] = poses[0];
  sov_scene_distance d;
  int colliding = 0;
  std::memset(&shapes[1], 0, sizeof shapes[1]);  // never filled by sov_shape_init
  EXPECT_EQ(sov_scene_distance_superovoids(&d, scene, shapes, poses, 2, err, sizeof err),
            SOV_ERR_UNINITIALIZED);
  EXPECT_NE(std::string(err).find("obstacle 1"), std::string::npos) << err;
  shapes[1] = shapes[0];
  poses[1].R[0] = 2;
  EXPECT_EQ(sov_scene_collides_superovoids(&colliding, scene, shapes, poses, 2, err, sizeof err),
            SOV_ERR_ROTATION);
  EXPECT_NE(std::string(err).find("obstacle 1"), std::string::npos) << err;
  EXPECT_EQ(sov_scene_distance_superovoids(&d, scene, nullptr, poses, 1, err, sizeof err),
            SOV_ERR_NULL);
  EXPECT_EQ(sov_scene_collides_superovoids(nullptr, scene, shapes, poses, 1, err, sizeof err),
            SOV_ERR_NULL);
  sov_scene_destroy(scene);
}

TEST(SceneCApi, CreationErrors) {
  sov_scene* scene = reinterpret_cast<sov_scene*>(&scene);  // must be reset to NULL
  char err[512];
  EXPECT_EQ(sov_scene_create_file(&scene, "/nonexistent/robot.urdf", err, sizeof err),
            SOV_URDF_ERR_IO);
  EXPECT_EQ(scene, nullptr);
  EXPECT_NE(std::string(err).find("/nonexistent/robot.urdf"), std::string::npos) << err;
  EXPECT_EQ(sov_scene_create_string(&scene, "<robot", "bad.urdf", nullptr, err, sizeof err),
            SOV_URDF_ERR_XML);
  EXPECT_EQ(std::string(err).rfind("bad.urdf", 0), 0u) << err;
  // A relative mesh name without its directory cannot be read.
  const std::string xml = R"(<robot name="r"><link name="l"><collision><geometry>
    <mesh filename="meshes/no_such_mesh.stl"/></geometry></collision></link></robot>)";
  EXPECT_EQ(sov_scene_create_string(&scene, xml.c_str(), nullptr, nullptr, err, sizeof err),
            SOV_SCENE_ERR_GEOMETRY);
  EXPECT_NE(std::string(err).find("link 'l', collision #0: mesh 'meshes/no_such_mesh.stl'"),
            std::string::npos)
      << err;
  EXPECT_EQ(scene, nullptr);
  // With the directory, the fixture's meshes load.
  const std::string good = R"(<robot name="r"><link name="l"><collision><geometry>
    <mesh filename="meshes/cube.stl"/></geometry></collision></link></robot>)";
  ASSERT_EQ(
      sov_scene_create_string(&scene, good.c_str(), nullptr, dataPath("").c_str(), err, sizeof err),
      SOV_OK)
      << err;
  sov_scene_destroy(scene);
}

TEST(SceneCApi, JointAndLinkErrorsLeaveTheSceneUnchanged) {
  sov_scene* scene = meshArm();
  char err[512];
  const double q[] = {0.3, -0.5, 0.2};
  ASSERT_EQ(sov_scene_set_joint_positions(scene, kNames, q, 3, err, sizeof err), SOV_OK);
  sov_scene_distance before, after;
  ASSERT_EQ(sov_scene_min_self_distance(&before, scene, err, sizeof err), SOV_OK);

  const char* unknown[] = {"shoulder", "nope"};
  const double two[] = {0.1, 0.2};
  EXPECT_EQ(sov_scene_set_joint_positions(scene, unknown, two, 2, err, sizeof err),
            SOV_SCENE_ERR_JOINT);
  EXPECT_NE(std::string(err).find("joint 'nope' is not a joint of the model"), std::string::npos)
      << err;
  const char* mimic[] = {"finger_joint"};
  EXPECT_EQ(sov_scene_set_joint_positions(scene, mimic, two, 1, err, sizeof err),
            SOV_SCENE_ERR_JOINT);
  EXPECT_NE(std::string(err).find("mimics 'elbow'"), std::string::npos) << err;
  const char* twice[] = {"elbow", "elbow"};
  EXPECT_EQ(sov_scene_set_joint_positions(scene, twice, two, 2, err, sizeof err),
            SOV_SCENE_ERR_JOINT);
  EXPECT_NE(std::string(err).find("joint 'elbow' is given twice"), std::string::npos) << err;
  const char* limits[] = {"elbow"};
  const double far[] = {3.0};
  EXPECT_EQ(sov_scene_set_joint_positions(scene, limits, far, 1, err, sizeof err),
            SOV_SCENE_ERR_JOINT);
  EXPECT_NE(std::string(err).find("outside its limits"), std::string::npos) << err;
  ASSERT_EQ(sov_scene_min_self_distance(&after, scene, err, sizeof err), SOV_OK);
  EXPECT_EQ(after.distance, before.distance);

  EXPECT_EQ(sov_scene_allow_collision(scene, "base", "nope", 1, err, sizeof err),
            SOV_SCENE_ERR_LINK);
  EXPECT_NE(std::string(err).find("link 'nope' is not a link of the model"), std::string::npos)
      << err;
  sov_scene_destroy(scene);
}

TEST(SceneCApi, NullArgumentsAndShortMessages) {
  sov_scene* scene = meshArm();
  char err[8];
  sov_scene_distance d;
  int colliding = 0;
  EXPECT_EQ(sov_scene_create_file(nullptr, "x.urdf", err, sizeof err), SOV_ERR_NULL);
  EXPECT_STREQ(err, "a requi");  // truncated to err_size - 1 characters
  sov_scene* out = nullptr;
  EXPECT_EQ(sov_scene_create_file(&out, nullptr, err, sizeof err), SOV_ERR_NULL);
  EXPECT_EQ(sov_scene_create_string(&out, nullptr, nullptr, nullptr, err, sizeof err),
            SOV_ERR_NULL);
  EXPECT_EQ(sov_scene_min_self_distance(nullptr, scene, err, sizeof err), SOV_ERR_NULL);
  EXPECT_EQ(sov_scene_min_self_distance(&d, nullptr, err, sizeof err), SOV_ERR_NULL);
  EXPECT_EQ(sov_scene_self_collision(nullptr, nullptr, scene, err, sizeof err), SOV_ERR_NULL);
  EXPECT_EQ(sov_scene_self_collision(&colliding, nullptr, nullptr, err, sizeof err), SOV_ERR_NULL);
  const double q[] = {0.1};
  const char* null_name[] = {nullptr};
  EXPECT_EQ(sov_scene_set_joint_positions(scene, nullptr, q, 1, err, sizeof err), SOV_ERR_NULL);
  EXPECT_EQ(sov_scene_set_joint_positions(scene, null_name, q, 1, err, sizeof err), SOV_ERR_NULL);
  EXPECT_EQ(sov_scene_set_joint_positions(scene, nullptr, nullptr, 0, nullptr, 0), SOV_OK);
  EXPECT_EQ(sov_scene_allow_collision(scene, nullptr, "base", 1, err, sizeof err), SOV_ERR_NULL);
  // No message buffer at all is allowed.
  EXPECT_EQ(sov_scene_allow_collision(scene, "base", "nope", 1, nullptr, 0), SOV_SCENE_ERR_LINK);
  sov_scene_destroy(scene);
  sov_scene_destroy(nullptr);
}

TEST(SceneCApi, StatusStrings) {
  EXPECT_NE(std::string(sov_scene_status_string(SOV_SCENE_ERR_JOINT)).find("joint"),
            std::string::npos);
  EXPECT_NE(std::string(sov_scene_status_string(SOV_SCENE_ERR_LINK)).find("link"),
            std::string::npos);
  EXPECT_NE(std::string(sov_scene_status_string(SOV_SCENE_ERR_GEOMETRY)).find("geometry"),
            std::string::npos);
  EXPECT_STREQ(sov_scene_status_string(SOV_URDF_ERR_IO), sov_urdf_status_string(SOV_URDF_ERR_IO));
  EXPECT_STREQ(sov_scene_status_string(SOV_ERR_NULL), sov_status_string(SOV_ERR_NULL));
}

}  // namespace
