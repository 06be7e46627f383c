// Mesh reading through assimp (binary and ASCII STL, OBJ, COLLADA with its
// unit and node transforms and Z kept up, PLY), writing (binary STL, OBJ),
// tessellation through the C API, and every error of loadMesh/saveMesh.
#include "superovoid/urdf/mesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <map>
#include <string>
#include <utility>
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
void expectMeshError(const Error& e, int status, const std::string& path, int line,
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

// A triangle as its three corners, rotated so that the smallest comes first
// (the same triangle whatever corner a reader starts it at).
using Corners = std::array<std::array<double, 3>, 3>;
Corners corners(const TriangleMesh& m, const std::array<int, 3>& t) {
  Corners c{m.vertices[t[0]], m.vertices[t[1]], m.vertices[t[2]]};
  while (!(c[0] <= c[1] && c[0] <= c[2])) std::rotate(c.begin(), c.begin() + 1, c.end());
  return c;
}

// The triangles of m by their corners, sorted: equal for two meshes with the
// same triangles (same orientation), whatever their indexing and order.
std::vector<Corners> triangleSet(const TriangleMesh& m) {
  std::vector<Corners> out;
  for (const auto& t : m.triangles) out.push_back(corners(m, t));
  std::sort(out.begin(), out.end());
  return out;
}

// m with every coordinate rounded to float, then multiplied by scale.
TriangleMesh asFloat(TriangleMesh m, const std::array<double, 3>& scale = {1, 1, 1}) {
  for (auto& v : m.vertices) {
    for (int k = 0; k < 3; ++k) v[k] = scale[k] * static_cast<double>(static_cast<float>(v[k]));
  }
  return m;
}

// assimp reads in single precision (Debian builds it without
// ASSIMP_DOUBLE_PRECISION): coordinates come back as floats.
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

// OBJ holds shortest round-trip decimals; assimp parses them to the nearest
// float or next to it (its own decimal reader): within one float ulp.
TEST(UrdfMesh, ObjRoundTripWithinAFloatUlp) {
  const TriangleMesh m = sampleMesh();
  const std::string path = scratch("round.obj");
  sov::urdf::saveMesh(path, m);
  const TriangleMesh back = sov::urdf::loadMesh(path);
  ASSERT_EQ(back.vertices.size(), m.vertices.size());
  ASSERT_EQ(back.triangles.size(), m.triangles.size());
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    for (int i = 0; i < 3; ++i) {
      for (int k = 0; k < 3; ++k) {
        const double x = m.vertices[m.triangles[t][i]][k];
        const double y = back.vertices[back.triangles[t][i]][k];
        const float fx = static_cast<float>(x);
        EXPECT_LE(std::abs(y - fx), std::abs(std::nextafter(fx, 2 * fx + 1) - fx))
            << "triangle " << t << " corner " << i;
      }
    }
  }
}

TEST(UrdfMesh, ScaleMultipliesEachAxis) {
  const TriangleMesh m = sampleMesh();
  const std::string path = scratch("scale.stl");
  sov::urdf::saveMesh(path, m);
  const std::array<double, 3> scale{2.0, -1.0, 0.5};
  EXPECT_EQ(triangleSet(sov::urdf::loadMesh(path, scale)), triangleSet(asFloat(m, scale)));
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

// Face forms, negative indices, a polygon (triangulated), lines and other
// records (ignored: no surface).
TEST(UrdfMesh, ObjFaceVariantsNegativeIndicesAndPolygons) {
  const std::string text =
      "# comment\n"
      "o thing\ng group\ns off\n"
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0   # trailing comment\n"
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
  TriangleMesh expected;
  expected.vertices = v;
  expected.triangles = {{0, 1, 2}, {0, 1, 2}, {0, 1, 2}, {0, 1, 2},
                        {0, 1, 2}, {0, 1, 2}, {0, 2, 3}};
  EXPECT_EQ(m.vertices.size(), 4u);
  EXPECT_EQ(triangleSet(m), triangleSet(expected));
}

// COLLADA as ROS reads it: the <unit> applied (millimetres here), the node
// transforms applied, and Z kept up (assimp would otherwise turn a Z_UP file
// to Y up).
TEST(UrdfMesh, ColladaAppliesUnitAndNodesAndKeepsZUp) {
  const std::string dae = R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="millimeter" meter="0.001"/><up_axis>Z_UP</up_axis></asset>
  <library_geometries>
    <geometry id="tri"><mesh>
      <source id="tri-pos"><float_array id="tri-pos-array" count="9">0 0 0 10 0 0 0 0 20</float_array>
        <technique_common><accessor source="#tri-pos-array" count="3" stride="3">
          <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
        </accessor></technique_common></source>
      <vertices id="tri-vtx"><input semantic="POSITION" source="#tri-pos"/></vertices>
      <triangles count="1"><input semantic="VERTEX" source="#tri-vtx" offset="0"/><p>0 1 2</p></triangles>
    </mesh></geometry>
  </library_geometries>
  <library_visual_scenes><visual_scene id="scene">
    <node id="n"><translate>0 30 0</translate><instance_geometry url="#tri"/></node>
  </visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
)";
  const TriangleMesh m = sov::urdf::loadMesh(writeScratch("tri.dae", dae), {2, 1, 1});
  TriangleMesh expected;
  expected.vertices = {{0, 0.03, 0}, {0.02, 0.03, 0}, {0, 0.03, 0.02}};
  expected.triangles = {{0, 1, 2}};
  ASSERT_EQ(m.triangles.size(), 1u);
  const Corners got = corners(m, m.triangles[0]), want = corners(expected, expected.triangles[0]);
  // assimp scales and moves in float: within a float epsilon of the size.
  const double tolerance = 0.04 * std::numeric_limits<float>::epsilon();
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(got[i][k], want[i][k], tolerance) << "corner " << i;
  }
}

// Whatever else assimp reads: an ASCII PLY.
TEST(UrdfMesh, PlyIsReadThroughAssimp) {
  const std::string ply =
      "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\n"
      "property float z\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n"
      "0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 1 2\n3 0 2 3\n";
  const TriangleMesh m = sov::urdf::loadMesh(writeScratch("mesh.ply", ply));
  TriangleMesh expected;
  expected.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  expected.triangles = {{0, 1, 2}, {0, 2, 3}};
  EXPECT_EQ(triangleSet(m), triangleSet(expected));
}

TEST(UrdfMesh, UnreadableFileIsAnIoError) {
  const std::string path = scratch("does_not_exist.stl");
  expectMeshError(errorOf([&] { sov::urdf::loadMesh(path); }), SOV_URDF_ERR_IO, path, 0,
                  {"cannot read"});
  const std::string folder = ::testing::TempDir();
  expectMeshError(errorOf([&] { sov::urdf::loadMesh(folder); }), SOV_URDF_ERR_IO, folder, 0,
                  {"cannot read"});
}

// Content assimp cannot read: its message, after the file's name.
TEST(UrdfMesh, MalformedFilesNameTheFileAndAssimpsReason) {
  for (const auto& [name, bytes] : std::vector<std::pair<std::string, std::string>>{
           {"tiny.stl", "abc"},
           {"truncated.stl", binaryStl("binary", {{0, 0, 0, 1, 0, 0, 0, 1, 0}}, 2)},
           {"empty.dae", "<COLLADA/>"},
           {"unknown.xyz", "not a mesh"},
           {"mesh_without_extension", ""}}) {
    expectMeshError(loadError(name, bytes), SOV_URDF_ERR_MODEL, scratch(name), 0,
                    {"assimp cannot read the mesh: "});
  }
}

TEST(UrdfMesh, NonFiniteCoordinateNamesTheFace) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::string bytes =
      binaryStl("binary", {{0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 0, 0, 1, 0, 0, 0, nan, 0}}, 2);
  const std::string path = writeScratch("nan.stl", bytes);
  expectMeshError(errorOf([&] { sov::urdf::loadMesh(path); }), SOV_ERR_NONFINITE, path, 0,
                  {"face 1: a coordinate is not finite"});
}

TEST(UrdfMesh, MeshWithoutTrianglesIsRefused) {
  const std::string lines = writeScratch("lines.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nl 1 2 3\n");
  const Error e = errorOf([&] { sov::urdf::loadMesh(lines); });
  EXPECT_EQ(e.status(), SOV_URDF_ERR_MODEL) << e.what();
  EXPECT_EQ(e.where().source, lines);
  const std::string path = writeScratch("empty.stl", binaryStl("binary", {}, 0));
  const Error f = errorOf([&] { sov::urdf::loadMesh(path); });
  EXPECT_EQ(f.status(), SOV_URDF_ERR_MODEL) << f.what();
  EXPECT_EQ(f.where().source, path);
}

// The iCub's COLLADA meshes (../shared/data/robots/icub/meshes) read as
// their STL conversions (meshes_stl: the DAE triangles as written, Z up,
// float32): the same triangles in the same order, to one float rounding of
// each coordinate (the STL is rounded once, assimp's decimal reader may end
// one float off).
TEST(UrdfMeshRobots, ICubColladaIsItsStlConversion) {
  const std::string dir = SOV_SHARED_DATA_DIR "/robots/icub";
  if (!std::filesystem::exists(dir + "/meshes_stl")) {
    GTEST_SKIP() << dir << " is absent (shared robot data, not in a fresh clone)";
  }
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/meshes")) {
    const std::string stem = entry.path().stem().string();
    const std::string stl = dir + "/meshes_stl/" + stem + ".stl";
    if (entry.path().extension() != ".dae" || !std::filesystem::exists(stl)) continue;
    const TriangleMesh a = sov::urdf::loadMesh(entry.path().string());
    const TriangleMesh b = sov::urdf::loadMesh(stl);
    ASSERT_EQ(a.triangles.size(), b.triangles.size()) << stem;
    for (std::size_t t = 0; t < a.triangles.size(); ++t) {
      for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) {
          const double x = a.vertices[a.triangles[t][i]][k];
          const double y = b.vertices[b.triangles[t][i]][k];
          EXPECT_LE(std::abs(x - y), 2 * std::numeric_limits<float>::epsilon() * std::abs(y))
              << stem << " triangle " << t;
        }
      }
    }
    ++files;
  }
  EXPECT_EQ(files, 88);
}

TEST(UrdfMesh, NonFiniteScaleIsRefused) {
  const std::string path = writeScratch("scaled.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  const double inf = std::numeric_limits<double>::infinity();
  expectMeshError(errorOf([&] {
                    sov::urdf::loadMesh(path, {1, inf, 1});
                  }),
                  SOV_ERR_NONFINITE, path, 0, {"the mesh scale is not finite"});
}

TEST(UrdfMesh, SaveErrors) {
  const TriangleMesh m = sampleMesh();
  const std::string ply = scratch("out.ply");
  expectMeshError(errorOf([&] { sov::urdf::saveMesh(ply, m); }), SOV_URDF_ERR_IO, ply, 0,
                  {"cannot write mesh format '.ply'"});
  const std::string missing_dir = scratch("no_such_folder/out.stl");
  expectMeshError(errorOf([&] { sov::urdf::saveMesh(missing_dir, m); }), SOV_URDF_ERR_IO,
                  missing_dir, 0, {"cannot write"});
  TriangleMesh bad = m;
  bad.triangles.push_back({0, 1, static_cast<int>(m.vertices.size())});
  const std::string obj = scratch("bad_index.obj");
  expectMeshError(errorOf([&] { sov::urdf::saveMesh(obj, bad); }), SOV_URDF_ERR_MODEL, obj, 0,
                  {"has vertex index " + std::to_string(m.vertices.size()) + ", out of range"});
  TriangleMesh inf = m;
  inf.vertices[3][1] = std::numeric_limits<double>::infinity();
  expectMeshError(errorOf([&] { sov::urdf::saveMesh(obj, inf); }), SOV_ERR_NONFINITE, obj, 0,
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
  // URIs are percent-decoded (as ROS's resource_retriever reads them), plain paths are not.
  EXPECT_EQ(sov::urdf::resolveMeshUri("file:///abs/with%20space%C3%BC%25.stl", "/urdf", packages),
            "/abs/with space\xC3\xBC%.stl");
  EXPECT_EQ(sov::urdf::resolveMeshUri("package://arm/a%2Fb%2e.stl", "/urdf", packages),
            "/opt/arm/a/b..stl");
  EXPECT_EQ(sov::urdf::resolveMeshUri("file://meshes/a%20b.stl", "/urdf", packages),
            "/urdf/meshes/a b.stl");
  EXPECT_EQ(sov::urdf::resolveMeshUri("meshes/a%20b.stl", "/urdf", packages),
            "/urdf/meshes/a%20b.stl");
  const auto refused = [&](const std::string& uri, const std::string& why) {
    expectMeshError(errorOf([&] { sov::urdf::resolveMeshUri(uri, "/urdf", packages); }),
                    SOV_URDF_ERR_IO, uri, 0, {why});
  };
  refused("package://other/a.stl", "package 'other' is not in the package paths");
  refused("package://arm", "a package URI reads package://name/path");
  refused("package://arm/", "a package URI reads package://name/path");
  refused("http://example.com/a.stl", "unsupported URI scheme");
  refused("", "no file name");
  refused("file:///abs/a%2.stl", "malformed percent escape '%2.' (a '%' is written %25 in a URI)");
  refused("file:///abs/a%zz.stl", "malformed percent escape '%zz'");
  refused("package://arm/a.stl%", "malformed percent escape '%'");
  refused("file:///abs/a%00.stl", "percent escape %00: no file name holds a NUL");
}

// Package folders from a command line or a script are the current
// directory's (the library takes a relative one against the URDF's folder):
// sov-urdf-fit, sov-query and sov_make_srdf read --package through
// addPackagePath, Python's packages= through packagePathsFromHere.
TEST(UrdfMesh, PackageFoldersFromTheCurrentDirectory) {
  const std::string here = std::filesystem::current_path().string();
  std::map<std::string, std::string> paths;
  EXPECT_TRUE(sov::urdf::addPackagePath("arm=meshes/arm", &paths));
  EXPECT_TRUE(sov::urdf::addPackagePath("abs=/opt/abs", &paths));
  EXPECT_EQ(paths.at("arm"), here + "/meshes/arm");
  EXPECT_EQ(paths.at("abs"), "/opt/abs");
  for (const char* bad : {"arm", "=dir", "arm=", ""}) {
    EXPECT_FALSE(sov::urdf::addPackagePath(bad, &paths)) << bad;
  }
  EXPECT_EQ(paths.size(), 2u);
  const auto from_here = sov::urdf::packagePathsFromHere({{"arm", "meshes/arm"}, {"abs", "/opt"}});
  EXPECT_EQ(from_here.at("arm"), here + "/meshes/arm");
  EXPECT_EQ(from_here.at("abs"), "/opt");
}

}  // namespace
