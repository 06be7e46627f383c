// Tests of the URDF conversion (fitUrdf, fitUrdfFile) and of the
// sov-urdf-fit tool on the two-link fixture.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <urdf_parser/urdf_parser.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fit_test_util.h"
#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"
#include "superovoid/urdf/fit.h"
#include "superovoid/urdf/mesh.h"
#include "superovoid/urdf/model.h"

namespace {

using sov_fit_test::readText;

const std::string kFixture = SOV_FIT_TEST_DATA_DIR "/two_link.urdf";

// The conversion does not depend on how hard the fit tries (fit_test.cc
// tests the fit): one refined start keeps these tests short.
sov::urdf::UrdfFitOptions quickOptions() {
  sov::urdf::UrdfFitOptions o;
  o.fit.refined_starts = 1;
  return o;
}

// text with every <collision> element that contains `marker` replaced by "@".
std::string maskCollisions(std::string text, const std::string& marker) {
  std::size_t at = 0;
  while ((at = text.find("<collision", at)) != std::string::npos) {
    const std::size_t end = text.find("</collision>", at) + std::string("</collision>").size();
    if (text.substr(at, end - at).find(marker) != std::string::npos)
      text.replace(at, end - at, "@");
    ++at;
  }
  return text;
}

class FitUrdf : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    input_ = new std::string(readText(kFixture));
    fits_ = new std::vector<sov::urdf::CollisionFit>();
    output_ =
        new std::string(sov::urdf::fitUrdf(*input_, SOV_FIT_TEST_DATA_DIR, quickOptions(), fits_, kFixture));
  }
  static void TearDownTestSuite() {
    delete input_;
    delete output_;
    delete fits_;
  }
  static std::string* input_;
  static std::string* output_;
  static std::vector<sov::urdf::CollisionFit>* fits_;
};
std::string* FitUrdf::input_ = nullptr;
std::string* FitUrdf::output_ = nullptr;
std::vector<sov::urdf::CollisionFit>* FitUrdf::fits_ = nullptr;

TEST_F(FitUrdf, EveryMeshCollisionIsFittedInDocumentOrder) {
  ASSERT_EQ(fits_->size(), 2u);
  EXPECT_EQ((*fits_)[0].link, "base");
  EXPECT_EQ((*fits_)[0].collision, 0u);
  EXPECT_EQ((*fits_)[0].mesh, "l_link.obj");
  EXPECT_EQ((*fits_)[1].link, "arm");
  EXPECT_EQ((*fits_)[1].collision, 0u);
  for (const auto& f : *fits_) EXPECT_LE(f.fit.max_F, 0.0);
}

TEST_F(FitUrdf, OutputLoadsInUrdfdomWithEveryCollision) {
  const auto in = urdf::parseURDF(*input_);
  const auto out = urdf::parseURDF(*output_);
  ASSERT_TRUE(in && out);
  EXPECT_EQ(sov_fit_test::collisionCount(*out), sov_fit_test::collisionCount(*in));
  EXPECT_EQ(sov_fit_test::collisionCount(*out), 3u);
  // Unmodified readers see the fallback box; the visual mesh is untouched.
  const auto base = out->getLink("base");
  EXPECT_EQ(base->collision_array[0]->geometry->type, urdf::Geometry::BOX);
  EXPECT_EQ(base->collision_array[0]->name, "base_mesh");
  EXPECT_EQ(base->visual->geometry->type, urdf::Geometry::MESH);
  EXPECT_EQ(out->getLink("arm")->collision_array[0]->geometry->type, urdf::Geometry::BOX);
}

TEST_F(FitUrdf, OutputParsesToSuperovoidsContainingEveryVertex) {
  const sov::urdf::Model model = sov::urdf::parse(*output_, "converted");
  ASSERT_EQ(model.superovoids.size(), 2u);
  const auto in = urdf::parseURDF(*input_);
  const sov::urdf::TriangleMesh mesh = sov::urdf::loadMesh(SOV_FIT_TEST_DATA_DIR "/l_link.obj");
  const sov::urdf::TriangleMesh scaled =
      sov::urdf::loadMesh(SOV_FIT_TEST_DATA_DIR "/l_link.obj", {2, 1, 0.5});
  const sov::urdf::Superovoid* b = model.find("base", 0);
  const sov::urdf::Superovoid* a = model.find("arm", 0);
  ASSERT_TRUE(a && b);
  EXPECT_LE(sov_fit_test::maxImplicit(*b, sov_fit_test::collisionOrigin(*in, "base", 0), mesh), 0);
  EXPECT_LE(sov_fit_test::maxImplicit(*a, sov_fit_test::collisionOrigin(*in, "arm", 0), scaled), 0);
  // The written parameters are the fit's, to the last bit.
  for (int k = 0; k < 7; ++k) EXPECT_EQ(b->params[k], (*fits_)[0].fit.params[k]);
}

TEST_F(FitUrdf, EveryOtherByteIsKept) {
  std::string out = maskCollisions(*output_, "superovoid");
  const std::string decl = std::string(" xmlns:sov=\"") + SOV_URDF_NAMESPACE + "\"";
  const std::size_t at = out.find(decl);
  ASSERT_NE(at, std::string::npos);
  out.erase(at, decl.size());
  EXPECT_EQ(out, maskCollisions(*input_, "<mesh"));
}

TEST_F(FitUrdf, ConvertingTheOutputAgainChangesNothing) {
  std::vector<sov::urdf::CollisionFit> fits;
  EXPECT_EQ(sov::urdf::fitUrdf(*output_, SOV_FIT_TEST_DATA_DIR, {}, &fits), *output_);
  EXPECT_TRUE(fits.empty());
}

TEST(FitUrdfLinks, OnlyTheListedLinksAreConverted) {
  sov::urdf::UrdfFitOptions o = quickOptions();
  o.links = {"arm"};
  std::vector<sov::urdf::CollisionFit> fits;
  const std::string out = sov::urdf::fitUrdf(readText(kFixture), SOV_FIT_TEST_DATA_DIR, o, &fits);
  ASSERT_EQ(fits.size(), 1u);
  EXPECT_EQ(fits[0].link, "arm");
  const sov::urdf::Model model = sov::urdf::parse(out);
  EXPECT_EQ(model.superovoids.size(), 1u);
  EXPECT_EQ(model.urdf->getLink("base")->collision_array[0]->geometry->type, urdf::Geometry::MESH);
}

TEST(FitUrdfLinks, UnknownLinkMeshAndUnknownPackageAreErrors) {
  sov::urdf::UrdfFitOptions o;
  o.links = {"forearm"};
  try {
    sov::urdf::fitUrdf(readText(kFixture), SOV_FIT_TEST_DATA_DIR, o, nullptr, "two_link.urdf");
    FAIL() << "unknown link accepted";
  } catch (const sov::urdf::Error& e) {
    EXPECT_EQ(e.where().link, "forearm");
    EXPECT_NE(std::string(e.what()).find("no such link"), std::string::npos) << e.what();
  }
  std::string text = readText(kFixture);
  const std::string missing =
      std::string(text).replace(text.find("l_link.obj\" scale"), 10, "gone.obj");
  EXPECT_THROW(sov::urdf::fitUrdf(missing, SOV_FIT_TEST_DATA_DIR, {}), sov::urdf::Error);
  const std::string package =
      std::string(text).replace(text.find("l_link.obj\" scale"), 10, "package://x/l.obj");
  try {
    sov::urdf::fitUrdf(package, SOV_FIT_TEST_DATA_DIR, {});
    FAIL() << "package:// accepted";
  } catch (const sov::urdf::Error& e) {
    EXPECT_EQ(e.status(), SOV_URDF_ERR_IO);
    EXPECT_NE(std::string(e.what()).find("package://"), std::string::npos) << e.what();
  }
}

TEST(FitUrdfLinks, InputThatParseRefusesFailsBeforeAnyMeshIsRead) {
  std::string text = readText(kFixture);
  // A cut-short UTF-8 sequence in a comment, and a mesh that does not exist:
  // the document's error comes first.
  text.replace(text.find("Fixture"), 7, "Fixture \xF0");
  text.replace(text.find("l_link.obj\" scale"), 10, "gone.obj");
  try {
    sov::urdf::fitUrdf(text, SOV_FIT_TEST_DATA_DIR, quickOptions(), nullptr, "bad.urdf");
    FAIL() << "a document that is not UTF-8 was accepted";
  } catch (const sov::urdf::Error& e) {
    EXPECT_EQ(e.status(), SOV_URDF_ERR_XML) << e.what();
    EXPECT_NE(std::string(e.what()).find("UTF-8"), std::string::npos) << e.what();
  }
}

TEST(FitUrdfLinks, PackageUrisResolveThroughThePackagePaths) {
  sov::urdf::UrdfFitOptions o = quickOptions();
  o.links = {"arm"};
  o.package_paths["x"] = SOV_FIT_TEST_DATA_DIR;
  std::string text = readText(kFixture);
  const std::string package =
      std::string(text).replace(text.find("l_link.obj\" scale"), 10, "package://x/l_link.obj");
  std::vector<sov::urdf::CollisionFit> fits;
  sov::urdf::parse(sov::urdf::fitUrdf(package, "", o, &fits));
  ASSERT_EQ(fits.size(), 1u);
  EXPECT_EQ(fits[0].mesh, "package://x/l_link.obj");
}

// The tool's exit statuses: 0 written, 3 written but a gap above --max-gap,
// 2 misuse, 1 rejected input.
TEST(FitTool, ExitStatusesAndReport) {
  const std::string tool = SOV_URDF_FIT_TOOL;
  const std::string out = ::testing::TempDir() + "sov_fit_tool_out.urdf";
  const std::string report = ::testing::TempDir() + "sov_fit_tool_report.txt";
  const auto run = [&](const std::string& args) {
    const int s = std::system((tool + " " + args + " > " + report + " 2>&1").c_str());
    return WIFEXITED(s) ? WEXITSTATUS(s) : -1;
  };
  std::remove(out.c_str());
  EXPECT_EQ(run(kFixture + " " + out + " --links arm --max-gap 1"), 0);
  const std::string table = readText(report);
  EXPECT_NE(table.find("V/Vhull"), std::string::npos) << table;
  EXPECT_NE(table.find("arm"), std::string::npos) << table;
  EXPECT_NO_THROW(sov::urdf::parseFile(out));
  std::remove(out.c_str());
  EXPECT_EQ(run(kFixture + " " + out + " --links arm --max-gap 0.01mm"), 3);
  EXPECT_NO_THROW(sov::urdf::parseFile(out));  // written all the same
  EXPECT_EQ(run(kFixture), 2);
  EXPECT_EQ(run(kFixture + " " + out + " --max-gap 2furlongs"), 2);
  EXPECT_EQ(run(std::string(SOV_FIT_TEST_DATA_DIR) + "/absent.urdf " + out), 1);
  std::remove(out.c_str());
  std::remove(report.c_str());
}

}  // namespace
