// Many threads querying the same shapes (each thread with its own warm-start
// caches) give bit-identical answers to a single-threaded run: the battery
// subsets and the extreme matrix through every method, the warm start and
// the collision test. Run under ThreadSanitizer in CI (.ci/run), where a
// data race is a failure of its own.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "../battery_check.h"
#include "extreme_cases.h"
#include "superovoid/superovoid.h"

namespace {

using sov_hardening::kExtremeStride;
using sov_test::SameBits;

// Threads of the concurrent runs: at least 8 (issue 6), and an odd count.
constexpr int kThreadCounts[] = {8, 3};

// One query pair: shapes and poses, shared read-only by every thread.
struct Item {
  sov_shape A, B;
  sov_pose XA, XB;
};

// Everything one thread computes for one item.
struct Record {
  int status[5] = {};
  sov_result r[4] = {};
  int colliding = -1;
};

std::vector<Item> LoadItems() {
  std::vector<Item> items;
  std::string error;
  for (const sov_test::SubsetPair &sp : sov_test::LoadSubsetPairs(SOV_TEST_DATA_DIR, &error)) {
    EXPECT_EQ(sp.status, SOV_OK) << sp.where;
    const sov_test::PosedPair &pp = sp.posed;
    items.push_back({pp.A, pp.B, pp.XA, pp.XB});
  }
  EXPECT_TRUE(error.empty()) << error;
  const auto cases = sov_hardening::ExtremeCases();
  for (size_t i = 0; i < cases.size(); i += kExtremeStride)
    items.push_back({cases[i].A.shape, cases[i].B.shape, cases[i].A.pose, cases[i].B.pose});
  return items;
}

// AUTO cold, AUTO warm (the item's own cache, second query), the implicit
// scheme from the quadtree, the parametric scheme from the warm cache, and
// the collision test.
Record AnswerItem(const Item &it) {
  Record rec;
  sov_options automatic, implicit, parametric;
  sov_options_default(&automatic);
  sov_options_default(&implicit);
  sov_options_default(&parametric);
  implicit.method = SOV_METHOD_IMPLICIT;
  parametric.method = SOV_METHOD_PARAMETRIC;
  parametric.seed = SOV_SEED_CACHE;
  sov_cache cache;
  sov_cache_reset(&cache);
  rec.status[0] = sov_distance(&rec.r[0], &it.A, &it.XA, &it.B, &it.XB, &automatic, &cache);
  rec.status[1] = sov_distance(&rec.r[1], &it.A, &it.XA, &it.B, &it.XB, &automatic, &cache);
  rec.status[2] = sov_distance(&rec.r[2], &it.A, &it.XA, &it.B, &it.XB, &implicit, nullptr);
  rec.status[3] = sov_distance(&rec.r[3], &it.A, &it.XA, &it.B, &it.XB, &parametric, &cache);
  rec.status[4] = sov_collide(&rec.colliding, &it.A, &it.XA, &it.B, &it.XB, nullptr, nullptr);
  return rec;
}

bool Same(const Record &a, const Record &b) {
  for (int k = 0; k < 5; ++k)
    if (a.status[k] != b.status[k]) return false;
  for (int k = 0; k < 4; ++k)
    if (!SameBits(a.r[k], b.r[k])) return false;
  return a.colliding == b.colliding;
}

TEST(HardeningConcurrency, ThreadsGiveTheBitsOfOneThread) {
  const std::vector<Item> items = LoadItems();
  ASSERT_GT(items.size(), 400u);
  std::vector<Record> reference;
  for (const Item &it : items) reference.push_back(AnswerItem(it));
  for (const int threads : kThreadCounts) {
    std::vector<std::vector<Record>> results(threads, std::vector<Record>(items.size()));
    std::atomic<int> ready{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        ready.fetch_add(1);
        while (ready.load() < threads) std::this_thread::yield();
        // Each thread starts at its own offset, so threads meet on
        // different items at the same time.
        for (size_t k = 0; k < items.size(); ++k) {
          const size_t i = (k + t * items.size() / threads) % items.size();
          results[t][i] = AnswerItem(items[i]);
        }
      });
    }
    for (auto &th : pool) th.join();
    for (int t = 0; t < threads; ++t) {
      int differing = 0;
      for (size_t i = 0; i < items.size(); ++i) differing += !Same(results[t][i], reference[i]);
      EXPECT_EQ(differing, 0) << threads << " threads, thread " << t << ": " << differing << " of "
                              << items.size() << " items differ from one thread";
    }
  }
}

}  // namespace
