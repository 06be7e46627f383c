// Self queries of a scene of superovoids and FCL primitives allocate
// nothing once an earlier query sized their scratch (Scene's members): a
// planner or a control loop calls them at every step. The program's
// operator new is replaced by one that counts, so it is a program of its
// own; allocations straight from malloc are not counted, and the scene
// makes none per query.
#include <gtest/gtest.h>
#include <superovoid/urdf/model.h>
#include <superovoid/urdf/scene.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>
#include <set>
#include <string>

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
// The nothrow forms too (the thread's work memory, superovoid/work.h): a
// sanitizer's own would hand the delete above memory it did not allocate.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  ++g_allocations;
  return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  ++g_allocations;
  return std::malloc(n ? n : 1);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}

namespace {

// A chain of five links of three superovoids each (a union, as sov-urdf-fit
// --max-bodies writes it), the first two with a box too, joints 0.06 apart:
// links two joints apart are checked, and their bodies meet in some
// configurations (superovoid pairs, and a superovoid against a box, whose
// libccd objects are held in place: fcl_ext/src/ccd_body.h, CcdObject).
// (Two boxes are FCL's pair, whose own GJK allocates; no two are checked.)
std::string chain() {
  const std::string body =
      "<geometry><sov:superovoid a1=\"0.03\" a2=\"0.015\" a3=\"0.012\" eps1=\"0.3\" "
      "eps2=\"0.8\" taper_x=\"0.1\"/></geometry>";
  std::string xml = "<robot name=\"chain\" xmlns:sov=\"urn:superovoid:urdf:1\">";
  for (int i = 0; i < 5; ++i) {
    xml += "<link name=\"l" + std::to_string(i) + "\">";
    xml += "<collision><origin xyz=\"0.03 0 0\"/>" + body + "</collision>";
    xml += "<collision><origin xyz=\"0.05 0.01 0\" rpy=\"0 0 1\"/>" + body + "</collision>";
    xml += "<collision><origin xyz=\"0.02 -0.01 0\" rpy=\"1 0 0\"/>" + body + "</collision>";
    if (i < 2)
      xml +=
          "<collision><origin xyz=\"0.04 0 0.01\"/><geometry><box size=\"0.03 0.01 0.02\"/>"
          "</geometry></collision>";
    xml += "</link>";
    if (i > 0)
      xml += "<joint name=\"j" + std::to_string(i) + "\" type=\"revolute\"><parent link=\"l" +
             std::to_string(i - 1) + "\"/><child link=\"l" + std::to_string(i) +
             "\"/><origin xyz=\"0.06 0 0\"/><axis xyz=\"0 0 1\"/><limit lower=\"-2.6\" "
             "upper=\"2.6\" effort=\"1\" velocity=\"1\"/></joint>";
  }
  return xml + "</robot>";
}

TEST(SceneAllocation, SelfQueriesAllocateNothingOnceWarm) {
  sov::urdf::SceneOptions options;
  options.warm_start = false;  // a warm start's cache is made at a pair's first query
  sov::urdf::Scene scene(sov::urdf::parse(chain(), "chain"), options);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> angle(-2.6, 2.6);
  sov::urdf::JointPositions q;
  for (int i = 1; i < 5; ++i) q["j" + std::to_string(i)] = 0;
  scene.setJointPositions(q);
  scene.selfCollision();
  scene.minSelfDistance();
  long during = 0;
  int colliding = 0;
  for (int trial = 0; trial < 300; ++trial) {
    for (auto& [name, value] : q) value = angle(rng);
    scene.setJointPositions(q);
    const long before = g_allocations.load();
    const bool hit = scene.selfCollision();
    const sov::urdf::PairDistance d = scene.minSelfDistance();
    during += g_allocations.load() - before;
    EXPECT_EQ(hit, d.distance <= 0) << "trial " << trial;
    colliding += hit;
  }
  EXPECT_EQ(during, 0);
  // Both verdicts occur: the queries went past the boxes.
  EXPECT_GT(colliding, 10);
  EXPECT_LT(colliding, 290);
  // The counter counts: a query asked for its pairs inserts them.
  std::set<std::pair<std::string, std::string>> pairs;
  for (int trial = 0; trial < 50 && pairs.empty(); ++trial) {
    for (auto& [name, value] : q) value = angle(rng);
    scene.setJointPositions(q);
    const long before = g_allocations.load();
    if (scene.selfCollision(&pairs)) {
      EXPECT_GT(g_allocations.load(), before);
    }
  }
  EXPECT_FALSE(pairs.empty());
}

}  // namespace
