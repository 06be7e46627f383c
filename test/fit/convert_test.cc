// Tests of the URDF conversion (fitUrdf, fitUrdfFile) and of the
// sov-urdf-fit tool on the two-link fixture.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "fit_test_util.h"
#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"
#include "superovoid/urdf/fit.h"
#include "superovoid/urdf/mesh.h"
#include "superovoid/urdf/model.h"

namespace {

using sov_fit_test::quickOptions;
using sov_fit_test::readText;

const std::string kFixture = SOV_FIT_TEST_DATA_DIR "/two_link.urdf";

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

// The output has no mesh left: converting it again is an error, as any
// document without a <mesh> collision is, naming <robot>'s line.
TEST_F(FitUrdf, ConvertingTheOutputAgainHasNothingToFit) {
  try {
    sov::urdf::fitUrdf(*output_, SOV_FIT_TEST_DATA_DIR, {}, nullptr, "out.urdf");
    FAIL() << "a document without meshes was accepted";
  } catch (const sov::urdf::Error& e) {
    EXPECT_EQ(e.status(), SOV_URDF_ERR_MODEL);
    EXPECT_EQ(std::string(e.what()), "out.urdf:5: the document has no <mesh> collision to fit");
  }
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

// The message of the sov::urdf::Error that fitting text with o throws ("" if
// none), and its status in *status.
std::string fitError(const std::string& text, const sov::urdf::UrdfFitOptions& o, int* status) {
  try {
    sov::urdf::fitUrdf(text, SOV_FIT_TEST_DATA_DIR, o, nullptr, "two_link.urdf");
  } catch (const sov::urdf::Error& e) {
    *status = e.status();
    return e.what();
  }
  return "";
}

// Every error names the URDF, the line and the link: a listed link that
// does not exist (at <robot>) or has no mesh (at the link), a missing mesh
// and a package the paths do not have (at the <collision>).
TEST(FitUrdfLinks, ErrorsNameTheLinkAndUrdfLine) {
  sov::urdf::UrdfFitOptions o;
  int status = 0;
  o.links = {"forearm"};
  EXPECT_EQ(fitError(readText(kFixture), o, &status),
            "two_link.urdf:5: --links names link 'forearm': no such link in the document");
  EXPECT_EQ(status, SOV_URDF_ERR_MODEL);
  std::string text = readText(kFixture);
  const std::string arm_mesh = "<mesh filename=\"l_link.obj\" scale=\"2 1 0.5\"/>";
  const std::string boxed =
      std::string(text).replace(text.find(arm_mesh), arm_mesh.size(), "<box size=\"1 1 1\"/>");
  o.links = {"arm"};
  EXPECT_EQ(fitError(boxed, o, &status),
            "two_link.urdf:32: --links names link 'arm': it has no <mesh> collision");
  const std::string missing =
      std::string(text).replace(text.find("l_link.obj\" scale"), 10, "gone.obj");
  const std::string message = fitError(missing, {}, &status);
  EXPECT_EQ(status, SOV_URDF_ERR_IO);
  EXPECT_EQ(message.rfind("two_link.urdf:33: link 'arm', collision #0, mesh 'gone.obj': ", 0), 0u)
      << message;
  EXPECT_NE(message.find("cannot read the file"), std::string::npos) << message;
  // A mesh the fit refuses is named like one the reader refuses, with
  // qhull's reason in one line (its 20-line report was printed whole).
  const std::string flat = ::testing::TempDir() + "sov_fit_flat.obj";
  std::ofstream(flat) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n";
  const std::string flat_text = std::string(text).replace(text.find("l_link.obj\" scale"), 10, flat);
  sov::urdf::UrdfFitOptions arm = quickOptions();
  arm.links = {"arm"};
  const std::string refused = fitError(flat_text, arm, &status);
  EXPECT_EQ(status, SOV_URDF_ERR_MODEL);
  EXPECT_EQ(refused.rfind("two_link.urdf:33: link 'arm', collision #0, mesh '" + flat + "': qhull", 0),
            0u)
      << refused;
  EXPECT_EQ(refused.find('\n'), std::string::npos) << refused;
  std::remove(flat.c_str());
  const std::string package =
      std::string(text).replace(text.find("l_link.obj\" scale"), 10, "package://x/l.obj");
  EXPECT_EQ(fitError(package, {}, &status),
            "two_link.urdf:33: link 'arm', collision #0, mesh 'package://x/l.obj': "
            "package://x/l.obj: package 'x' is not in the package paths");
  EXPECT_EQ(status, SOV_URDF_ERR_IO);
}

// Identical meshes (the same file at the same scale here) are fitted once:
// progress reports each collision, the second as reusing the first's fit,
// and both are written with the same parameters.
TEST(FitUrdfLinks, IdenticalMeshesAreFittedOnce) {
  sov::urdf::UrdfFitOptions o = quickOptions();
  std::vector<sov::urdf::FitProgress> seen;
  o.progress = [&](const sov::urdf::FitProgress& p) { seen.push_back(p); };
  std::vector<sov::urdf::CollisionFit> fits;
  const std::string twins = SOV_FIT_TEST_DATA_DIR "/twins.urdf";
  const std::string out = sov::urdf::fitUrdf(readText(twins), SOV_FIT_TEST_DATA_DIR, o, &fits, twins);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].index, 0u);
  EXPECT_EQ(seen[0].count, 2u);
  EXPECT_EQ(seen[0].link, "left");
  EXPECT_EQ(seen[0].line, 9);
  EXPECT_EQ(seen[0].vertices, 14u);
  EXPECT_EQ(seen[0].same_as, "");
  EXPECT_EQ(seen[1].link, "right");
  EXPECT_EQ(seen[1].same_as, "left #0");
  ASSERT_EQ(fits.size(), 2u);
  EXPECT_EQ(fits[1].same_as, "left #0");
  for (int k = 0; k < 7; ++k) EXPECT_EQ(fits[0].fit.params[k], fits[1].fit.params[k]);
  const sov::urdf::Model model = sov::urdf::parse(out);
  ASSERT_EQ(model.superovoids.size(), 2u);
  EXPECT_EQ(model.superovoids[0].params, model.superovoids[1].params);
}

// A 0.1 mm mesh under a collision origin 1e4 or 1e6 m from its link's: the
// composed origin rounds by ulps of that distance, 1e8 times the body's
// size, which the fit's margin does not cover. It was refused as a vertex
// outside the body written; now that body is written grown by the rounding,
// holding every vertex: grown in length by no more than 1e-13 of the
// distance (about 450 ulps; the rule grows by 32 ulps of origin plus body).
TEST(FitUrdfLinks, FarCollisionOriginsStillHoldTheirMesh) {
  const sov::urdf::TriangleMesh mesh =
      sov::urdf::loadMesh(SOV_FIT_TEST_DATA_DIR "/l_link.obj", {0.002, 0.002, 0.002});
  const std::pair<const char*, double> origins[] = {
      {"1e4 0 0", 1e4}, {"3e4 -2e4 1e4", 3e4}, {"1e6 -1e6 0", 1e6}};  // xyz, its largest
  for (const auto& [xyz, distance] : origins) {
    const std::string text =
        std::string("<robot name=\"r\"><link name=\"a\"><collision><origin xyz=\"") + xyz +
        "\" rpy=\"0.3 0.2 0.1\"/><geometry><mesh filename=\"l_link.obj\" "
        "scale=\"0.002 0.002 0.002\"/></geometry></collision></link></robot>\n";
    std::vector<sov::urdf::CollisionFit> fits;
    const std::string out =
        sov::urdf::fitUrdf(text, SOV_FIT_TEST_DATA_DIR, quickOptions(), &fits, "far.urdf");
    const sov::urdf::Model model = sov::urdf::parse(out);
    const sov::urdf::Superovoid* s = model.find("a", 0);
    ASSERT_TRUE(s) << xyz;
    const auto in = urdf::parseURDF(text);
    EXPECT_LE(sov_fit_test::maxImplicit(*s, sov_fit_test::collisionOrigin(*in, "a", 0), mesh), 0)
        << xyz;
    const double* fit = fits[0].fit.params;
    const double smallest = std::min({fit[0], fit[1], fit[2]});
    for (int k = 0; k < 3; ++k) {
      EXPECT_GE(s->params[k], fit[k]) << xyz;
      EXPECT_LE((s->params[k] - fit[k]) * smallest / fit[k], 1e-13 * distance) << xyz;
    }
  }
}

// A robot of one link per mesh (line 3 on), on fixed joints to a base:
// l_link.obj at each scale, "" for a mesh `other` (a file name) instead.
std::string robotOfMeshes(const std::vector<std::string>& scales, const std::string& other) {
  std::string text = "<robot name=\"r\">\n<link name=\"base\"/>\n", joints;
  for (std::size_t i = 0; i < scales.size(); ++i) {
    const std::string name = "l" + std::to_string(i);
    const std::string mesh = scales[i].empty()
                                 ? "<mesh filename=\"" + other + "\"/>"
                                 : "<mesh filename=\"l_link.obj\" scale=\"" + scales[i] + "\"/>";
    text += "<link name=\"" + name + "\"><collision><geometry>" + mesh +
            "</geometry></collision></link>\n";
    joints += "<joint name=\"j" + name + "\" type=\"fixed\"><parent link=\"base\"/><child link=\"" +
              name + "\"/></joint>\n";
  }
  return text + joints + "</robot>\n";
}

// Meshes fitted on several threads: the same output, fits and progress
// calls (one per collision, in order) as on one; the failure reported is
// the first collision's that fails, as on one thread; a negative count is
// refused before any mesh is read.
TEST(FitUrdfLinks, ThreadsFitTheSameAndReportInOrder) {
  const std::string text = robotOfMeshes({"1 1 1", "1 1 2", "1 1 1", "2 1 1"}, "");
  std::string out[2];
  std::vector<sov::urdf::FitProgress> seen[2];
  std::vector<sov::urdf::CollisionFit> fits[2];
  for (int run = 0; run < 2; ++run) {
    sov::urdf::UrdfFitOptions o = quickOptions();
    o.threads = run == 0 ? 1 : 3;
    o.progress = [&seen, run](const sov::urdf::FitProgress& p) { seen[run].push_back(p); };
    out[run] = sov::urdf::fitUrdf(text, SOV_FIT_TEST_DATA_DIR, o, &fits[run], "r.urdf");
  }
  EXPECT_EQ(out[0], out[1]);
  ASSERT_EQ(seen[1].size(), 4u);
  ASSERT_EQ(seen[0].size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(seen[1][i].index, i);
    EXPECT_EQ(seen[1][i].link, seen[0][i].link);
    EXPECT_EQ(seen[1][i].same_as, seen[0][i].same_as);
  }
  EXPECT_EQ(seen[1][2].same_as, "l0 #0");
  ASSERT_EQ(fits[1].size(), 4u);
  for (std::size_t i = 0; i < 4; ++i)
    for (int k = 0; k < 7; ++k) EXPECT_EQ(fits[1][i].fit.params[k], fits[0][i].fit.params[k]);

  const std::string flat = ::testing::TempDir() + "sov_fit_threads_flat.obj";
  std::ofstream(flat) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n";
  const std::string failing = robotOfMeshes({"1 1 1", "", "2 1 1", ""}, flat);
  std::string message[2];
  for (int run = 0; run < 2; ++run) {
    sov::urdf::UrdfFitOptions o = quickOptions();
    o.threads = run == 0 ? 1 : 4;
    int status = 0;
    message[run] = fitError(failing, o, &status);
    EXPECT_EQ(status, SOV_URDF_ERR_MODEL);
  }
  EXPECT_EQ(message[1], message[0]);
  EXPECT_EQ(message[1].rfind("two_link.urdf:4: link 'l1', collision #0", 0), 0u) << message[1];
  std::remove(flat.c_str());

  sov::urdf::UrdfFitOptions negative = quickOptions();
  negative.threads = -1;
  bool progressed = false;
  negative.progress = [&](const sov::urdf::FitProgress&) { progressed = true; };
  int status = 0;
  EXPECT_NE(fitError(text, negative, &status).find("threads must be 0"), std::string::npos);
  EXPECT_EQ(status, SOV_ERR_OPTION);
  EXPECT_FALSE(progressed);
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

// A <robot> that binds 'sov' to another namespace is refused before any fit
// (it once failed only after every mesh had been fitted).
TEST(FitUrdfLinks, APrefixClashFailsBeforeAnyFit) {
  std::string text = readText(kFixture);
  text.insert(text.find("<robot") + 6, " xmlns:sov=\"http://example.com/other\"");
  sov::urdf::UrdfFitOptions o = quickOptions();
  int fitted = 0;
  o.progress = [&](const sov::urdf::FitProgress&) { ++fitted; };
  try {
    sov::urdf::fitUrdf(text, SOV_FIT_TEST_DATA_DIR, o, nullptr, "clash.urdf");
    FAIL() << "the clash was accepted";
  } catch (const sov::urdf::Error& e) {
    EXPECT_EQ(e.status(), SOV_URDF_ERR_PLACEMENT) << e.what();
    EXPECT_NE(std::string(e.what()).find("prefix 'sov' is bound to another namespace on <robot>"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(fitted, 0);
}

// Written to another folder, the meshes the output still names (the
// collisions not fitted, the visuals) name the same files from there: they
// were left relative to the input's folder, naming nothing, with success.
TEST(FitUrdfLinks, MeshPathsFollowTheOutputToAnotherFolder) {
  const std::string dir = ::testing::TempDir() + "sov_fit_moved/deeper";
  std::filesystem::create_directories(dir);
  const std::string out = dir + "/partial.urdf";
  sov::urdf::UrdfFitOptions o = quickOptions();
  o.links = {"arm"};
  sov::urdf::fitUrdfFile(kFixture, out, o);
  const sov::urdf::Model model = sov::urdf::parseFile(out);
  int meshes = 0;
  for (const auto& [name, link] : model.urdf->links_) {
    std::vector<urdf::GeometrySharedPtr> geometries;
    for (const auto& c : link->collision_array) geometries.push_back(c->geometry);
    for (const auto& v : link->visual_array) geometries.push_back(v->geometry);
    for (const auto& g : geometries) {
      if (!g || g->type != urdf::Geometry::MESH) continue;
      const std::string file = static_cast<const urdf::Mesh&>(*g).filename;
      EXPECT_FALSE(std::filesystem::path(file).is_absolute()) << file;  // still relative
      EXPECT_TRUE(std::filesystem::exists(sov::urdf::resolveMeshUri(file, dir, {}))) << file;
      ++meshes;
    }
  }
  EXPECT_EQ(meshes, 2);  // base's visual and its collision, not fitted
  std::remove(out.c_str());
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

// The tool's run: exit status, standard output and standard error.
struct ToolRun {
  int status = -1;
  std::string out, err;
};
ToolRun runTool(const std::string& args) {
  // Files of this process's own: ctest -j2 runs the tests side by side.
  const std::string stem = ::testing::TempDir() + "sov_fit_tool_" + std::to_string(getpid());
  const std::string out = stem + "_stdout.txt", err = stem + "_stderr.txt";
  const int s = std::system((std::string(SOV_URDF_FIT_TOOL) + " " + args + " > " + out + " 2> " +
                             err).c_str());
  ToolRun run{WIFEXITED(s) ? WEXITSTATUS(s) : -1, readText(out), readText(err)};
  std::remove(out.c_str());
  std::remove(err.c_str());
  return run;
}

// Progress per collision on stderr, the report of fitted pairs overlapping
// at the zero pose (the twins are not adjacent; the SRDF disables them), and
// --help on stdout with status 0. (--starts 1: one refined start, as
// quickOptions, keeps the runs short.)
TEST(FitTool, ProgressOverlapReportAndHelp) {
  const std::string out = ::testing::TempDir() + "sov_fit_twins.urdf";
  const std::string twins = SOV_FIT_TEST_DATA_DIR "/twins.urdf";
  ToolRun run = runTool(twins + " " + out + " --starts 1");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.err.find("[1/2] " + twins + ":9: link 'left' #0, mesh 'l_link.obj' (14 vertices): "
                         "fitting"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("[2/2] " + twins + ":16: link 'right' #0, mesh 'l_link.obj' (14 "
                         "vertices): same mesh as left #0, fit reused"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.out.find("same mesh as left #0"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("fitted pairs overlapping at the zero pose (no SRDF: adjacent links "
                         "only are allowed): 1"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("left"), run.out.rfind("depth"));
  run = runTool(twins + " " + out + " --starts 1 --srdf " + SOV_FIT_TEST_DATA_DIR "/twins.srdf");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("not disabled in the SRDF: 0"), std::string::npos) << run.out;
  std::remove(out.c_str());
  run = runTool("--help");
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("usage: "), std::string::npos);
}

// The output path (and the plot's) is checked before any fitting: an
// unwritable one fails at once, naming it, with no progress line and no file
// left behind; --plot draws a PNG, and a plot name without .png is misuse
// (matplotlib had written fits.png for "fits", a PDF for .pdf, and failed on
// .txt as if matplotlib were missing).
TEST(FitTool, OutputPathsAreCheckedFirstAndThePlotIsAPng) {
  const std::string folder = ::testing::TempDir() + "sov_fit_no_such_folder";
  ToolRun run = runTool(kFixture + " " + folder + "/out.urdf");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find(folder + "/out.urdf: cannot write the file"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("[1/"), std::string::npos) << run.err;
  const std::string out = ::testing::TempDir() + "sov_fit_plot.urdf";
  run = runTool(kFixture + " " + out + " --plot " + folder + "/fits.png");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err.find("[1/"), std::string::npos) << run.err;
  EXPECT_FALSE(std::ifstream(out).good()) << "written before the plot path was checked";
  for (const char* name : {"fits", "fits.txt", "fits.pdf"}) {
    run = runTool(kFixture + " " + out + " --plot " + ::testing::TempDir() + name);
    EXPECT_EQ(run.status, 2) << name;
    EXPECT_EQ(run.err.find("[1/"), std::string::npos) << run.err;
  }
  const std::string png = ::testing::TempDir() + "sov_fit_plot.png";
  std::remove(png.c_str());
  run = runTool(kFixture + " " + out + " --links arm --starts 1 --plot " + png);
  ASSERT_EQ(run.status, 0) << run.err;
  const std::string bytes = readText(png);
  ASSERT_GT(bytes.size(), 24u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  const auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned char>(bytes[at]) << 24) |
           (static_cast<unsigned char>(bytes[at + 1]) << 16) |
           (static_cast<unsigned char>(bytes[at + 2]) << 8) | static_cast<unsigned char>(bytes[at + 3]);
  };
  EXPECT_GT(be32(16), 200u);  // IHDR width and height, pixels
  EXPECT_GT(be32(20), 100u);
  std::remove(png.c_str());
  std::remove(out.c_str());
}

// The SRDF is read and checked before any fitting: a missing or malformed
// one fails at once, naming it, with no progress line and no output written
// (it was read after every fit, with OUT.urdf already written).
TEST(FitTool, SrdfIsCheckedBeforeAnyFit) {
  const std::string out = ::testing::TempDir() + "sov_fit_srdf.urdf";
  const std::string bad = ::testing::TempDir() + "sov_fit_bad.srdf";
  sov_fit_test::writeText(bad, "<robot name=\"r\"><disable_collisions link1=\"base\"/></robot>\n");
  for (const std::string& srdf : {::testing::TempDir() + "sov_fit_absent.srdf", bad}) {
    std::remove(out.c_str());
    const ToolRun run = runTool(kFixture + " " + out + " --starts 1 --srdf " + srdf);
    EXPECT_EQ(run.status, 1) << srdf;
    EXPECT_NE(run.err.find(srdf + ":"), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find("[1/"), std::string::npos) << run.err;
    EXPECT_FALSE(std::ifstream(out).good()) << "written before the SRDF was checked";
  }
  std::remove(bad.c_str());
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
  // One refined start: the statuses are tested, not how hard the fit tries.
  EXPECT_EQ(run(kFixture + " " + out + " --links arm --max-gap 1 --starts 1"), 0);
  const std::string table = readText(report);
  EXPECT_NE(table.find("V/Vhull"), std::string::npos) << table;
  EXPECT_NE(table.find("arm"), std::string::npos) << table;
  EXPECT_NO_THROW(sov::urdf::parseFile(out));
  std::remove(out.c_str());
  EXPECT_EQ(run(kFixture + " " + out + " --links arm --max-gap 0.01mm --starts 1"), 3);
  EXPECT_NO_THROW(sov::urdf::parseFile(out));  // written all the same
  EXPECT_EQ(run(kFixture), 2);
  EXPECT_EQ(run(kFixture + " " + out + " --max-gap 2furlongs"), 2);
  EXPECT_EQ(run(kFixture + " " + out + " --max-gap 0x10"), 2);  // decimal lengths only
  // Union targets without unions are a misuse (they were silently ignored).
  EXPECT_EQ(run(kFixture + " " + out + " --target-gap 5mm"), 2);
  EXPECT_NE(readText(report).find("need --max-bodies 2 or more"), std::string::npos)
      << readText(report);
  EXPECT_EQ(run(std::string(SOV_FIT_TEST_DATA_DIR) + "/absent.urdf " + out), 1);
  // A folder as the input is named (it escaped as libstdc++'s exception).
  EXPECT_EQ(run(std::string(SOV_FIT_TEST_DATA_DIR) + " " + out), 1);
  EXPECT_NE(readText(report).find(std::string(SOV_FIT_TEST_DATA_DIR) +
                                  ": cannot read the file: it is a folder"),
            std::string::npos)
      << readText(report);
  // A document without meshes is an error, not an empty success (all of
  // them fitted first: the one above keeps the base's).
  ASSERT_EQ(run(kFixture + " " + out + " --starts 1"), 0);
  EXPECT_EQ(run(out + " " + out + ".again"), 1);
  std::remove(out.c_str());
  std::remove(report.c_str());
}

}  // namespace
