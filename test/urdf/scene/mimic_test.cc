// Mimic joints in forward kinematics and the scene: chains against
// hand-computed poses, and each refusal with the joints it names.
#include <gtest/gtest.h>
#include <superovoid/urdf/scene.h>

#include <cmath>
#include <string>

namespace {

constexpr double kMimicPoseTol = 1e-12;

// The joint from d to e for chain(): a fixed one.
const char* const kFixedDe =
    R"(<joint name="jx" type="fixed"><parent link="d"/><child link="e"/></joint>)";

// A chain a -jm-> b -jf-> c -jg-> d: jm revolute about z; jf revolute about
// z, 1 along x, mimics jm (x 2 + 0.1); jg prismatic along x, 1 along x,
// mimics jf (x -1, no offset); extra is the joint text added after them
// (it must connect e).
std::string chain(const std::string& extra = kFixedDe, const std::string& jf_limits = "-3 3") {
  std::string lower = jf_limits.substr(0, jf_limits.find(' '));
  std::string upper = jf_limits.substr(jf_limits.find(' ') + 1);
  return R"(<robot name="m">
    <link name="a"/><link name="b"/><link name="c"/><link name="d"/><link name="e"/>
    <joint name="jm" type="revolute"><parent link="a"/><child link="b"/>
      <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
    <joint name="jf" type="revolute"><parent link="b"/><child link="c"/>
      <origin xyz="1 0 0"/><axis xyz="0 0 1"/>
      <limit lower=")" +
         lower + R"(" upper=")" + upper + R"(" effort="1" velocity="1"/>
      <mimic joint="jm" multiplier="2" offset="0.1"/></joint>
    <joint name="jg" type="prismatic"><parent link="c"/><child link="d"/>
      <origin xyz="1 0 0"/><axis xyz="1 0 0"/>
      <limit lower="-5" upper="5" effort="1" velocity="1"/>
      <mimic joint="jf" multiplier="-1"/></joint>)" +
         extra + "</robot>";
}

// The SceneError of forwardKinematics(parse(xml), q).
sov::urdf::SceneError fkError(const std::string& xml, const sov::urdf::JointPositions& q) {
  try {
    sov::urdf::forwardKinematics(*sov::urdf::parse(xml).urdf, q);
  } catch (const sov::urdf::SceneError& e) {
    return e;
  }
  return sov::urdf::SceneError(0, "", "no error");
}

// Expect e to be a joint error naming joint, with each text in its message.
void expectJointError(const sov::urdf::SceneError& e, const std::string& joint,
                      std::initializer_list<std::string> texts) {
  EXPECT_EQ(e.status(), SOV_SCENE_ERR_JOINT) << e.what();
  EXPECT_EQ(e.name(), joint) << e.what();
  for (const std::string& t : texts) {
    EXPECT_NE(std::string(e.what()).find(t), std::string::npos) << e.what();
  }
}

TEST(SceneMimic, ChainMatchesHandComputedPoses) {
  const auto model = sov::urdf::parse(chain());
  const double q = 0.3;  // jf = 2 q + 0.1 = 0.7, jg = -0.7
  const auto poses = sov::urdf::forwardKinematics(*model.urdf, {{"jm", q}});
  const double jf = 0.7, jg = -0.7;
  // c: 1 along b's x (b turned by q), turned by q + jf in all.
  const Eigen::Vector3d c(std::cos(q), std::sin(q), 0);
  EXPECT_NEAR((poses.at("c").translation() - c).norm(), 0, kMimicPoseTol);
  const Eigen::Matrix3d rc = Eigen::AngleAxisd(q + jf, Eigen::Vector3d::UnitZ()).matrix();
  EXPECT_NEAR((poses.at("c").linear() - rc).norm(), 0, kMimicPoseTol);
  // d: 1 + jg along c's x.
  const Eigen::Vector3d d = c + (1 + jg) * rc.col(0);
  EXPECT_NEAR((poses.at("d").translation() - d).norm(), 0, kMimicPoseTol);
  EXPECT_NEAR((poses.at("d").linear() - rc).norm(), 0, kMimicPoseTol);
  EXPECT_NEAR((poses.at("e").translation() - d).norm(), 0, kMimicPoseTol);
}

TEST(SceneMimic, AbsentMasterIsAtItsDefault) {
  const auto model = sov::urdf::parse(chain());
  const auto poses = sov::urdf::forwardKinematics(*model.urdf, {});
  // jm = 0, jf = 0.1, jg = -0.1.
  const Eigen::Matrix3d rc = Eigen::AngleAxisd(0.1, Eigen::Vector3d::UnitZ()).matrix();
  EXPECT_NEAR((poses.at("d").translation() - (Eigen::Vector3d(1, 0, 0) + 0.9 * rc.col(0))).norm(),
              0, kMimicPoseTol);
}

TEST(SceneMimic, SceneMovesMimicJointsWithTheirMaster) {
  const auto model = sov::urdf::parse(chain());
  sov::urdf::Scene scene(model);
  EXPECT_EQ(scene.jointPositions().size(), 1u);
  EXPECT_EQ(scene.jointPositions().count("jm"), 1u);
  scene.setJointPositions({{"jm", -0.4}});
  const auto poses = sov::urdf::forwardKinematics(*model.urdf, {{"jm", -0.4}});
  for (const auto& link : scene.linkNames()) {
    EXPECT_TRUE(scene.linkPose(link).isApprox(poses.at(link), kMimicPoseTol)) << link;
  }
  EXPECT_THROW(scene.setJointPositions({{"jf", 0.1}}), sov::urdf::SceneError);
  EXPECT_DOUBLE_EQ(scene.jointPositions().at("jm"), -0.4);
}

TEST(SceneMimic, PositionGivenToAMimicJointIsRefused) {
  expectJointError(fkError(chain(), {{"jf", 0.2}}), "jf",
                   {"joint 'jf' mimics 'jm'", "cannot be given"});
}

TEST(SceneMimic, DerivedPositionOutsideTheLimitsNamesBothJoints) {
  // jm = 0.8 is within jm's limits; jf = 1.7 is outside [-1.5, 1.5].
  expectJointError(fkError(chain(kFixedDe, "-1.5 1.5"), {{"jm", 0.8}}), "jf",
                   {"joint 'jf' (mimics 'jm'): position 1.7", "outside its limits [-1.5, 1.5]"});
  // The master's own limits are still checked first.
  expectJointError(fkError(chain(), {{"jm", 1.2}}), "jm", {"outside its limits [-1, 1]"});
}

TEST(SceneMimic, UnknownOrFixedMasterIsRefused) {
  const std::string ghost =
      R"(<joint name="jy" type="continuous"><parent link="d"/><child link="e"/>
           <axis xyz="0 0 1"/><mimic joint="ghost"/></joint>)";
  expectJointError(fkError(chain(ghost), {}), "jy",
                   {"joint 'jy' mimics 'ghost', which is not a joint of the model"});
  const std::string fixed = R"(<robot name="m"><link name="a"/><link name="b"/><link name="c"/>
    <joint name="jx" type="fixed"><parent link="a"/><child link="b"/></joint>
    <joint name="jy" type="continuous"><parent link="b"/><child link="c"/>
      <axis xyz="0 0 1"/><mimic joint="jx"/></joint></robot>)";
  expectJointError(fkError(fixed, {}), "jy", {"joint 'jy' mimics 'jx', which is fixed"});
}

TEST(SceneMimic, CyclesAreRefused) {
  const std::string two = R"(<robot name="m"><link name="a"/><link name="b"/><link name="c"/>
    <joint name="j1" type="continuous"><parent link="a"/><child link="b"/>
      <axis xyz="0 0 1"/><mimic joint="j2"/></joint>
    <joint name="j2" type="continuous"><parent link="b"/><child link="c"/>
      <axis xyz="0 0 1"/><mimic joint="j1"/></joint></robot>)";
  const auto e = fkError(two, {});
  expectJointError(e, e.name(), {"mimic joints form a cycle: 'j1' -> 'j2' -> 'j1'"});
  const std::string self = R"(<robot name="m"><link name="a"/><link name="b"/>
    <joint name="j1" type="continuous"><parent link="a"/><child link="b"/>
      <axis xyz="0 0 1"/><mimic joint="j1"/></joint></robot>)";
  expectJointError(fkError(self, {}), "j1", {"mimic joints form a cycle: 'j1' -> 'j1'"});
  EXPECT_THROW(sov::urdf::Scene{sov::urdf::parse(two)}, sov::urdf::SceneError);
}

}  // namespace
