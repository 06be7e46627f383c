// SRDF collision entries in the scene (Scene::loadSrdf and the C API):
// which pairs end up checked, the report, skipped links, every error with
// its SRDF line, and the iCub's own SRDF on its hands (../shared/data).
#include <gtest/gtest.h>
#include <superovoid/scene.h>
#include <superovoid/urdf/scene.h>

#include <filesystem>
#include <limits>
#include <set>
#include <string>
#include <utility>

#include "scene_test_util.h"

extern "C" int sov_test_scene_srdf_contacts_from_c(size_t* count, const char* path,
                                                   const char* srdf, double margin, char* err,
                                                   size_t err_size);

namespace {

using sov_test::dataPath;

// The link pairs a scene checks (not allowed), names ordered.
std::set<std::pair<std::string, std::string>> checkedPairs(const sov::urdf::Scene& scene) {
  std::set<std::pair<std::string, std::string>> out;
  const auto links = scene.linkNames();
  for (std::size_t i = 0; i < links.size(); ++i) {
    for (std::size_t j = i + 1; j < links.size(); ++j) {
      if (!scene.isCollisionAllowed(links[i], links[j]))
        out.insert(std::minmax(links[i], links[j]));
    }
  }
  return out;
}

// The sov::urdf::Error that f throws (status 0 if none).
template <class F>
sov::urdf::Error errorOf(F f) {
  try {
    f();
  } catch (const sov::urdf::Error& e) {
    return e;
  }
  return sov::urdf::Error(0, {}, "no error");
}

TEST(SceneSrdf, EntriesApplyInMoveItsOrder) {
  sov::urdf::Scene scene(dataPath("toy_finger.urdf"));
  // Adjacent links are allowed by default: palm-proximal, proximal-middle,
  // middle-distal, palm-thumb.
  const std::set<std::pair<std::string, std::string>> before = {
      {"distal", "palm"}, {"distal", "proximal"}, {"distal", "thumb"},
      {"middle", "palm"}, {"middle", "thumb"},    {"proximal", "thumb"}};
  EXPECT_EQ(checkedPairs(scene), before);
  const sov::urdf::SrdfReport r = scene.loadSrdf(dataPath("toy_finger.srdf"));
  // palm-middle disabled; the thumb with everything, then distal-thumb again.
  const std::set<std::pair<std::string, std::string>> after = {
      {"distal", "palm"}, {"distal", "proximal"}, {"distal", "thumb"}};
  EXPECT_EQ(checkedPairs(scene), after);
  EXPECT_EQ(r.disabled, 2u + 4u);  // two pairs of known links, the thumb's four
  EXPECT_EQ(r.enabled, 1u);
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0], dataPath("toy_finger.srdf") + ":11: link 'wrist_camera'");
  // Loading it again changes nothing.
  scene.loadSrdf(dataPath("toy_finger.srdf"));
  EXPECT_EQ(checkedPairs(scene), after);
}

TEST(SceneSrdf, ErrorsNameTheSrdfAndLine) {
  sov::urdf::Scene scene(dataPath("toy_finger.urdf"));
  const auto before = checkedPairs(scene);
  const std::string head =
      "<robot name='toy_finger'>\n<disable_collisions link1='palm' link2='middle'/>\n";
  auto e = errorOf([&] {
    scene.loadSrdfString(head + "<disable_collisions link1='palm'/>\n</robot>", "a.srdf");
  });
  EXPECT_EQ(e.status(), SOV_SCENE_ERR_SRDF);
  EXPECT_EQ(std::string(e.what()), "a.srdf:3: <disable_collisions> has no link2 attribute");
  e = errorOf(
      [&] { scene.loadSrdfString(head + "<disable_default_collisions/>\n</robot>", "b.srdf"); });
  EXPECT_EQ(std::string(e.what()), "b.srdf:3: <disable_default_collisions> has no link attribute");
  e = errorOf(
      [&] { scene.loadSrdfString(head + "<enable_collisions link2='x'/>\n</robot>", "c.srdf"); });
  EXPECT_EQ(std::string(e.what()), "c.srdf:3: <enable_collisions> has no link1 attribute");
  // An empty link name is no link's (it once escaped as std::out_of_range).
  e = errorOf([&] {
    scene.loadSrdfString(head + "<disable_collisions link1='' link2='palm'/>\n</robot>", "f.srdf");
  });
  EXPECT_EQ(e.status(), SOV_SCENE_ERR_SRDF);
  EXPECT_EQ(std::string(e.what()), "f.srdf:3: <disable_collisions> has an empty link1 attribute");
  e = errorOf([&] {
    scene.loadSrdfString(head + "<disable_default_collisions link=''/>\n</robot>", "g.srdf");
  });
  EXPECT_EQ(std::string(e.what()),
            "g.srdf:3: <disable_default_collisions> has an empty link attribute");
  e = errorOf([&] { scene.loadSrdfString(head + "<group>\n</robot>", "d.srdf"); });
  EXPECT_EQ(e.status(), SOV_URDF_ERR_XML);
  EXPECT_EQ(e.where().source, "d.srdf");
  EXPECT_GT(e.where().line, 2);
  e = errorOf([&] { scene.loadSrdfString("<srdf/>", "e.srdf"); });
  EXPECT_EQ(std::string(e.what()), "e.srdf: no <robot> element");
  const std::string missing = dataPath("no_such.srdf");
  e = errorOf([&] { scene.loadSrdf(missing); });
  EXPECT_EQ(e.status(), SOV_URDF_ERR_IO);
  EXPECT_EQ(std::string(e.what()), missing + ": cannot read the file");
  const std::string folder = dataPath("");
  e = errorOf([&] { scene.loadSrdf(folder); });
  EXPECT_EQ(e.status(), SOV_URDF_ERR_IO);
  EXPECT_EQ(std::string(e.what()), folder + ": cannot read the file: it is a folder");
  // Every failure left the scene as it was (the first entry was not applied).
  EXPECT_EQ(checkedPairs(scene), before);
}

TEST(SceneSrdf, CApiLoadsFilesAndText) {
  sov_scene* scene = nullptr;
  char err[256];
  ASSERT_EQ(sov_scene_create_file(&scene, dataPath("toy_finger.urdf").c_str(), err, sizeof err),
            SOV_OK)
      << err;
  sov_scene_srdf_report r{9, 9, 9};
  ASSERT_EQ(sov_scene_load_srdf(&r, scene, dataPath("toy_finger.srdf").c_str(), err, sizeof err),
            SOV_OK)
      << err;
  EXPECT_STREQ(err, "");
  EXPECT_EQ(r.disabled, 6u);
  EXPECT_EQ(r.enabled, 1u);
  EXPECT_EQ(r.skipped, 1u);
  EXPECT_EQ(sov_scene_load_srdf_string(nullptr, scene,
                                       "<robot><enable_collisions link1='palm' link2='middle'/>"
                                       "</robot>",
                                       nullptr, err, sizeof err),
            SOV_OK);
  EXPECT_EQ(sov_scene_load_srdf_string(&r, scene, "<robot><disable_collisions/></robot>", "t.srdf",
                                       err, sizeof err),
            SOV_SCENE_ERR_SRDF);
  EXPECT_STREQ(err, "t.srdf:1: <disable_collisions> has no link1 attribute");
  EXPECT_STREQ(sov_scene_status_string(SOV_SCENE_ERR_SRDF),
               "an SRDF has no <robot> or a collision entry without its links");
  EXPECT_EQ(sov_scene_load_srdf(&r, nullptr, "x", err, sizeof err), SOV_ERR_NULL);
  EXPECT_EQ(sov_scene_load_srdf(&r, scene, nullptr, err, sizeof err), SOV_ERR_NULL);
  EXPECT_EQ(sov_scene_load_srdf_string(&r, scene, nullptr, nullptr, err, sizeof err), SOV_ERR_NULL);
  sov_scene_destroy(scene);
}

// From C (c_header_check.c): an SRDF that allows every pair leaves no
// contact at any margin; an empty one leaves every checked pair.
TEST(SceneSrdf, FromCAnSrdfRemovesContacts) {
  const std::string path = dataPath("toy_finger.urdf");
  const double all = std::numeric_limits<double>::infinity();
  std::size_t count = 0;
  char err[256];
  ASSERT_EQ(sov_test_scene_srdf_contacts_from_c(&count, path.c_str(), "<robot/>", all, err,
                                                sizeof err),
            SOV_OK)
      << err;
  // Six pairs of non-adjacent links; the palm has two geometries: 8 pairs.
  EXPECT_EQ(count, 8u);
  const std::string srdf =
      "<robot><disable_default_collisions link='palm'/><disable_default_collisions link='thumb'/>"
      "<disable_collisions link1='distal' link2='proximal'/></robot>";
  ASSERT_EQ(
      sov_test_scene_srdf_contacts_from_c(&count, path.c_str(), srdf.c_str(), all, err, sizeof err),
      SOV_OK)
      << err;
  EXPECT_EQ(count, 0u);
}

// The iCub's MoveIt SRDF on its hands-only model: entries of the head and
// legs are skipped, and the hands checked against each other at the zero
// pose touch in far fewer link pairs than without it.
TEST(SceneSrdf, ICubSrdfOnItsHands) {
  const std::string dir = SOV_SHARED_DATA_DIR "/robots/icub";
  if (!std::filesystem::exists(dir + "/ICub.srdf")) {
    GTEST_SKIP() << dir << " is absent (shared robot data, not in a fresh clone)";
  }
  sov::urdf::Scene scene(dir + "/iCub_hands_collision.urdf");
  std::set<std::pair<std::string, std::string>> without, with;
  scene.selfCollision(&without);
  const sov::urdf::SrdfReport r = scene.loadSrdf(dir + "/ICub.srdf");
  scene.selfCollision(&with);
  EXPECT_GT(r.disabled, 1000u);
  EXPECT_GT(r.skipped.size(), 0u);
  for (const auto& p : with) EXPECT_TRUE(without.count(p)) << p.first << " " << p.second;
  EXPECT_LT(with.size(), without.size());
}

}  // namespace
