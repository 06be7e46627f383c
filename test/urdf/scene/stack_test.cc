// The stack of the scene's queries: each querying thread gives the core its
// work memory (superovoid/work.h), so a self query whose pair reaches the
// core's global search (two identical bodies at one pose, whose depth only
// the search settles) keeps the search's polytope off the thread's stack.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "../../hardening/painted_stack.h"
#include "superovoid/superovoid.h"
#include "superovoid/urdf/model.h"
#include "superovoid/urdf/scene.h"

namespace {

// The body both links carry, at one pose.
const double kBody[7] = {0.03, 0.05, 0.08, 0.7, 1.3, 0, 0};

// The scene's self queries.
struct SceneJob {
  sov::urdf::Scene* scene = nullptr;
  double distance = 0;
  bool threw = false;
};

void* RunSceneQueries(void* arg) {
  SceneJob* job = static_cast<SceneJob*>(arg);
  try {
    job->distance = job->scene->minSelfDistance().distance;
  } catch (...) {
    job->threw = true;
  }
  return nullptr;
}

// The core's query of the same pair without work memory.
struct CoreJob {
  double distance = 0;
  int status = SOV_OK;
};

void* RunCoreQuery(void* arg) {
  CoreJob* job = static_cast<CoreJob*>(arg);
  const double q[4] = {1, 0, 0, 0}, p[3] = {0, 0, 0};
  sov_shape s;
  sov_pose X;
  sov_result r{};
  job->status = sov_shape_init(&s, kBody);
  if (job->status == SOV_OK) job->status = sov_pose_from_quat(&X, q, p);
  if (job->status == SOV_OK) job->status = sov_distance(&r, &s, &X, &s, &X, nullptr, nullptr);
  job->distance = r.d;
  return nullptr;
}

TEST(SceneStack, SelfQueriesUseThreadWorkMemory) {
  const std::string body = "<sov:superovoid a1='0.03' a2='0.05' a3='0.08' eps1='0.7' eps2='1.3'/>";
  const std::string xml =
      "<robot name='r' xmlns:sov='urn:superovoid:urdf:1'><link name='base'/>"
      "<link name='a'><collision><geometry>" +
      body +
      "</geometry></collision></link>"
      "<link name='b'><collision><geometry>" +
      body +
      "</geometry></collision></link>"
      "<joint name='ja' type='fixed'><parent link='base'/><child link='a'/></joint>"
      "<joint name='jb' type='fixed'><parent link='base'/><child link='b'/></joint></robot>";
  sov::urdf::Scene scene(sov::urdf::parse(xml));
  SceneJob job;
  job.scene = &scene;
  CoreJob core;
  const size_t used = sov_test::PaintedStackUsed(RunSceneQueries, &job);
  const size_t used_core = sov_test::PaintedStackUsed(RunCoreQuery, &core);
  std::printf(
      "[ stack    ] scene minSelfDistance: %zu bytes of stack; the core without work "
      "memory: %zu\n",
      used, used_core);
  ASSERT_FALSE(job.threw);
  ASSERT_EQ(core.status, SOV_OK);
  EXPECT_EQ(job.distance, core.distance);  // the same answer, from work memory or the stack
  EXPECT_LT(job.distance, 0);
  // The global search ran: the core's own query put its polytope on the
  // stack, the scene's did not.
  EXPECT_GT(used_core, used + sov_work_size() / 2);
  if (sov_test::kSanitized) GTEST_SKIP() << "sanitized build: frames are not the release build's";
  EXPECT_LE(used, 40 * 1024u);  // the core's 32 KB (superovoid.h) and the scene's frames
}

}  // namespace
