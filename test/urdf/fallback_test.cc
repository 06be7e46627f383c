// addFallbacks and sov-urdf-fallback: boxes written for bare superovoids,
// everything else kept, the result loaded by plain urdfdom and by parse()
// with the same superovoids.
#include "superovoid/urdf/fallback.h"

#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "superovoid/urdf.h"
#include "superovoid/urdf/mesh.h"
#include "superovoid/urdf/model.h"
#include "urdf_test_util.h"

namespace {

using sov::urdf::Model;
using sov_test::dataPath;
using sov_test::readText;

// Relative slack for a centred AABB (the support function's rounding).
constexpr double kCentreTolerance = 1e-12;
// Surface sample grid per angle.
constexpr int kSamples = 24;

// True when output is input with only "<box size=.../>" elements (each maybe
// followed by a line break and indentation) inserted.
bool onlyBoxesInserted(const std::string& input, const std::string& output) {
  const std::string box = "<box size=\"";
  std::size_t i = 0, o = 0;
  while (o < output.size()) {
    if (output.compare(o, box.size(), box) != 0 || input.compare(i, box.size(), box) == 0) {
      if (i >= input.size() || input[i] != output[o]) return false;
      ++i, ++o;
      continue;
    }
    o = output.find("\"/>", o + box.size());
    if (o == std::string::npos) return false;
    o += 3;
    if (o < output.size() && (output[o] == '\n' || output[o] == '\r')) {
      o = output.find_first_not_of("\r\n", o);
      const std::size_t indent_end = output.find_first_not_of(" \t", o);
      // the indentation repeats the original's, before the element
      const std::size_t line_start = i == 0 ? std::string::npos : input.rfind('\n', i - 1);
      const std::size_t from = line_start == std::string::npos ? 0 : line_start + 1;
      if (output.compare(o, indent_end - o, input, from, i - from) != 0) return false;
      o = indent_end;
    }
  }
  return i == input.size();
}

// Expect two parses to hold the same superovoids (lines aside).
void expectSameSuperovoids(const Model& a, const Model& b) {
  ASSERT_EQ(a.superovoids.size(), b.superovoids.size());
  for (std::size_t k = 0; k < a.superovoids.size(); ++k) {
    const auto& x = a.superovoids[k];
    const auto& y = b.superovoids[k];
    EXPECT_EQ(x.link, y.link);
    EXPECT_EQ(x.collision, y.collision);
    EXPECT_EQ(x.index, y.index);
    EXPECT_EQ(x.xyz, y.xyz);
    EXPECT_EQ(x.quat, y.quat);
    EXPECT_EQ(x.params, y.params);
  }
}

// Exit status of a shell command.
int run(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(UrdfFallback, OutputLoadsInPlainUrdfdomWithEveryCollision) {
  const std::string input = readText(dataPath("mini_hand.urdf"));
  const std::string output = sov::urdf::addFallbacks(input);
  EXPECT_NE(output, input);
  EXPECT_EQ(sov_test::urdfdomCollisionCounts(output), sov_test::xmlCollisionCounts(input));
}

TEST(UrdfFallback, OutputParsesToTheSameSuperovoids) {
  const std::string input = readText(dataPath("mini_hand.urdf"));
  const Model before = sov::urdf::parse(input);
  const Model after = sov::urdf::parse(sov::urdf::addFallbacks(input));
  expectSameSuperovoids(before, after);
  for (const auto& s : after.superovoids) EXPECT_TRUE(s.had_fallback) << s.link;
  EXPECT_EQ(after.loaded_xml, sov::urdf::addFallbacks(input));
}

TEST(UrdfFallback, OnlyBoxesAreInserted) {
  const std::string input = readText(dataPath("mini_hand.urdf"));
  const std::string output = sov::urdf::addFallbacks(input);
  EXPECT_TRUE(onlyBoxesInserted(input, output)) << output;
  // Two bare superovoids: one on its own line, one inline.
  EXPECT_EQ(std::count(output.begin(), output.end(), '\n'),
            std::count(input.begin(), input.end(), '\n') + 1);
  EXPECT_NE(output.find("<geometry><box size=\""), std::string::npos);
}

TEST(UrdfFallback, Idempotent) {
  const std::string once = sov::urdf::addFallbacks(readText(dataPath("mini_hand.urdf")));
  EXPECT_EQ(sov::urdf::addFallbacks(once), once);
}

TEST(UrdfFallback, KeepsWindowsLineEndings) {
  std::string input = readText(dataPath("mini_hand.urdf"));
  std::string crlf;
  for (char c : input) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const std::string output = sov::urdf::addFallbacks(crlf);
  for (std::size_t at = output.find('\n'); at != std::string::npos; at = output.find('\n', at + 1)) {
    ASSERT_EQ(output[at - 1], '\r') << at;
  }
  expectSameSuperovoids(sov::urdf::parse(input), sov::urdf::parse(output));
}

// A comment that looks like the element on its line: the text cannot be
// matched, so the document is printed with the boxes added instead.
TEST(UrdfFallback, CommentThatLooksLikeTheElement) {
  const std::string input =
      "<robot name='r' xmlns:sov='urn:superovoid:urdf:1'><link name='a'><collision><geometry>"
      "<!-- <sov:superovoid a1='1'/> --><sov:superovoid a1='1' a2='1' a3='1' eps1='1' eps2='1'/>"
      "</geometry></collision></link></robot>";
  const Model m = sov::urdf::parse(input);
  ASSERT_EQ(m.superovoids.size(), 1u);
  EXPECT_EQ(sov_test::urdfdomCollisionCounts(m.loaded_xml).at("a"), 1u);
  expectSameSuperovoids(m, sov::urdf::parse(m.loaded_xml));
}

// The shapes' local bounds are centred on their origin (the bodies are
// symmetric in x and y and span [-a3, a3] in z, tapered or not), so a box
// centred on the collision origin encloses them tightly; checked on
// surface samples.
TEST(UrdfFallback, BoxEnclosesTheShape) {
  const double shapes[][7] = {{0.006, 0.006, 0.009, 0.8, 0.5, 0.2, 0.2},
                              {0.005, 0.004, 0.009, 1, 0.7, 0.3, 0.3},
                              {0.02, 0.01, 0.03, 0.3, 1.2, -0.4, 0.1},
                              {1, 2, 3, 1.9, 0.1, 0, 0}};
  for (const auto& p : shapes) {
    char attrs[256];
    std::snprintf(attrs, sizeof attrs,
                  "a1='%.17g' a2='%.17g' a3='%.17g' eps1='%.17g' eps2='%.17g' taper_x='%.17g' "
                  "taper_y='%.17g'", p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
    const Model m = sov::urdf::parse(
        std::string("<robot name='r' xmlns:sov='urn:superovoid:urdf:1'><link name='a'><collision>"
                    "<geometry><sov:superovoid ") + attrs + "/></geometry></collision></link></robot>");
    sov_shape_info s;
    ASSERT_EQ(sov_shape_get(&s, &m.superovoids.at(0).shape), SOV_OK);
    const auto& box = static_cast<const urdf::Box&>(
        *m.urdf->getLink("a")->collision_array.at(0)->geometry);
    const double dim[3] = {box.dim.x, box.dim.y, box.dim.z};
    for (int k = 0; k < 3; ++k) {
      const double width = s.aabb_hi[k] - s.aabb_lo[k];
      EXPECT_LE(std::fabs(s.aabb_hi[k] + s.aabb_lo[k]), kCentreTolerance * width) << k;
      EXPECT_GE(dim[k], width) << k;
      EXPECT_LE(dim[k], width * (1 + 1e-5)) << k;
    }
    for (int i = 0; i < kSamples; ++i) {
      for (int j = 0; j <= kSamples; ++j) {
        double x[3];
        ASSERT_EQ(sov_shape_point(x, nullptr, nullptr, nullptr, &m.superovoids.at(0).shape, -M_PI + 2 * M_PI * i / kSamples,
                                  -M_PI / 2 + M_PI * j / kSamples), SOV_OK);
        for (int k = 0; k < 3; ++k) EXPECT_LE(std::fabs(x[k]), dim[k] / 2) << k;
      }
    }
  }
}

TEST(UrdfFallback, FileToFile) {
  const std::string out = testing::TempDir() + "/sov_urdf_fallback_file.urdf";
  sov::urdf::addFallbacksFile(dataPath("mini_hand.urdf"), out);
  EXPECT_EQ(readText(out), sov::urdf::addFallbacks(readText(dataPath("mini_hand.urdf"))));
  sov::urdf::addFallbacksFile(out, out);  // in place: nothing left to add
  EXPECT_EQ(readText(out), sov::urdf::addFallbacks(readText(dataPath("mini_hand.urdf"))));
  EXPECT_THROW(sov::urdf::addFallbacksFile(dataPath("mini_hand.urdf"), "/nonexistent/dir/x.urdf"),
               sov::urdf::Error);
}

// Written to another folder, the relative mesh files still name the same
// files (they were left relative to the input's folder, naming nothing); a
// comment that looks like a mesh is left as it was.
TEST(UrdfFallback, MeshFilesFollowTheOutputToAnotherFolder) {
  std::string in_text = readText(dataPath("mesh_arm.urdf"));
  in_text.insert(in_text.find("<robot"), "<!-- <mesh filename=\"meshes/cube.stl\"/> -->\n");
  const std::string in = testing::TempDir() + "/sov_fallback_in/mesh_arm.urdf";
  std::filesystem::create_directories(std::filesystem::path(in).parent_path());
  std::filesystem::create_directories(std::filesystem::path(in).parent_path() / "meshes");
  for (const char* mesh : {"cube.stl", "prism.obj"})
    std::filesystem::copy_file(dataPath(std::string("meshes/") + mesh),
                               std::filesystem::path(in).parent_path() / "meshes" / mesh,
                               std::filesystem::copy_options::overwrite_existing);
  std::ofstream(in) << in_text;
  const std::string out = testing::TempDir() + "/sov_fallback_out/x/arm.urdf";
  std::filesystem::create_directories(std::filesystem::path(out).parent_path());
  sov::urdf::addFallbacksFile(in, out);
  const std::string text = readText(out);
  EXPECT_NE(text.find("<!-- <mesh filename=\"meshes/cube.stl\"/> -->"), std::string::npos);
  EXPECT_EQ(text.find("filename=\"meshes/"), text.rfind("filename=\"meshes/"));  // the comment's
  EXPECT_NE(text.find("filename=\"../../sov_fallback_in/meshes/cube.stl\""), std::string::npos)
      << text;
  EXPECT_NE(text.find("filename=\"../../sov_fallback_in/meshes/prism.obj\""), std::string::npos)
      << text;
  // In its own folder the mesh files stay as they were.
  sov::urdf::addFallbacksFile(in, in);
  EXPECT_EQ(readText(in), sov::urdf::addFallbacks(in_text));
}

// File names written with XML references (&amp;, &#x20;, &apos;) or as a
// relative file:// URI with percent escapes follow the output too: they were
// left as written, naming nothing from the output's folder. Each must name
// from there the very file it named from the input's folder.
TEST(UrdfFallback, EncodedMeshFilesFollowTheOutputToAnotherFolder) {
  namespace fs = std::filesystem;
  const fs::path in_dir = fs::path(testing::TempDir()) / "sov_fallback_enc in";
  fs::create_directories(in_dir / "meshes");
  const std::vector<std::string> files = {"a&b.stl", "sp ace.stl", "u\xC3\xBC&.stl", "it's.stl"};
  for (const std::string& f : files)
    fs::copy_file(dataPath("meshes/cube.stl"), in_dir / "meshes" / f,
                  fs::copy_options::overwrite_existing);
  const std::string in = (in_dir / "robot.urdf").string();
  std::ofstream(in)
      << "<robot name=\"r\"><link name=\"l\">\n"
         "<collision><geometry><mesh filename=\"meshes/a&amp;b.stl\"/></geometry></collision>\n"
         "<collision><geometry><mesh filename=\"meshes/sp&#x20;ace.stl\"/></geometry></collision>\n"
         "<collision><geometry><mesh "
         "filename=\"file://meshes/u%C3%BC&amp;.stl\"/></geometry></collision>\n"
         "<collision><geometry><mesh filename='meshes/it&apos;s.stl'/></geometry></collision>\n"
         "</link></robot>\n";
  const fs::path out_dir = fs::path(testing::TempDir()) / "sov_fallback_enc_out" / "x";
  fs::create_directories(out_dir);
  const std::string out = (out_dir / "robot.urdf").string();
  sov::urdf::addFallbacksFile(in, out);
  const Model model = sov::urdf::parseFile(out);
  const auto& collisions = model.urdf->getLink("l")->collision_array;
  ASSERT_EQ(collisions.size(), files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string name = static_cast<const urdf::Mesh&>(*collisions[i]->geometry).filename;
    const std::string file = sov::urdf::resolveMeshUri(name, out_dir.string(), {});
    std::error_code ec;
    EXPECT_TRUE(fs::equivalent(file, in_dir / "meshes" / files[i], ec)) << name << " -> " << file;
  }
}

TEST(UrdfFallbackTool, RewritesAFile) {
  const std::string out = testing::TempDir() + "/sov_urdf_fallback_tool.urdf";
  const std::string tool = SOV_URDF_FALLBACK_TOOL;
  ASSERT_EQ(run("'" + tool + "' '" + dataPath("mini_hand.urdf") + "' '" + out + "'"), 0);
  const std::string output = readText(out);
  EXPECT_EQ(output, sov::urdf::addFallbacks(readText(dataPath("mini_hand.urdf"))));
  EXPECT_EQ(sov_test::urdfdomCollisionCounts(output),
            sov_test::xmlCollisionCounts(readText(dataPath("mini_hand.urdf"))));
}

TEST(UrdfFallbackTool, ExitStatus) {
  const std::string tool = SOV_URDF_FALLBACK_TOOL;
  const std::string out = testing::TempDir() + "/sov_urdf_fallback_bad.urdf";
  EXPECT_EQ(run("'" + tool + "' '" + dataPath("bad_eps1.urdf") + "' '" + out + "' 2>/dev/null"), 1);
  EXPECT_EQ(run("'" + tool + "' 2>/dev/null"), 2);
  EXPECT_EQ(run("'" + tool + "' --help > /dev/null"), 0);  // asked for: not a misuse
}

}  // namespace
