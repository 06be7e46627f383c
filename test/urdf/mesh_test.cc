// Mesh reading and writing (STL binary and ASCII, OBJ), tessellation through
// the C API, and every error of loadMesh/saveMesh.
#include "superovoid/urdf/mesh.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "superovoid/superovoid.h"
#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"

namespace {

using sov::urdf::Error;
using sov::urdf::TriangleMesh;

// A path for a scratch file in the test's temporary folder.
std::string scratch(const std::string& name) { return ::testing::TempDir() + "sov_mesh_" + name; }

// Writes bytes to a scratch file and returns its path.
std::string writeScratch(const std::string& name, const std::string& bytes) {
  const std::string path = scratch(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// The Error that f throws (status 0 if none).
template <class F>
Error errorOf(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  return Error(0, {}, "no error");
}

// Expect e to have status and line, to name path, and to contain each text.
void expectError(const Error& e, int status, const std::string& path, int line,
                 std::initializer_list<std::string> texts) {
  const std::string what = e.what();
  EXPECT_EQ(e.status(), status) << what;
  EXPECT_EQ(e.where().source, path) << what;
  EXPECT_EQ(e.where().line, line) << what;
  const std::string prefix = path.empty() ? ""
                             : line > 0    ? path + ":" + std::to_string(line) + ": "
                                           : path + ": ";
  EXPECT_EQ(what.rfind(prefix, 0), 0u) << what;
  for (const std::string& t : texts) EXPECT_NE(what.find(t), std::string::npos) << what;
}

// The error of loading a scratch file holding bytes.
Error loadError(const std::string& name, const std::string& bytes) {
  const std::string path = writeScratch(name, bytes);
  return errorOf([&] { sov::urdf::loadMesh(path); });
}

// A tapered superovoid's surface mesh: 2 poles and 8 rings of 12 vertices.
TriangleMesh sampleMesh() {
  const double params[7] = {0.3, 0.2, 0.5, 0.7, 1.3, 0.2, -0.1};
  sov_shape shape;
  EXPECT_EQ(sov_shape_init(&shape, params), SOV_OK);
  return sov::urdf::tessellate(shape, 9, 12);
}

// A little-endian binary STL: header (80 bytes, padded), count, facets of
// nine floats each with zero normals.
std::string binaryStl(const std::string& header, const std::vector<std::array<float, 9>>& facets,
                      std::uint32_t count) {
  std::string out = header;
  out.resize(80, ' ');
  auto u32 = [&](std::uint32_t v) {
    for (int k = 0; k < 4; ++k) out.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
  };
  auto f32 = [&](float f) {
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    u32(bits);
  };
  u32(count);
  for (const auto& f : facets) {
    for (int k = 0; k < 3; ++k) f32(0.f);
    for (float x : f) f32(x);
    out.append(2, '\0');
  }
  return out;
}

// Expect every triangle of loaded to have the coordinates of written's
// (vertex order kept), rounded to float.
void expectSameFloatTriangles(const TriangleMesh& loaded, const TriangleMesh& written) {
  ASSERT_EQ(loaded.triangles.size(), written.triangles.size());
  for (std::size_t t = 0; t < loaded.triangles.size(); ++t) {
    for (int i = 0; i < 3; ++i) {
      for (int k = 0; k < 3; ++k) {
        const double x = written.vertices[written.triangles[t][i]][k];
        EXPECT_EQ(loaded.vertices[loaded.triangles[t][i]][k], static_cast<float>(x))
            << "triangle " << t << " corner " << i;
      }
    }
  }
}

TEST(UrdfMesh, TessellateIsTheCApiMesh) {
  const double params[7] = {0.3, 0.2, 0.5, 0.7, 1.3, 0.2, -0.1};
  sov_shape shape;
  ASSERT_EQ(sov_shape_init(&shape, params), SOV_OK);
  const TriangleMesh m = sov::urdf::tessellate(shape, 9, 12);
  std::size_t nv = 0, nt = 0;
  ASSERT_EQ(sov_shape_tessellation_size(&nv, &nt, 9, 12), SOV_OK);
  std::vector<double> xyz(3 * nv);
  std::vector<int> idx(3 * nt);
  ASSERT_EQ(sov_shape_tessellate(xyz.data(), xyz.size(), idx.data(), idx.size(), &shape, 9, 12),
            SOV_OK);
  ASSERT_EQ(m.vertices.size(), nv);
  ASSERT_EQ(m.triangles.size(), nt);
  for (std::size_t k = 0; k < nv; ++k) {
    for (int c = 0; c < 3; ++c) EXPECT_EQ(m.vertices[k][c], xyz[3 * k + c]);
  }
  for (std::size_t k = 0; k < nt; ++k) {
    for (int c = 0; c < 3; ++c) EXPECT_EQ(m.triangles[k][c], idx[3 * k + c]);
  }
  const Error e = errorOf([&] { sov::urdf::tessellate(shape, 1, 12); });
  EXPECT_NE(e.status(), 0);
  EXPECT_NE(std::string(e.what()).find("n_lat 1"), std::string::npos) << e.what();
}

TEST(UrdfMesh, TransformedAppliesThePose) {
  TriangleMesh m;
  m.vertices = {{1, 0, 0}, {0, 2, 0}, {0, 0, 3}};
  m.triangles = {{0, 1, 2}};
  // A quarter turn about z: (x, y, z) -> (-y, x, z), then shifted.
  const sov_pose pose = {{0, -1, 0, 1, 0, 0, 0, 0, 1}, {10, 20, 30}};
  const TriangleMesh w = sov::urdf::transformed(m, pose);
  const std::vector<std::array<double, 3>> expected = {{10, 21, 30}, {8, 20, 30}, {10, 20, 33}};
  ASSERT_EQ(w.vertices.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    for (int c = 0; c < 3; ++c) EXPECT_DOUBLE_EQ(w.vertices[k][c], expected[k][c]);
  }
  EXPECT_EQ(w.triangles, m.triangles);
}

TEST(UrdfMesh, ObjRoundTripIsExact) {
  const TriangleMesh m = sampleMesh();
  const std::string path = scratch("round.obj");
  sov::urdf::saveMesh(path, m);
  const TriangleMesh back = sov::urdf::loadMesh(path);
  EXPECT_EQ(back.vertices, m.vertices);
  EXPECT_EQ(back.triangles, m.triangles);
}

TEST(UrdfMesh, StlRoundTripKeepsFloatCoordinatesAndWelds) {
  const TriangleMesh m = sampleMesh();
  const std::string path = scratch("round.stl");
  sov::urdf::saveMesh(path, m);
  const std::string bytes = [&] {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  ASSERT_EQ(bytes.size(), 84 + 50 * m.triangles.size());
  EXPECT_NE(bytes.rfind("solid", 0), 0u) << "a binary STL header must not begin with 'solid'";
  const TriangleMesh back = sov::urdf::loadMesh(path);
  // Every tessellation vertex is distinct, so welding restores their count.
  EXPECT_EQ(back.vertices.size(), m.vertices.size());
  expectSameFloatTriangles(back, m);
}

TEST(UrdfMesh, ScaleMultipliesEachAxis) {
  const TriangleMesh m = sampleMesh();
  const std::string path = scratch("scale.obj");
  sov::urdf::saveMesh(path, m);
  const TriangleMesh back = sov::urdf::loadMesh(path, {2.0, -1.0, 0.5});
  ASSERT_EQ(back.vertices.size(), m.vertices.size());
  for (std::size_t k = 0; k < m.vertices.size(); ++k) {
    EXPECT_EQ(back.vertices[k][0], 2.0 * m.vertices[k][0]);
    EXPECT_EQ(back.vertices[k][1], -1.0 * m.vertices[k][1]);
    EXPECT_EQ(back.vertices[k][2], 0.5 * m.vertices[k][2]);
  }
}

TEST(UrdfMesh, AsciiStlWithCrlfIsWelded) {
  const std::string text =
      "solid two\r\n"
      "  facet normal 0 0 -1\r\n    outer loop\r\n"
      "      vertex 0 0 0\r\n      vertex 1 0 0\r\n      vertex 0 1 0\r\n"
      "    endloop\r\n  endfacet\r\n"
      "  facet normal 0 -1 0\r\n    outer loop\r\n"
      "      vertex 0 0 0\r\n      vertex 1e0 0 0\r\n      vertex 0 0 -2.5E-1\r\n"
      "    endloop\r\n  endfacet\r\n"
      "endsolid two\r\n";
  const TriangleMesh m = sov::urdf::loadMesh(writeScratch("ascii.STL", text), {1, 1, 4});
  const std::vector<std::array<double, 3>> v = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, -1}};
  EXPECT_EQ(m.vertices, v);
  const std::vector<std::array<int, 3>> t = {{0, 1, 2}, {0, 1, 3}};
  EXPECT_EQ(m.triangles, t);
}

TEST(UrdfMesh, BinaryStlBeginningWithSolidIsReadAsBinary) {
  const std::string bytes = binaryStl(
      "solid looks like ASCII", {{0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 0, 0, 0, 1, 0, 0, 0, 1}}, 2);
  const TriangleMesh m = sov::urdf::loadMesh(writeScratch("solid_binary.stl", bytes));
  const std::vector<std::array<double, 3>> v = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  EXPECT_EQ(m.vertices, v);
  const std::vector<std::array<int, 3>> t = {{0, 1, 2}, {0, 2, 3}};
  EXPECT_EQ(m.triangles, t);
}

TEST(UrdfMesh, ObjFaceVariantsNegativeIndicesAndPolygons) {
  const std::string text =
      "# comment\n"
      "mtllib none.mtl\no thing\ng group\ns off\nusemtl red\n"
      "v 0 0 0\nv 1 0 0\nv 1 1 0 1.0\nv 0 1 0   # trailing comment\n"
      "vt 0 0\nvn 0 0 1\n"
      "f 1 2 3\n"
      "f 1/1 2/1 3/1\n"
      "f 1//1 2//1 3//1\n"
      "f 1/1/1 2/1/1 3/1/1\n"
      "f -4 -3 -2\n"
      "f 1 2 3 4\n"
      "l 1 2\n";
  const TriangleMesh m = sov::urdf::loadMesh(writeScratch("variants.obj", text));
  const std::vector<std::array<double, 3>> v = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  EXPECT_EQ(m.vertices, v);
  const std::vector<std::array<int, 3>> t = {{0, 1, 2}, {0, 1, 2}, {0, 1, 2}, {0, 1, 2},
                                             {0, 1, 2}, {0, 1, 2}, {0, 2, 3}};
  EXPECT_EQ(m.triangles, t);
}

TEST(UrdfMesh, UnreadableFileIsAnIoError) {
  const std::string path = scratch("does_not_exist.stl");
  expectError(errorOf([&] { sov::urdf::loadMesh(path); }), SOV_URDF_ERR_IO, path, 0,
              {"cannot read"});
}

TEST(UrdfMesh, ColladaAndUnknownFormatsAreRefused) {
  const std::string dae = writeScratch("mesh.dae", "<COLLADA/>");
  expectError(errorOf([&] { sov::urdf::loadMesh(dae); }), SOV_URDF_ERR_IO, dae, 0,
              {"COLLADA (.dae) meshes are not supported"});
  const std::string ply = writeScratch("mesh.ply", "ply\n");
  expectError(errorOf([&] { sov::urdf::loadMesh(ply); }), SOV_URDF_ERR_IO, ply, 0,
              {"unsupported mesh format '.ply'"});
  const std::string none = writeScratch("mesh_without_extension", "");
  expectError(errorOf([&] { sov::urdf::loadMesh(none); }), SOV_URDF_ERR_IO, none, 0,
              {"unsupported mesh format ''"});
}

TEST(UrdfMesh, TruncatedBinaryStlGivesTheExpectedSize) {
  std::string bytes = binaryStl("binary", {{0, 0, 0, 1, 0, 0, 0, 1, 0}}, 2);
  const std::string path = writeScratch("truncated.stl", bytes);
  expectError(errorOf([&] { sov::urdf::loadMesh(path); }), SOV_URDF_ERR_MODEL, path, 0,
              {"binary STL of 2 triangles should have 184 bytes, the file has 134"});
  const std::string tiny = writeScratch("tiny.stl", "abc");
  expectError(errorOf([&] { sov::urdf::loadMesh(tiny); }), SOV_URDF_ERR_MODEL, tiny, 0,
              {"not an STL"});
}

TEST(UrdfMesh, NonFiniteBinaryStlCoordinateNamesTheTriangle) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::string bytes =
      binaryStl("binary", {{0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 0, 0, 1, 0, 0, 0, nan, 0}}, 2);
  const std::string path = writeScratch("nan.stl", bytes);
  expectError(errorOf([&] { sov::urdf::loadMesh(path); }), SOV_ERR_NONFINITE, path, 0,
              {"triangle 1: coordinate is not finite"});
}

TEST(UrdfMesh, AsciiStlErrorsNameTheLine) {
  const std::string head = "solid s\nfacet normal 0 0 1\nouter loop\n";
  expectError(loadError("a1.stl", head + "vertex 0 0 zero\n"), SOV_URDF_ERR_MODEL,
              scratch("a1.stl"), 4, {"'zero' is not a number"});
  expectError(loadError("a2.stl", head + "vertex 0 0\n"), SOV_URDF_ERR_MODEL, scratch("a2.stl"), 4,
              {"'vertex' needs three coordinates"});
  expectError(loadError("a3.stl", head + "vertex 0 0 inf\n"), SOV_ERR_NONFINITE, scratch("a3.stl"),
              4, {"'vertex': coordinate is not finite"});
  expectError(loadError("a4.stl",
                        head + "vertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nvertex 1 1 0\nendloop\n"),
              SOV_URDF_ERR_MODEL, scratch("a4.stl"), 8, {"a facet has 4 vertices, not 3"});
  expectError(loadError("a5.stl", head + "vertex 0 0 0\nvertx 1 0 0\n"), SOV_URDF_ERR_MODEL,
              scratch("a5.stl"), 5, {"unexpected 'vertx'"});
  expectError(loadError("a6.stl", "solid s\nvertex 0 0 0\n"), SOV_URDF_ERR_MODEL, scratch("a6.stl"),
              2, {"'vertex' outside 'outer loop'"});
  expectError(loadError("a7.stl", head + "vertex 0 0 0\n"), SOV_URDF_ERR_MODEL, scratch("a7.stl"),
              0, {"the file ends inside a facet"});
}

TEST(UrdfMesh, ObjErrorsNameTheLine) {
  const std::string v = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  expectError(loadError("o1.obj", v + "f 1 2 4\n"), SOV_URDF_ERR_MODEL, scratch("o1.obj"), 4,
              {"vertex index 4 is out of range (3 vertices so far)"});
  expectError(loadError("o2.obj", v + "f 0 1 2\n"), SOV_URDF_ERR_MODEL, scratch("o2.obj"), 4,
              {"vertex index 0 is out of range"});
  expectError(loadError("o3.obj", v + "f -4 1 2\n"), SOV_URDF_ERR_MODEL, scratch("o3.obj"), 4,
              {"vertex index -4 is out of range"});
  expectError(loadError("o4.obj", v + "f 1/a 2 3\n"), SOV_URDF_ERR_MODEL, scratch("o4.obj"), 4,
              {"'1/a' is not a face vertex"});
  expectError(loadError("o5.obj", v + "f 1/1/1/1 2 3\n"), SOV_URDF_ERR_MODEL, scratch("o5.obj"), 4,
              {"'1/1/1/1' is not a face vertex"});
  expectError(loadError("o6.obj", v + "f 1 2\n"), SOV_URDF_ERR_MODEL, scratch("o6.obj"), 4,
              {"a face needs at least 3 vertices, this one has 2"});
  expectError(loadError("o7.obj", "v 0 0\n"), SOV_URDF_ERR_MODEL, scratch("o7.obj"), 1,
              {"'v' needs three coordinates"});
  expectError(loadError("o8.obj", "v 0 0 1x\n"), SOV_URDF_ERR_MODEL, scratch("o8.obj"), 1,
              {"'1x' is not a number"});
  expectError(loadError("o9.obj", v + "v nan 0 0\n"), SOV_ERR_NONFINITE, scratch("o9.obj"), 4,
              {"'v': coordinate is not finite"});
}

TEST(UrdfMesh, MeshWithoutTrianglesIsRefused) {
  expectError(loadError("empty.obj", "v 0 0 0\n"), SOV_URDF_ERR_MODEL, scratch("empty.obj"), 0,
              {"the mesh has no triangles"});
  const std::string path = writeScratch("empty.stl", binaryStl("binary", {}, 0));
  expectError(errorOf([&] { sov::urdf::loadMesh(path); }), SOV_URDF_ERR_MODEL, path, 0,
              {"the mesh has no triangles"});
}

TEST(UrdfMesh, NonFiniteScaleIsRefused) {
  const std::string path = writeScratch("scaled.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  const double inf = std::numeric_limits<double>::infinity();
  expectError(errorOf([&] {
                sov::urdf::loadMesh(path, {1, inf, 1});
              }),
              SOV_ERR_NONFINITE, path, 0, {"the mesh scale is not finite"});
}

TEST(UrdfMesh, SaveErrors) {
  const TriangleMesh m = sampleMesh();
  const std::string ply = scratch("out.ply");
  expectError(errorOf([&] { sov::urdf::saveMesh(ply, m); }), SOV_URDF_ERR_IO, ply, 0,
              {"cannot write mesh format '.ply'"});
  const std::string missing_dir = scratch("no_such_folder/out.stl");
  expectError(errorOf([&] { sov::urdf::saveMesh(missing_dir, m); }), SOV_URDF_ERR_IO, missing_dir,
              0, {"cannot write"});
  TriangleMesh bad = m;
  bad.triangles.push_back({0, 1, static_cast<int>(m.vertices.size())});
  const std::string obj = scratch("bad_index.obj");
  expectError(errorOf([&] { sov::urdf::saveMesh(obj, bad); }), SOV_URDF_ERR_MODEL, obj, 0,
              {"has vertex index " + std::to_string(m.vertices.size()) + ", out of range"});
  TriangleMesh inf = m;
  inf.vertices[3][1] = std::numeric_limits<double>::infinity();
  expectError(errorOf([&] { sov::urdf::saveMesh(obj, inf); }), SOV_ERR_NONFINITE, obj, 0,
              {"vertex 3 is not finite"});
}

TEST(UrdfMesh, ResolveMeshUri) {
  const std::map<std::string, std::string> packages{{"arm", "/opt/arm"}};
  EXPECT_EQ(sov::urdf::resolveMeshUri("package://arm/meshes/a.stl", "/urdf", packages),
            "/opt/arm/meshes/a.stl");
  EXPECT_EQ(sov::urdf::resolveMeshUri("file:///abs/a.obj", "/urdf", packages), "/abs/a.obj");
  EXPECT_EQ(sov::urdf::resolveMeshUri("meshes/a.stl", "/urdf", packages), "/urdf/meshes/a.stl");
  EXPECT_EQ(sov::urdf::resolveMeshUri("meshes/a.stl", "", packages), "meshes/a.stl");
  EXPECT_EQ(sov::urdf::resolveMeshUri("/abs/a.stl", "/urdf", packages), "/abs/a.stl");
  const auto refused = [&](const std::string& uri, const std::string& why) {
    expectError(errorOf([&] { sov::urdf::resolveMeshUri(uri, "/urdf", packages); }),
                SOV_URDF_ERR_IO, uri, 0, {why});
  };
  refused("package://other/a.stl", "package 'other' is not in the package paths");
  refused("package://arm", "a package URI reads package://name/path");
  refused("package://arm/", "a package URI reads package://name/path");
  refused("http://example.com/a.stl", "unsupported URI scheme");
  refused("", "no file name");
}

}  // namespace
