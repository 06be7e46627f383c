// sov-query: distance output against sov_distance called directly, exported
// meshes on the posed surfaces, and the documented exit statuses.
#include <gtest/gtest.h>
#include <superovoid/fcl.h>
#include <superovoid/urdf/mesh.h>
#include <superovoid/urdf/model.h>
#include <superovoid/urdf/scene.h>

#include <array>
#include <cmath>
#include <fcl/geometry/shape/sphere.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "examples_test_util.h"

namespace {

using sov_test::examplePath;
using sov_test::runQuery;
using sov_test::scratchDir;

// |F| at vertices written as shortest round-trip decimals (OBJ): the
// vertices are sov_shape_point's, on the surface to rounding.
constexpr double kOnSurface = 1e-9;
// |distance| of a vertex from a primitive's surface (FCL's own meshing).
constexpr double kOnPrimitive = 1e-12;

// "key = numbers" lines of a query's output.
std::map<std::string, std::vector<double>> parseOutput(const std::string& out) {
  std::map<std::string, std::vector<double>> values;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, eq);
    key.erase(key.find_last_not_of(' ') + 1);
    std::istringstream nums(line.substr(eq + 1));
    double v;
    while (nums >> v) values[key].push_back(v);
  }
  return values;
}

// "line" of the output starting with key ("" if none).
std::string outputLine(const std::string& out, const std::string& key) {
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, key.size(), key) == 0) return line;
  return "";
}

std::string join(const double* v, int n) {
  std::ostringstream s;
  s.precision(17);
  for (int i = 0; i < n; ++i) s << (i ? " " : "") << v[i];
  return s.str();
}

// A random valid shape and pose (unit scale, convex: tapers kept small).
struct PosedParams {
  double params[7];
  double q[4];
  double p[3];
};

PosedParams randomPosedParams(std::mt19937& rng) {
  std::uniform_real_distribution<double> size(0.3, 1.2), eps(0.3, 1.6), taper(-0.2, 0.2),
      pos(-1.5, 1.5), normal(-1, 1);
  PosedParams b;
  const double t = taper(rng);
  const double params[7] = {size(rng), size(rng), size(rng), eps(rng), eps(rng), t, t};
  std::copy(params, params + 7, b.params);
  double n = 0;
  for (double& c : b.q) {
    c = normal(rng);
    n += c * c;
  }
  for (double& c : b.q) c /= std::sqrt(n);
  for (double& c : b.p) c = pos(rng);
  return b;
}

// The tool prints what sov_distance returns, to the last bit (%.17g).
TEST(SovQuery, DistanceIsTheCApisAnswer) {
  std::mt19937 rng(20261122);
  int answered = 0;
  for (int k = 0; k < 12; ++k) {
    const PosedParams a = randomPosedParams(rng), b = randomPosedParams(rng);
    sov_shape A, B;
    sov_pose XA, XB;
    if (sov_shape_init(&A, a.params) || sov_shape_init(&B, b.params)) continue;
    ASSERT_EQ(sov_pose_from_quat(&XA, a.q, a.p), SOV_OK);
    ASSERT_EQ(sov_pose_from_quat(&XB, b.q, b.p), SOV_OK);
    sov_result r;
    const int status = sov_distance(&r, &A, &XA, &B, &XB, nullptr, nullptr);
    const sov_test::ToolRun run = runQuery(
        "--a '" + join(a.params, 7) + "' --pose-a '" + join(a.p, 3) + " " + join(a.q, 4) +
        "' --b '" + join(b.params, 7) + "' --pose-b '" + join(b.p, 3) + " " + join(b.q, 4) + "'");
    if (status != SOV_OK) {
      EXPECT_EQ(run.status, 3);
      continue;
    }
    ASSERT_EQ(run.status, 0) << run.err;
    auto v = parseOutput(run.out);
    ASSERT_EQ(v["d"].size(), 1u);
    EXPECT_EQ(v["d"][0], r.d);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(v["n"][i], r.n[i]);
      EXPECT_EQ(v["pA"][i], r.pA[i]);
      EXPECT_EQ(v["pB"][i], r.pB[i]);
    }
    EXPECT_EQ(v["iterations"][0], r.iterations);
    EXPECT_EQ(outputLine(run.out, "method"),
              std::string("method     = ") + sov_method_name(r.method));
    EXPECT_EQ(outputLine(run.out, "status"), "status     = success (0)");
    ++answered;
  }
  EXPECT_GE(answered, 6);
}

TEST(SovQuery, PairFileAndMethodOption) {
  const double a[7] = {0.5, 0.4, 0.7, 0.8, 1.0, 0.3, 0.3}, b[7] = {0.8, 0.5, 0.3, 1, 1, 0, 0};
  const double q[4] = {1, 0, 0, 0}, pa[3] = {0, 0, 0}, pb[3] = {1.5, 0.2, 0};
  const std::string file = scratchDir("pair") + "/pair.txt";
  std::ofstream(file) << "# a pair\na " << join(a, 7) << "   # tapered\npose_a 0 0 0\n\nb "
                      << join(b, 5) << "\npose_b 1.5 0.2 0 1 0 0 0\nmethod implicit\n";
  sov_shape A, B;
  sov_pose XA, XB;
  ASSERT_EQ(sov_shape_init(&A, a), SOV_OK);
  ASSERT_EQ(sov_shape_init(&B, b), SOV_OK);
  ASSERT_EQ(sov_pose_from_quat(&XA, q, pa), SOV_OK);
  ASSERT_EQ(sov_pose_from_quat(&XB, q, pb), SOV_OK);
  sov_options options;
  sov_options_default(&options);
  options.method = SOV_METHOD_IMPLICIT;
  sov_result r;
  ASSERT_EQ(sov_distance(&r, &A, &XA, &B, &XB, &options, nullptr), SOV_OK);
  const sov_test::ToolRun run = runQuery("--file '" + file + "'");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(parseOutput(run.out)["d"][0], r.d);
  EXPECT_EQ(outputLine(run.out, "method"), "method     = implicit");
}

// Exit statuses: 1 invalid input (with sov_shape_explain's text for shapes),
// 2 misuse, 3 solver failure.
TEST(SovQuery, ErrorsExitWithTheDocumentedStatus) {
  const double bad[7] = {1, 1, 1, 1, 1.9, 0.5, 0.5};
  char why[256];
  ASSERT_EQ(sov_shape_explain(why, sizeof why, bad), SOV_ERR_NONCONVEX);
  sov_test::ToolRun run = runQuery("--a '" + join(bad, 7) + "' --b '1 1 1 1 1'");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find(why), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("--a"), std::string::npos) << run.err;
  EXPECT_TRUE(run.out.empty());

  run = runQuery("--a '1 1 1 2.5 1' --b '1 1 1 1 1'");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find("eps1 = 2.5"), std::string::npos) << run.err;
  EXPECT_EQ(runQuery("--a '1 1 1 1' --b '1 1 1 1 1'").status, 1);  // 4 numbers
  EXPECT_EQ(runQuery("--a '1 1 1 1 x' --b '1 1 1 1 1'").status, 1);
  EXPECT_EQ(runQuery("--a '1 1 1 1 1' --b '1 1 1 1 1' --pose-b '0 0 0 1 0 0 0.1'").status, 1);
  EXPECT_EQ(runQuery("--a '1 1 1 1 1' --b '1 1 1 1 1' --method newton").status, 1);
  EXPECT_EQ(runQuery("--file '" + scratchDir("pair") + "/missing.txt'").status, 1);

  EXPECT_EQ(runQuery("").status, 2);
  EXPECT_EQ(runQuery("--a '1 1 1 1 1'").status, 2);
  EXPECT_EQ(runQuery("--a '1 1 1 1 1' --b '1 1 1 1 1' --bogus 1").status, 2);
  EXPECT_EQ(runQuery("--a '1 1 1 1 1' --b '1 1 1 1 1' --export x.obj").status, 2);
  EXPECT_EQ(runQuery("--shape '1 1 1 1 1'").status, 2);
  EXPECT_EQ(runQuery("--shape '1 1 1 1 1' --export x.obj --resolution '1 3'").status, 1);
  EXPECT_EQ(runQuery("--mesh-twin '" + examplePath("hand.urdf") + "'").status, 2);  // no --out-dir
  EXPECT_EQ(runQuery("--urdf '" + examplePath("hand.urdf") + "' --export x.stl --srdf s").status,
            2);  // an SRDF is for queries
  EXPECT_EQ(runQuery("--a '1 1 1 1 1' --b '1 1 1 1 1' --margin 1").status, 2);
  EXPECT_EQ(runQuery("--urdf '" + examplePath("hand.urdf") + "' --package x").status, 2);
  EXPECT_EQ(runQuery("--urdf '" + examplePath("missing.urdf") + "' --export x.stl").status, 1);
  run = runQuery("--urdf '" + examplePath("hand.urdf") +
                 "' --joints 'index_middle=9' --export x.stl");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find("index_middle"), std::string::npos) << run.err;

  // Coaxial prolate spheroids at one centre: the study's implicit scheme,
  // from its quadtree guess, lands on a common-normal pair that is not the
  // answer, which its default certificate reports as an error status.
  const double prolate[7] = {1, 1, 2, 1, 1, 0, 0};
  const double q[4] = {1, 0, 0, 0}, p[3] = {0, 0, 0};
  sov_shape A;
  sov_pose X;
  sov_options options;
  sov_result r;
  ASSERT_EQ(sov_shape_init(&A, prolate), SOV_OK);
  ASSERT_EQ(sov_pose_from_quat(&X, q, p), SOV_OK);
  sov_options_default(&options);
  options.method = SOV_METHOD_IMPLICIT;
  const int status = sov_distance(&r, &A, &X, &A, &X, &options, nullptr);
  ASSERT_LT(status, 0);
  run = runQuery("--a '1 1 2 1 1' --b '1 1 2 1 1' --method implicit");
  EXPECT_EQ(run.status, 3);
  EXPECT_NE(run.out.find(sov_status_string(status)), std::string::npos) << run.out;
}

// A bad value in a pair file is reported with its file and line.
TEST(SovQuery, PairFileErrorsNameTheLine) {
  const std::string file = scratchDir("pair") + "/bad.txt";
  std::ofstream(file) << "# comment\na 1 1 1 1 1\n\nb 1 1 1 1 x\n";
  const sov_test::ToolRun run = runQuery("--file '" + file + "'");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find(file + ":4: b: 'x' is not a finite number"), std::string::npos) << run.err;
  std::ofstream(file) << "a 1 1 1 1 1\nb 1 1 1 1 1\npose_b 0 0 0 2 0 0 0\n";
  EXPECT_NE(runQuery("--file '" + file + "'").err.find(file + ":3: pose_b: "), std::string::npos);
}

// The rows of a robot query's table: kind, link1, #, link2, #, distance.
struct Row {
  std::string kind, link1, link2;
  std::size_t c1 = 0, c2 = 0;
  double d = 0;
};
std::vector<Row> tableRows(const std::string& out) {
  std::vector<Row> rows;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    Row r;
    if (!(words >> r.kind)) continue;
    if (r.kind != "self-min" && r.kind != "self" && r.kind != "env-min" && r.kind != "env")
      continue;
    words >> r.link1 >> r.c1 >> r.link2 >> r.c2 >> r.d;
    rows.push_back(r);
  }
  return rows;
}

// A robot query prints the scene's answers at the configuration, with the
// SRDF and obstacles applied: its minimum, every pair within the margin,
// the same against the obstacles, and the collision summary.
TEST(SovQuery, RobotQueryIsTheScenesAnswer) {
  const std::string joints = "index_proximal=0.7,index_middle=0.9,thumb_rotation=-0.3";
  const sov_test::ToolRun run = runQuery(
      "--urdf '" + examplePath("hand.urdf") + "' --srdf '" + examplePath("hand.srdf") +
      "' --joints '" + joints + "' --margin 0.005 --obstacle 'sphere 0.02 @ 0 0.03 0.1'" +
      " --obstacle 'superovoid 0.014 0.014 0.05 1 0.3 @ 0 0.02 0.12'");
  ASSERT_EQ(run.status, 0) << run.err;
  sov::urdf::Scene scene(examplePath("hand.urdf"));
  scene.setJointPositions({{"index_proximal", 0.7}, {"index_middle", 0.9}, {"thumb_rotation", -0.3}});
  const sov::urdf::SrdfReport report = scene.loadSrdf(examplePath("hand.srdf"));
  EXPECT_NE(run.out.find(std::to_string(report.disabled) + " pairs disabled"), std::string::npos);
  fcl::CollisionObject<double> sphere(std::make_shared<fcl::Sphere<double>>(0.02));
  sphere.setTranslation(Eigen::Vector3d(0, 0.03, 0.1));
  fcl::CollisionObject<double> bar(std::make_shared<sov::Superovoid>(0.014, 0.014, 0.05, 1, 0.3));
  bar.setTranslation(Eigen::Vector3d(0, 0.02, 0.12));
  for (auto* o : {&sphere, &bar}) o->computeAABB();
  const std::vector<fcl::CollisionObject<double>*> env = {&sphere, &bar};
  std::vector<Row> expected;
  const sov::urdf::PairDistance d = scene.minSelfDistance();
  expected.push_back({"self-min", d.link1, d.link2, d.collision1, d.collision2, d.distance});
  for (const auto& c : scene.contacts(0.005))
    expected.push_back({"self", c.link1, c.link2, c.collision1, c.collision2, c.distance});
  const sov::urdf::PairDistance e = scene.distance(env);
  expected.push_back({"env-min", e.link1, "obstacle", e.collision1, e.collision2, e.distance});
  for (const auto& c : scene.contacts(env, 0.005))
    expected.push_back({"env", c.link1, "obstacle", c.collision1, c.collision2, c.distance});
  const std::vector<Row> rows = tableRows(run.out);
  ASSERT_EQ(rows.size(), expected.size()) << run.out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].kind, expected[i].kind) << i;
    EXPECT_EQ(rows[i].link1, expected[i].link1) << i;
    EXPECT_EQ(rows[i].c1, expected[i].c1) << i;
    EXPECT_EQ(rows[i].link2, expected[i].link2) << i;
    EXPECT_EQ(rows[i].c2, expected[i].c2) << i;
    EXPECT_NEAR(rows[i].d, expected[i].d, 1e-12) << i;
  }
  EXPECT_GT(rows.size(), 6u);  // pairs within the margin, and the obstacles touching
  EXPECT_NE(outputLine(run.out, "collision").find(scene.collides(env) ? "environment: yes"
                                                                       : "environment: no"),
            std::string::npos)
      << run.out;
}

// package:// mesh URIs resolve through --package; robot-query errors name
// what they are about (file and line, obstacle, package).
TEST(SovQuery, RobotQueryPackagesAndErrors) {
  const std::string dir = scratchDir("robot");
  const std::string urdf = dir + "/cubes.urdf";
  std::ofstream(urdf)
      << "<robot name='cubes'>\n<link name='a'><collision><geometry>"
         "<mesh filename='package://fixtures/meshes/cube.stl' scale='0.1 0.1 0.1'/>"
         "</geometry></collision></link>\n"
         "<link name='b'><collision><origin xyz='0.3 0 0'/><geometry><box size='0.1 0.1 0.1'/>"
         "</geometry></collision></link>\n"
         "<joint name='j' type='revolute'>\n<parent link='a'/><child link='b'/>"
         "<axis xyz='0 0 1'/><limit lower='-1' upper='1' effort='1' velocity='1'/></joint>\n"
         "</robot>\n";
  const std::string package = " --package 'fixtures=" SOV_URDF_TEST_DATA_DIR "'";
  sov_test::ToolRun run = runQuery("--urdf '" + urdf + "'" + package);
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("2 links, 2 collision geometries"), std::string::npos) << run.out;
  // A relative DIR is the shell's, from the current directory (it was taken
  // against the URDF's folder, here a scratch folder elsewhere).
  const std::string relative = std::filesystem::relative(SOV_URDF_TEST_DATA_DIR).string();
  ASSERT_FALSE(std::filesystem::path(relative).is_absolute());
  run = runQuery("--urdf '" + urdf + "' --package 'fixtures=" + relative + "'");
  ASSERT_EQ(run.status, 0) << run.err;
  run = runQuery("--urdf '" + urdf + "'");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find("package 'fixtures' is not in the package paths"), std::string::npos)
      << run.err;
  run = runQuery("--urdf '" + urdf + "'" + package + " --joints 'j=2'");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find(urdf + ":4: joint 'j': position 2 is outside"), std::string::npos)
      << run.err;
  run = runQuery("--urdf '" + urdf + "'" + package + " --obstacle 'cone 1 2'");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find("--obstacle 0 'cone 1 2': unknown shape 'cone'"), std::string::npos)
      << run.err;
  run = runQuery("--urdf '" + urdf + "'" + package + " --obstacle 'sphere -1'");
  EXPECT_EQ(run.status, 1);
  run = runQuery("--urdf '" + urdf + "'" + package + " --srdf '" + dir + "/none.srdf'");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find(dir + "/none.srdf: cannot read the file"), std::string::npos) << run.err;
}

// A mesh twin written to another folder names the robot's own meshes from
// there (they were kept relative to the robot's folder, naming nothing). Its
// meshes/<link>_<index>.stl must never replace a file the robot uses: here
// the base's mesh is meshes/tip_0.stl, the name of the tip's twin mesh in
// the robot's own folder, which the twin overwrote with exit status 0.
TEST(SovQuery, MeshTwinNamesTheRobotsMeshesAndNeverWritesOverThem) {
  namespace fs = std::filesystem;
  const fs::path dir = scratchDir("twin_in");
  fs::create_directories(dir / "meshes");
  const fs::path own = dir / "meshes" / "tip_0.stl";
  fs::copy_file(SOV_URDF_TEST_DATA_DIR "/meshes/cube.stl", own,
                fs::copy_options::overwrite_existing);
  const std::string urdf = (dir / "robot.urdf").string();
  std::ofstream(urdf)
      << "<robot name='twin' xmlns:sov='urn:superovoid:urdf:1'>\n"
         "<link name='base'><collision><geometry><mesh filename='meshes/tip_0.stl' "
         "scale='0.1 0.1 0.1'/></geometry></collision></link>\n"
         "<link name='tip'><collision><geometry><sov:superovoid a1='0.02' a2='0.02' a3='0.03' "
         "eps1='1' eps2='0.5'/></geometry></collision></link>\n"
         "<joint name='j' type='fixed'><parent link='base'/><child link='tip'/>"
         "<origin xyz='0.5 0 0'/></joint>\n</robot>\n";
  const std::string before = sov_test::readText(own.string());
  const fs::path out = fs::path(scratchDir("twin_out")) / "sub";
  fs::remove_all(out);
  sov_test::ToolRun run = runQuery("--mesh-twin '" + urdf + "' --out-dir '" + out.string() + "'");
  ASSERT_EQ(run.status, 0) << run.err;
  const sov::urdf::Model twin = sov::urdf::parseFile((out / "robot_mesh.urdf").string());
  const auto& base = twin.urdf->getLink("base")->collision_array;
  ASSERT_EQ(base.size(), 1u);
  const std::string name = static_cast<const urdf::Mesh&>(*base[0]->geometry).filename;
  std::error_code ec;
  EXPECT_TRUE(fs::equivalent(sov::urdf::resolveMeshUri(name, out.string(), {}), own, ec)) << name;
  EXPECT_NO_THROW(sov::urdf::Scene((out / "robot_mesh.urdf").string()));
  // Into the robot's own folder: refused before anything is written.
  fs::remove(dir / "robot_mesh.urdf");
  run = runQuery("--mesh-twin '" + urdf + "' --out-dir '" + dir.string() + "'");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find(dir.string() + "/meshes/tip_0.stl: the twin would write over this file"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(sov_test::readText(own.string()), before);
  EXPECT_FALSE(fs::exists(dir / "robot_mesh.urdf"));
}

// An exported shape is the tessellation, every vertex on the posed surface.
TEST(SovQuery, ShapeExportLiesOnThePosedSurface) {
  const double params[7] = {0.5, 0.4, 0.7, 0.8, 1.0, 0.3, 0.3};
  const double q[4] = {0.5, 0.5, -0.5, 0.5}, p[3] = {1, -2, 0.5};
  sov_shape shape;
  sov_pose pose;
  ASSERT_EQ(sov_shape_init(&shape, params), SOV_OK);
  ASSERT_EQ(sov_pose_from_quat(&pose, q, p), SOV_OK);
  for (const char* ext : {".obj", ".stl"}) {
    const std::string file = scratchDir("export") + "/shape" + ext;
    const sov_test::ToolRun run =
        runQuery("--shape '" + join(params, 7) + "' --pose '" + join(p, 3) + " " + join(q, 4) +
                 "' --export '" + file + "' --resolution '10 20'");
    ASSERT_EQ(run.status, 0) << run.err;
    const sov::urdf::TriangleMesh mesh =
        std::string(ext) == ".obj" ? sov_test::readObj(file) : sov::urdf::loadMesh(file);
    std::size_t nv = 0, nt = 0;
    ASSERT_EQ(sov_shape_tessellation_size(&nv, &nt, 10, 20), SOV_OK);
    EXPECT_EQ(mesh.vertices.size(), nv) << ext;
    EXPECT_EQ(mesh.triangles.size(), nt) << ext;
    const double tolerance = std::string(ext) == ".obj" ? kOnSurface : 1e-5;  // STL: float32
    for (const auto& w : mesh.vertices) {
      double local[3];  // R^T (w - p)
      for (int i = 0; i < 3; ++i) {
        local[i] = 0;
        for (int j = 0; j < 3; ++j) local[i] += pose.R[3 * j + i] * (w[j] - pose.p[j]);
      }
      double F = 0;
      ASSERT_EQ(sov_shape_implicit(&F, nullptr, nullptr, &shape, local), SOV_OK);
      EXPECT_NEAR(F, 0.0, tolerance) << ext;
    }
  }
}

// Signed distance of a point from the surface of an FCL primitive (local
// frame): box, sphere, cylinder along z.
double primitiveSurfaceDistance(const fcl::CollisionGeometry<double>& g, const Eigen::Vector3d& x) {
  if (const auto* b = dynamic_cast<const fcl::Box<double>*>(&g)) {
    const Eigen::Vector3d d = x.cwiseAbs() - b->side / 2;
    return d.maxCoeff();  // 0 on the faces (inside points are not on it)
  }
  if (const auto* s = dynamic_cast<const fcl::Sphere<double>*>(&g)) return x.norm() - s->radius;
  if (const auto* c = dynamic_cast<const fcl::Cylinder<double>*>(&g)) {
    const double side = std::hypot(x.x(), x.y()) - c->radius;
    const double cap = std::abs(x.z()) - c->lz / 2;
    return std::max(side, cap);
  }
  return 1.0;
}

// The posed model: every vertex of the export lies on the surface of one of
// the model's collision geometries at the given joint positions, each
// geometry gets its share of vertices, and the moved finger moved.
TEST(SovQuery, UrdfExportIsThePosedModel) {
  const std::string file = scratchDir("export") + "/posed.obj";
  const std::string joints = "index_proximal=0.7,index_middle=0.9,thumb_rotation=-0.3";
  const sov_test::ToolRun run = runQuery("--urdf '" + examplePath("hand.urdf") + "' --joints '" +
                                         joints + "' --export '" + file + "' --resolution '6 12'");
  ASSERT_EQ(run.status, 0) << run.err;
  const sov::urdf::TriangleMesh mesh = sov_test::readObj(file);

  // The expected pose of every geometry, from kinematics and the URDF.
  const sov::urdf::Model m = sov::urdf::parseFile(examplePath("hand.urdf"));
  const sov::urdf::LinkPoses poses = sov::urdf::forwardKinematics(
      *m.urdf, {{"index_proximal", 0.7}, {"index_middle", 0.9}, {"thumb_rotation", -0.3}});
  sov::urdf::Scene scene(m);  // for the FCL primitives of non-superovoid links
  struct Expected {
    std::string link;
    Eigen::Isometry3d pose;
    const sov::urdf::Superovoid* superovoid;
    std::shared_ptr<const fcl::CollisionGeometry<double>> primitive;
    std::size_t hits = 0;
  };
  std::vector<Expected> expected;
  for (const auto& g : scene.geometries()) {
    const auto& c = *m.urdf->getLink(g.link)->collision_array[g.collision];
    const Eigen::Isometry3d origin =
        Eigen::Translation3d(c.origin.position.x, c.origin.position.y, c.origin.position.z) *
        Eigen::Quaterniond(c.origin.rotation.w, c.origin.rotation.x, c.origin.rotation.y,
                           c.origin.rotation.z);
    expected.push_back({g.link, poses.at(g.link) * origin, m.find(g.link, g.collision),
                        g.object->collisionGeometry()});
  }
  std::size_t nv = 0, nt = 0;
  ASSERT_EQ(sov_shape_tessellation_size(&nv, &nt, 6, 12), SOV_OK);
  for (const auto& w : mesh.vertices) {
    int on = 0;
    for (Expected& e : expected) {
      const Eigen::Vector3d local = e.pose.inverse() * Eigen::Vector3d(w[0], w[1], w[2]);
      bool hit = false;
      if (e.superovoid) {
        double F = 0;
        ASSERT_EQ(sov_shape_implicit(&F, nullptr, nullptr, &e.superovoid->shape, local.data()),
                  SOV_OK);
        hit = std::abs(F) < kOnSurface;
      } else {
        hit = std::abs(primitiveSurfaceDistance(*e.primitive, local)) < kOnPrimitive;
      }
      if (hit) {
        ++e.hits;
        ++on;
      }
    }
    EXPECT_GE(on, 1) << "vertex " << w[0] << " " << w[1] << " " << w[2] << " is on no surface";
  }
  for (const Expected& e : expected) {
    if (!e.superovoid) continue;
    EXPECT_GE(e.hits, nv) << e.link << " is not where the kinematics put it";
  }
}

// Mesh links are exported as loaded: the mesh twin's export is the
// tessellated superovoids, posed, plus the cylinder wrist.
TEST(SovQuery, UrdfExportIncludesMeshLinks) {
  const std::string file = scratchDir("export") + "/twin.obj";
  const std::string twin = std::string(SOV_EXAMPLES_BUILD_DIR) + "/hand_mesh/hand_mesh.urdf";
  const sov_test::ToolRun run =
      runQuery("--urdf '" + twin + "' --joints 'index_proximal=0.7' --export '" + file + "'");
  ASSERT_EQ(run.status, 0) << run.err;
  const sov::urdf::TriangleMesh mesh = sov_test::readObj(file);
  const sov::urdf::Model m = sov::urdf::parseFile(examplePath("hand.urdf"));
  const sov::urdf::LinkPoses poses =
      sov::urdf::forwardKinematics(*m.urdf, {{"index_proximal", 0.7}});
  std::size_t nv = 0, nt = 0;
  ASSERT_EQ(sov_shape_tessellation_size(&nv, &nt, SOV_EXAMPLES_MESH_LAT, SOV_EXAMPLES_MESH_LON),
            SOV_OK);
  std::size_t on_superovoids = 0;
  for (const auto& w : mesh.vertices) {
    for (const sov::urdf::Superovoid& s : m.superovoids) {
      const Eigen::Isometry3d frame =
          poses.at(s.link) * Eigen::Translation3d(s.xyz[0], s.xyz[1], s.xyz[2]) *
          Eigen::Quaterniond(s.quat[0], s.quat[1], s.quat[2], s.quat[3]);
      const Eigen::Vector3d local = frame.inverse() * Eigen::Vector3d(w[0], w[1], w[2]);
      double F = 0;
      ASSERT_EQ(sov_shape_implicit(&F, nullptr, nullptr, &s.shape, local.data()), SOV_OK);
      if (std::abs(F) < 1e-5) {  // the twin's STL files hold float32
        ++on_superovoids;
        break;
      }
    }
  }
  EXPECT_GE(on_superovoids, m.superovoids.size() * nv);
  EXPECT_GE(mesh.triangles.size(), m.superovoids.size() * nt);
}

}  // namespace
