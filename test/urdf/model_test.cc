// sov::urdf::parse and parseFile: the superovoid table of a small hand,
// keyed lookups, origins, namespace prefixes, and what urdfdom sees.
#include "superovoid/urdf/model.h"

#include <console_bridge/console.h>
#include <gtest/gtest.h>
#include <urdf_parser/urdf_parser.h>

#include <cmath>
#include <string>
#include <vector>

#include "superovoid/urdf.h"
#include "urdf_test_util.h"

namespace {

using sov::urdf::Model;
using sov::urdf::Superovoid;
using sov_test::dataPath;
using sov_test::readText;

// Quaternions from urdfdom's RPY conversion match closed forms to rounding.
constexpr double kQuatTolerance = 1e-15;

// The expected table row of one superovoid of mini_hand.urdf.
struct Row {
  const char* link;
  const char* collision;
  std::size_t index;
  bool had_fallback;
  double xyz[3];
  double params[7];
};

const std::vector<Row>& miniHandRows() {
  static const std::vector<Row> rows = {
      {"palm", "palm_pad", 1, true, {0, 0, 0.012}, {0.04, 0.045, 0.003, 0.2, 0.2, 0, 0}},
      {"index_proximal", "index_proximal_body", 0, false, {0, 0, 0.02},
       {0.009, 0.008, 0.02, 1, 0.6, 0, 0}},
      {"index_distal", "index_distal_pad", 0, true, {0, 0, 0.008},
       {0.006, 0.006, 0.009, 0.8, 0.5, 0.2, 0.2}},
      {"index_distal", "", 1, false, {0.001, -0.002, 0.02}, {0.005, 0.004, 0.007, 1, 0.7, 0.3, 0.3}},
      {"thumb_distal", "", 0, true, {0, 0, 0}, {0.007, 0.007, 0.015, 1, 1, 0, 0}},
  };
  return rows;
}

// Quaternion w x y z of URDF roll-pitch-yaw (R = Rz(yaw) Ry(pitch) Rx(roll)).
std::array<double, 4> quatFromRpy(double r, double p, double y) {
  const double cr = std::cos(r / 2), sr = std::sin(r / 2), cp = std::cos(p / 2),
               sp = std::sin(p / 2), cy = std::cos(y / 2), sy = std::sin(y / 2);
  return {cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy,
          cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy};
}

// Expect urdfdom's model of m to keep every <collision> of the document xml,
// and plain urdfdom to load m.loaded_xml with the same counts.
void expectEveryCollisionKept(const Model& m, const std::string& xml) {
  const auto expected = sov_test::xmlCollisionCounts(xml);
  ASSERT_FALSE(expected.empty());
  for (const auto& entry : expected) {
    ASSERT_TRUE(m.urdf->getLink(entry.first)) << entry.first;
    EXPECT_EQ(m.urdf->getLink(entry.first)->collision_array.size(), entry.second) << entry.first;
  }
  EXPECT_EQ(sov_test::urdfdomCollisionCounts(m.loaded_xml), expected);
}

TEST(UrdfModel, MiniHandRoundTrip) {
  const Model m = sov::urdf::parseFile(dataPath("mini_hand.urdf"));
  ASSERT_TRUE(m.urdf);
  EXPECT_EQ(m.urdf->getName(), "mini_hand");
  ASSERT_EQ(m.superovoids.size(), miniHandRows().size());
  for (std::size_t i = 0; i < m.superovoids.size(); ++i) {
    const Superovoid& s = m.superovoids[i];
    const Row& r = miniHandRows()[i];
    SCOPED_TRACE(s.link + " #" + std::to_string(s.index));
    EXPECT_EQ(s.link, r.link);
    EXPECT_EQ(s.collision, r.collision);
    EXPECT_EQ(s.index, r.index);
    EXPECT_EQ(s.had_fallback, r.had_fallback);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(s.xyz[k], r.xyz[k]);
    for (int k = 0; k < 7; ++k) EXPECT_EQ(s.params[k], r.params[k]);
    sov_shape expected_shape;
    ASSERT_EQ(sov_shape_init(&expected_shape, r.params), SOV_OK);
    sov_shape_info got, expected;
    ASSERT_EQ(sov_shape_get(&got, &s.shape), SOV_OK);
    ASSERT_EQ(sov_shape_get(&expected, &expected_shape), SOV_OK);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(got.aabb_hi[k], expected.aabb_hi[k]);
    EXPECT_EQ(got.radius, expected.radius);
    EXPECT_GT(s.line, 0);
  }
}

TEST(UrdfModel, LinesPointAtTheElements) {
  const std::string xml = readText(dataPath("mini_hand.urdf"));
  const Model m = sov::urdf::parse(xml);
  std::vector<std::string> lines{""};
  for (std::size_t at = 0, next; at < xml.size(); at = next + 1) {
    next = xml.find('\n', at);
    if (next == std::string::npos) next = xml.size();
    lines.push_back(xml.substr(at, next - at));
  }
  for (const Superovoid& s : m.superovoids) {
    ASSERT_LT(static_cast<std::size_t>(s.line), lines.size());
    EXPECT_NE(lines[s.line].find(":superovoid a1="), std::string::npos) << lines[s.line];
  }
}

// The model's table of element lines (for messages of the layers above):
// every <link>, <joint> and <collision>, with the source name.
TEST(UrdfModel, ElementLinesForMessages) {
  const std::string path = dataPath("mini_hand.urdf");
  const std::string xml = readText(path);
  const Model m = sov::urdf::parseFile(path);
  EXPECT_EQ(m.source, path);
  std::vector<std::string> lines{""};
  for (std::size_t at = 0, next; at < xml.size(); at = next + 1) {
    next = xml.find('\n', at);
    if (next == std::string::npos) next = xml.size();
    lines.push_back(xml.substr(at, next - at));
  }
  EXPECT_EQ(m.link_lines.size(), m.urdf->links_.size());
  for (const auto& [name, line] : m.link_lines) {
    ASSERT_LT(static_cast<std::size_t>(line), lines.size());
    EXPECT_NE(lines[line].find("<link name=\"" + name + "\""), std::string::npos) << lines[line];
  }
  EXPECT_EQ(m.joint_lines.size(), m.urdf->joints_.size());
  for (const auto& [name, line] : m.joint_lines) {
    EXPECT_NE(lines[line].find("<joint name=\"" + name + "\""), std::string::npos) << lines[line];
  }
  std::size_t collisions = 0;
  for (const auto& [name, link] : m.urdf->links_) collisions += link->collision_array.size();
  EXPECT_EQ(m.collision_lines.size(), collisions);
  for (const auto& [key, line] : m.collision_lines) {
    EXPECT_NE(lines[line].find("<collision"), std::string::npos) << lines[line];
    EXPECT_GT(line, m.link_lines.at(key.first));
  }
  for (const Superovoid& s : m.superovoids) {
    EXPECT_LT(m.collision_lines.at({s.link, s.index}), s.line);  // the element is inside
  }
}

TEST(UrdfModel, FindByLinkAndCollision) {
  const Model m = sov::urdf::parseFile(dataPath("mini_hand.urdf"));
  ASSERT_NE(m.find("palm", "palm_pad"), nullptr);
  EXPECT_EQ(m.find("palm", "palm_pad")->index, 1u);
  EXPECT_EQ(m.find("palm", 0), nullptr);  // the ordinary box
  ASSERT_NE(m.find("index_distal", 1), nullptr);
  EXPECT_EQ(m.find("index_distal", 1)->collision, "");
  EXPECT_EQ(m.find("index_distal", 2), nullptr);  // the sphere
  EXPECT_EQ(m.find("no_such_link", 0), nullptr);
}

TEST(UrdfModel, OriginsAreUrdfdomsUnitQuaternions) {
  const Model m = sov::urdf::parseFile(dataPath("mini_hand.urdf"));
  const std::array<double, 4> pitched = quatFromRpy(0, M_PI / 2, 0);
  const std::array<double, 4> general = quatFromRpy(0.1, 0.2, 0.3);
  const std::array<double, 4> identity = {1, 0, 0, 0};
  const std::array<double, 4>* expected[] = {&identity, &pitched, &identity, &general, &identity};
  for (std::size_t i = 0; i < m.superovoids.size(); ++i) {
    for (int k = 0; k < 4; ++k) {
      EXPECT_NEAR(m.superovoids[i].quat[k], (*expected[i])[k], kQuatTolerance) << i << " " << k;
    }
    sov_pose pose;
    EXPECT_EQ(sov_pose_from_quat(&pose, m.superovoids[i].quat.data(), m.superovoids[i].xyz.data()),
              SOV_OK);
  }
}

TEST(UrdfModel, UrdfdomKeepsEveryCollision) {
  const std::string xml = readText(dataPath("mini_hand.urdf"));
  const Model m = sov::urdf::parse(xml);
  expectEveryCollisionKept(m, xml);
  EXPECT_EQ(m.urdf->getLink("index_distal")->collision_array.size(), 3u);
  EXPECT_EQ(m.urdf->joints_.size(), 3u);
}

TEST(UrdfModel, BareSuperovoidsAppearAsBoxesToUrdfdom) {
  const Model m = sov::urdf::parseFile(dataPath("mini_hand.urdf"));
  for (const Superovoid& s : m.superovoids) {
    const auto& geometry = m.urdf->getLink(s.link)->collision_array[s.index]->geometry;
    ASSERT_TRUE(geometry);
    if (s.had_fallback) continue;
    ASSERT_EQ(geometry->type, urdf::Geometry::BOX) << s.link;
    const auto& box = static_cast<const urdf::Box&>(*geometry);
    sov_shape_info i;
    ASSERT_EQ(sov_shape_get(&i, &s.shape), SOV_OK);
    EXPECT_GE(box.dim.x, i.aabb_hi[0] - i.aabb_lo[0]);
    EXPECT_GE(box.dim.y, i.aabb_hi[1] - i.aabb_lo[1]);
    EXPECT_GE(box.dim.z, i.aabb_hi[2] - i.aabb_lo[2]);
  }
  EXPECT_EQ(m.urdf->getLink("thumb_distal")->collision_array[0]->geometry->type,
            urdf::Geometry::CYLINDER);
}

// The reason for the fallback: plain urdfdom drops a bare superovoid's
// collision and every later collision of its link, without an error.
TEST(UrdfModel, PlainUrdfdomDropsBareSuperovoids) {
  const auto counts = sov_test::urdfdomCollisionCounts(readText(dataPath("mini_hand.urdf")));
  ASSERT_FALSE(counts.empty());
  EXPECT_EQ(counts.at("palm"), 2u);
  EXPECT_EQ(counts.at("index_proximal"), 0u);
  EXPECT_EQ(counts.at("index_distal"), 1u);
  EXPECT_EQ(counts.at("thumb_distal"), 1u);
}

// What urdfdom does with a bare superovoid, exactly (urdf/MOVEIT.md says
// so): it logs "Unknown geometry type" through console_bridge (stderr unless
// a program installs its own handler, as this test does) and returns the
// model, without that collision and every later one of the link.
class RecordingHandler : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel, const char*, int) override {
    messages += text + "\n";
  }
  std::string messages;
};

TEST(UrdfModel, UrdfdomLogsUnknownGeometryAndReturnsSuccess) {
  const std::string xml =
      "<robot name='r' xmlns:sov='urn:superovoid:urdf:1'><link name='a'>"
      "<collision><geometry><sov:superovoid a1='1' a2='1' a3='1' eps1='1' eps2='1'/>"
      "</geometry></collision>"
      "<collision><geometry><box size='1 1 1'/></geometry></collision></link></robot>";
  RecordingHandler handler;
  console_bridge::useOutputHandler(&handler);
  const urdf::ModelInterfaceSharedPtr model = urdf::parseURDF(xml);
  console_bridge::restorePreviousOutputHandler();
  ASSERT_NE(model, nullptr);  // success
  EXPECT_EQ(model->getLink("a")->collision_array.size(), 0u);  // both collisions gone
  EXPECT_NE(handler.messages.find("Unknown geometry type 'sov:superovoid'"), std::string::npos)
      << handler.messages;
  // Our parser writes the fallback box first: urdfdom then keeps both.
  EXPECT_EQ(sov::urdf::parse(xml).urdf->getLink("a")->collision_array.size(), 2u);
}

TEST(UrdfModel, FallbackFirstDocumentGoesToUrdfdomUnchanged) {
  const std::string xml =
      "<robot name='r' xmlns:sov='urn:superovoid:urdf:1'>\n"
      "  <link name='a'><collision><geometry><sphere radius='2'/>"
      "<sov:superovoid a1='1' a2='1' a3='1' eps1='1' eps2='1'/></geometry></collision></link>\n"
      "</robot>\n";
  const Model m = sov::urdf::parse(xml);
  EXPECT_EQ(m.loaded_xml, xml);
  ASSERT_EQ(m.superovoids.size(), 1u);
  EXPECT_TRUE(m.superovoids[0].had_fallback);
  expectEveryCollisionKept(m, xml);
}

TEST(UrdfModel, PrefixIsReadFromTheDeclaration) {
  const std::string body =
      "<link name='a'><collision><geometry><sphere radius='2'/>"
      "<sov:superovoid a1='1' a2='1' a3='1' eps1='1' eps2='1'/></geometry></collision></link>";
  // "sov" bound to another namespace: not ours, ignored as urdfdom ignores it.
  const Model other = sov::urdf::parse(
      "<robot name='r' xmlns:sov='urn:example:other'>" + body + "</robot>");
  EXPECT_TRUE(other.superovoids.empty());
  // Any prefix, declared on the element itself.
  const Model own = sov::urdf::parse(
      "<robot name='r'><link name='a'><collision><geometry><sphere radius='2'/>"
      "<q:superovoid xmlns:q='urn:superovoid:urdf:1' a1='1' a2='1' a3='1' eps1='1' eps2='1'/>"
      "</geometry></collision></link></robot>");
  ASSERT_EQ(own.superovoids.size(), 1u);
  // A default namespace declared on the element.
  const Model plain = sov::urdf::parse(
      "<robot name='r'><link name='a'><collision><geometry>"
      "<superovoid xmlns='urn:superovoid:urdf:1' a1='1' a2='1' a3='1' eps1='1' eps2='1'/>"
      "</geometry></collision></link></robot>");
  ASSERT_EQ(plain.superovoids.size(), 1u);
  EXPECT_FALSE(plain.superovoids[0].had_fallback);
  // An undeclared prefix on a superovoid is a mistake, not a foreign element.
  try {
    sov::urdf::parse("<robot name='r'>" + body + "</robot>");
    FAIL() << "undeclared prefix accepted";
  } catch (const sov::urdf::Error& e) {
    EXPECT_EQ(e.status(), SOV_URDF_ERR_PLACEMENT);
    EXPECT_NE(std::string(e.what()).find("prefix 'sov' is not declared"), std::string::npos);
  }
}

TEST(UrdfModel, DocumentWithoutSuperovoids) {
  const std::string xml =
      "<robot name='r'><link name='a'><collision><geometry><box size='1 2 3'/>"
      "</geometry></collision></link></robot>";
  const Model m = sov::urdf::parse(xml);
  EXPECT_TRUE(m.superovoids.empty());
  EXPECT_EQ(m.loaded_xml, xml);
  expectEveryCollisionKept(m, xml);
}

// urdfdom 3.0.1 refuses <robot version="1.1"> (only "1.0" or no version);
// so does the extension, with the reason in the message.
TEST(UrdfModel, Version11IsRefusedAsUrdfdomRefusesIt) {
  const std::string xml = readText(dataPath("mini_hand_version_1_1.urdf"));
  EXPECT_FALSE(urdf::parseURDF(xml));
  try {
    sov::urdf::parse(xml, "v11.urdf");
    FAIL() << "version 1.1 accepted";
  } catch (const sov::urdf::Error& e) {
    EXPECT_EQ(e.status(), SOV_URDF_ERR_MODEL);
    EXPECT_NE(std::string(e.what()).find("v11.urdf:6: urdfdom could not load the model"),
              std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("version=\"1.1\""), std::string::npos) << e.what();
  }
  // Version 1.0 spelled out is accepted by both.
  std::string v10 = xml;
  v10.replace(v10.find("1.1"), 3, "1.0");
  EXPECT_TRUE(urdf::parseURDF(sov::urdf::parse(v10).loaded_xml));
}

}  // namespace
