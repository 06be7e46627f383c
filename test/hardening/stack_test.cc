// The stack a query needs (superovoid.h, sov_distance): measured on a
// thread whose own stack is painted first, over the committed battery
// subsets (their overlaps include pairs the global search decides), with
// and without the caller's work memory.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "../battery_check.h"
#include "painted_stack.h"
#include "superovoid/superovoid.h"

namespace {

// Bounds superovoid.h states for the stack of one query (measured in a
// Release build: 20.8 KB with work memory, 194 KB without, where the global
// search's sov_work_size() bytes come on top).
constexpr size_t kStackWithWork = 32 * 1024;
constexpr size_t kStackWithoutWork = 208 * 1024;

// What the thread runs: every pair of the subsets, distance and collide.
struct Job {
  std::vector<sov_test::PosedPair> pairs;
  sov_options options;
  int failures = 0;
};

// Runs the job's queries.
void* RunQueries(void* arg) {
  Job* job = static_cast<Job*>(arg);
  for (const sov_test::PosedPair& pp : job->pairs) {
    sov_result r;
    int colliding = 0;
    job->failures +=
        sov_distance(&r, &pp.A, &pp.XA, &pp.B, &pp.XB, &job->options, nullptr) != SOV_OK;
    job->failures +=
        sov_collide(&colliding, &pp.A, &pp.XA, &pp.B, &pp.XB, &job->options, nullptr) != SOV_OK;
  }
  return nullptr;
}

// The pairs of both committed subsets.
std::vector<sov_test::PosedPair> SubsetPairs() {
  std::string error;
  std::vector<sov_test::PosedPair> out;
  for (const sov_test::SubsetPair& sp : sov_test::LoadSubsetPairs(SOV_TEST_DATA_DIR, &error)) {
    EXPECT_EQ(sp.status, SOV_OK) << sp.where;
    out.push_back(sp.posed);
  }
  EXPECT_TRUE(error.empty()) << error;
  return out;
}

// The stack sov_time_of_contact adds to sov_distance's (superovoid.h: a
// cache of its own and the step's poses and answers).
constexpr size_t kTocExtra = 2 * 1024;

// Runs the job's pairs as motions: A crosses B along their line of centres,
// turning a quarter turn; sov_time_of_contact on each.
void* RunTocQueries(void* arg) {
  Job* job = static_cast<Job*>(arg);
  sov_toc_options o;
  sov_toc_options_default(&o);
  o.distance = job->options;
  for (const sov_test::PosedPair& pp : job->pairs) {
    sov_motion MA = {pp.XA, pp.XA}, MB = {pp.XB, pp.XB};
    for (int i = 0; i < 3; ++i) {
      const double u = pp.XA.p[i] - pp.XB.p[i];
      MA.from.p[i] += 2 * u;
      MA.to.p[i] -= 2 * u;
    }
    for (int i = 0; i < 3; ++i) {  // a quarter turn about z at the end
      MA.to.R[i] = -pp.XA.R[3 + i];
      MA.to.R[3 + i] = pp.XA.R[i];
    }
    sov_toc_result r;
    job->failures += sov_time_of_contact(&r, &pp.A, &MA, &pp.B, &MB, &o, nullptr) != SOV_OK;
  }
  return nullptr;
}

TEST(HardeningStack, QueriesStayWithinTheDocumentedStack) {
  Job with_work, without_work;
  with_work.pairs = without_work.pairs = SubsetPairs();
  ASSERT_FALSE(with_work.pairs.empty());
  sov_options_default(&with_work.options);
  sov_options_default(&without_work.options);
  std::vector<unsigned char> work(sov_work_size());
  with_work.options.work = work.data();
  with_work.options.work_size = work.size();
  const size_t used_with = sov_test::PaintedStackUsed(RunQueries, &with_work);
  const size_t used_without = sov_test::PaintedStackUsed(RunQueries, &without_work);
  std::printf(
      "[ stack    ] %zu pairs: %zu bytes of stack with work memory, %zu without "
      "(sov_work_size %zu)\n",
      with_work.pairs.size(), used_with, used_without, sov_work_size());
  EXPECT_EQ(with_work.failures, 0);
  EXPECT_EQ(without_work.failures, 0);
  // The global search ran: without work memory its bytes are on the stack.
  EXPECT_GT(used_without, used_with + sov_work_size() / 2);
  if (sov_test::kSanitized) GTEST_SKIP() << "sanitized build: frames are not the release build's";
  EXPECT_LE(used_with, kStackWithWork);
  EXPECT_LE(used_without, kStackWithoutWork);
}

TEST(HardeningStack, TimeOfContactStaysWithinTheDocumentedStack) {
  Job job;
  job.pairs = SubsetPairs();
  ASSERT_FALSE(job.pairs.empty());
  sov_options_default(&job.options);
  std::vector<unsigned char> work(sov_work_size());
  job.options.work = work.data();
  job.options.work_size = work.size();
  const size_t used = sov_test::PaintedStackUsed(RunTocQueries, &job);
  std::printf("[ stack    ] %zu motions: %zu bytes of stack with work memory\n", job.pairs.size(),
              used);
  EXPECT_EQ(job.failures, 0);
  if (sov_test::kSanitized) GTEST_SKIP() << "sanitized build: frames are not the release build's";
  EXPECT_LE(used, kStackWithWork + kTocExtra);
}

}  // namespace
