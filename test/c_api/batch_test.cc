// Batch queries (sov_batch_distance, sov_batch_collide): every pair's answer
// equals the single-pair function's, bit for bit, on one thread and on two,
// cold and warm from per-pair caches; bad pairs get their own status while
// the others are answered; refused calls write nothing. Public functions
// only.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../battery_check.h"
#include "superovoid/superovoid.h"

namespace {

using sov_test::SameBits;

// Thread counts every bit-for-bit test runs: the calling thread alone, and
// two threads (this machine's cores).
constexpr int kThreadCounts[] = {1, 2};

// Both battery subsets as one batch: pair k is shapes[2k] against
// shapes[2k + 1].
struct Pairs {
  std::vector<sov_shape> shapes;
  std::vector<size_t> ia, ib;
  std::vector<sov_pose> XA, XB;

  // The C struct over these arrays (caches: NULL or one per pair).
  sov_batch Batch(sov_cache *caches = nullptr) const {
    sov_batch b;
    b.shapes = shapes.data();
    b.n_shapes = shapes.size();
    b.index_a = ia.data();
    b.index_b = ib.data();
    b.poses_a = XA.data();
    b.poses_b = XB.data();
    b.count = ia.size();
    b.caches = caches;
    return b;
  }
};

Pairs LoadSubsets() {
  Pairs p;
  std::string error;
  for (const sov_test::SubsetPair &sp : sov_test::LoadSubsetPairs(SOV_TEST_DATA_DIR, &error)) {
    EXPECT_EQ(sp.status, SOV_OK) << sp.where;
    p.ia.push_back(p.shapes.size());
    p.shapes.push_back(sp.posed.A);
    p.ib.push_back(p.shapes.size());
    p.shapes.push_back(sp.posed.B);
    p.XA.push_back(sp.posed.XA);
    p.XB.push_back(sp.posed.XB);
  }
  EXPECT_TRUE(error.empty()) << error;
  return p;
}

// The single-pair answers of pairs (status, result), each result starting
// zeroed, with options and the given caches (NULL: cold).
void SingleDistances(std::vector<int> *status, std::vector<sov_result> *out, const Pairs &p,
                     const sov_options *options, sov_cache *caches) {
  status->assign(p.ia.size(), 0);
  out->assign(p.ia.size(), sov_result{});
  for (size_t k = 0; k < p.ia.size(); ++k)
    (*status)[k] = sov_distance(&(*out)[k], &p.shapes[p.ia[k]], &p.XA[k], &p.shapes[p.ib[k]],
                                &p.XB[k], options, caches ? &caches[k] : nullptr);
}

// How many pairs' statuses or results differ.
size_t CountDiffering(const std::vector<int> &sa, const std::vector<sov_result> &ra,
                      const std::vector<int> &sb, const std::vector<sov_result> &rb) {
  size_t n = 0;
  for (size_t k = 0; k < sa.size(); ++k) n += sa[k] != sb[k] || !SameBits(ra[k], rb[k]);
  return n;
}

TEST(SuperovoidBatch, DistanceEqualsSingleQueriesBitForBit) {
  const Pairs p = LoadSubsets();
  ASSERT_EQ(p.ia.size(), 400u);  // 200 pairs in each subset
  std::vector<int> st_single;
  std::vector<sov_result> single;
  SingleDistances(&st_single, &single, p, nullptr, nullptr);
  const sov_batch b = p.Batch();
  for (const int threads : kThreadCounts) {
    std::vector<int> st(p.ia.size(), 99);
    std::vector<sov_result> out(p.ia.size(), sov_result{});
    sov_batch_report report;
    EXPECT_EQ(sov_batch_distance(out.data(), st.data(), &report, &b, nullptr, threads), SOV_OK);
    EXPECT_EQ(report.failed, 0u);
    EXPECT_EQ(report.first_failed, p.ia.size());
    EXPECT_EQ(report.threads, threads);
    EXPECT_EQ(CountDiffering(st, out, st_single, single), 0u) << threads << " threads";
  }
}

TEST(SuperovoidBatch, StudyMethodOptionsEqualSingleQueries) {
  const Pairs p = LoadSubsets();
  sov_options o;
  sov_options_default(&o);
  o.method = SOV_METHOD_IMPLICIT;
  std::vector<int> st_single;
  std::vector<sov_result> single;
  SingleDistances(&st_single, &single, p, &o, nullptr);
  const sov_batch b = p.Batch();
  std::vector<int> st(p.ia.size());
  std::vector<sov_result> out(p.ia.size(), sov_result{});
  const int ret = sov_batch_distance(out.data(), st.data(), nullptr, &b, &o, 2);
  // The study's scheme fails honestly on some pairs: the call then returns
  // the first failed pair's status.
  size_t first = 0;
  while (first < st.size() && st[first] == SOV_OK) ++first;
  EXPECT_EQ(ret, first < st.size() ? st[first] : SOV_OK);
  EXPECT_EQ(CountDiffering(st, out, st_single, single), 0u);
}

TEST(SuperovoidBatch, CollideEqualsSingleQueries) {
  const Pairs p = LoadSubsets();
  std::vector<int> single(p.ia.size(), -1), st_single(p.ia.size());
  for (size_t k = 0; k < p.ia.size(); ++k)
    st_single[k] = sov_collide(&single[k], &p.shapes[p.ia[k]], &p.XA[k], &p.shapes[p.ib[k]],
                               &p.XB[k], nullptr, nullptr);
  const sov_batch b = p.Batch();
  for (const int threads : kThreadCounts) {
    std::vector<int> out(p.ia.size(), -1), st(p.ia.size(), 99);
    EXPECT_EQ(sov_batch_collide(out.data(), st.data(), nullptr, &b, nullptr, threads), SOV_OK);
    EXPECT_EQ(out, single) << threads << " threads";
    EXPECT_EQ(st, st_single) << threads << " threads";
  }
}

TEST(SuperovoidBatch, CachesGiveTheSingleWarmAnswers) {
  const Pairs p = LoadSubsets();
  const size_t n = p.ia.size();
  // Single queries: a cold query fills each cache, a second starts warm.
  std::vector<sov_cache> single_caches(n);
  for (auto &c : single_caches) sov_cache_reset(&c);
  std::vector<int> st_cold, st_warm;
  std::vector<sov_result> cold, warm;
  SingleDistances(&st_cold, &cold, p, nullptr, single_caches.data());
  SingleDistances(&st_warm, &warm, p, nullptr, single_caches.data());
  for (const int threads : kThreadCounts) {
    std::vector<sov_cache> caches(n);
    for (auto &c : caches) sov_cache_reset(&c);
    const sov_batch b = p.Batch(caches.data());
    for (int round = 0; round < 2; ++round) {
      std::vector<int> st(n);
      std::vector<sov_result> out(n, sov_result{});
      EXPECT_EQ(sov_batch_distance(out.data(), st.data(), nullptr, &b, nullptr, threads), SOV_OK);
      EXPECT_EQ(CountDiffering(st, out, round ? st_warm : st_cold, round ? warm : cold), 0u)
          << threads << " threads, round " << round;
    }
    size_t valid = 0;
    for (const auto &c : caches) valid += sov_cache_valid(&c);
    EXPECT_EQ(valid, n);
  }
}

TEST(SuperovoidBatch, SharedShapesAndCallerWorkMemory) {
  // Few shapes, many pairs: indices repeat, and the caller's work memory
  // serves the calling thread.
  const Pairs all = LoadSubsets();
  Pairs p;
  p.shapes.assign(all.shapes.begin(), all.shapes.begin() + 6);
  for (size_t k = 0; k < 60; ++k) {
    p.ia.push_back(k % 6);
    p.ib.push_back((k * 7 + 1) % 6);
    p.XA.push_back(all.XA[k]);
    p.XB.push_back(all.XB[k]);
  }
  std::vector<int> st_single;
  std::vector<sov_result> single;
  SingleDistances(&st_single, &single, p, nullptr, nullptr);
  std::vector<unsigned char> work(sov_work_size() + 3);
  sov_options o;
  sov_options_default(&o);
  o.work = work.data() + 3;  // any alignment
  o.work_size = sov_work_size();
  const sov_batch b = p.Batch();
  for (const int threads : kThreadCounts) {
    std::vector<int> st(p.ia.size());
    std::vector<sov_result> out(p.ia.size(), sov_result{});
    sov_batch_distance(out.data(), st.data(), nullptr, &b, &o, threads);
    EXPECT_EQ(CountDiffering(st, out, st_single, single), 0u) << threads << " threads";
  }
}

TEST(SuperovoidBatch, BadPairsGetTheirOwnStatus) {
  const Pairs good = LoadSubsets();
  Pairs p = good;
  p.ia.resize(40);
  p.ib.resize(40);
  p.XA.resize(40);
  p.XB.resize(40);
  sov_shape zeroed;
  std::memset(&zeroed, 0, sizeof zeroed);
  p.shapes.push_back(zeroed);
  const size_t uninitialized = p.shapes.size() - 1;
  p.ib[3] = p.shapes.size();          // one past the end
  p.ia[5] = static_cast<size_t>(-1);  // far past it
  p.ia[7] = uninitialized;
  p.XA[11].R[0] = 2;                  // not a rotation
  p.XB[13].p[1] = NAN;
  const std::vector<std::pair<size_t, int>> bad = {{3, SOV_ERR_INDEX},
                                                   {5, SOV_ERR_INDEX},
                                                   {7, SOV_ERR_UNINITIALIZED},
                                                   {11, SOV_ERR_ROTATION},
                                                   {13, SOV_ERR_NONFINITE}};
  const sov_batch b = p.Batch();
  for (const int threads : kThreadCounts) {
    std::vector<int> st(40, 99);
    std::vector<sov_result> out(40, sov_result{});
    sov_batch_report report;
    EXPECT_EQ(sov_batch_distance(out.data(), st.data(), &report, &b, nullptr, threads),
              SOV_ERR_INDEX);
    EXPECT_EQ(report.failed, bad.size());
    EXPECT_EQ(report.first_failed, 3u);
    for (const auto &[k, status] : bad) {
      EXPECT_EQ(st[k], status) << "pair " << k;
      EXPECT_TRUE(SameBits(out[k], sov_result{})) << "pair " << k << " written";
    }
    std::vector<int> cst(40, 99), colliding(40, -1);
    EXPECT_EQ(sov_batch_collide(colliding.data(), cst.data(), &report, &b, nullptr, threads),
              SOV_ERR_INDEX);
    EXPECT_EQ(cst, st);
    for (size_t k = 0; k < 40; ++k) {
      bool is_bad = false;
      for (const auto &e : bad) is_bad = is_bad || e.first == k;
      if (is_bad) continue;
      EXPECT_EQ(st[k], SOV_OK) << "pair " << k;
      sov_result single{};
      sov_distance(&single, &p.shapes[p.ia[k]], &p.XA[k], &p.shapes[p.ib[k]], &p.XB[k], nullptr,
                   nullptr);
      EXPECT_TRUE(SameBits(out[k], single)) << "pair " << k;
      EXPECT_EQ(colliding[k], single.d <= 0) << "pair " << k;
    }
  }
}

TEST(SuperovoidBatch, RefusedCallsWriteNothing) {
  const Pairs p = LoadSubsets();
  const sov_batch good = p.Batch();
  std::vector<int> st(p.ia.size(), 99), colliding(p.ia.size(), 99);
  std::vector<sov_result> out(p.ia.size(), sov_result{});
  sov_batch_report report = {7, 7, 7};
  auto untouched = [&] {
    for (size_t k = 0; k < st.size(); ++k)
      if (st[k] != 99 || colliding[k] != 99 || !SameBits(out[k], sov_result{})) return false;
    return report.failed == 7 && report.first_failed == 7 && report.threads == 7;
  };
  EXPECT_EQ(sov_batch_distance(nullptr, st.data(), &report, &good, nullptr, 1), SOV_ERR_NULL);
  EXPECT_EQ(sov_batch_distance(out.data(), nullptr, &report, &good, nullptr, 1), SOV_ERR_NULL);
  EXPECT_EQ(sov_batch_distance(out.data(), st.data(), &report, nullptr, nullptr, 1), SOV_ERR_NULL);
  EXPECT_EQ(sov_batch_collide(nullptr, st.data(), &report, &good, nullptr, 1), SOV_ERR_NULL);
  for (int field = 0; field < 5; ++field) {
    sov_batch b = good;
    if (field == 0) b.shapes = nullptr;
    if (field == 1) b.index_a = nullptr;
    if (field == 2) b.index_b = nullptr;
    if (field == 3) b.poses_a = nullptr;
    if (field == 4) b.poses_b = nullptr;
    EXPECT_EQ(sov_batch_distance(out.data(), st.data(), &report, &b, nullptr, 1), SOV_ERR_NULL)
        << "field " << field;
    EXPECT_EQ(sov_batch_collide(colliding.data(), st.data(), &report, &b, nullptr, 1),
              SOV_ERR_NULL)
        << "field " << field;
  }
  EXPECT_EQ(sov_batch_distance(out.data(), st.data(), &report, &good, nullptr, -1),
            SOV_ERR_OPTION);
  sov_options o;
  sov_options_default(&o);
  o.tolerance = -1;
  EXPECT_EQ(sov_batch_distance(out.data(), st.data(), &report, &good, &o, 2), SOV_ERR_OPTION);
  sov_options_default(&o);
  std::vector<unsigned char> work(16);
  o.work = work.data();
  o.work_size = work.size();
  EXPECT_EQ(sov_batch_collide(colliding.data(), st.data(), &report, &good, &o, 2),
            SOV_ERR_BUFFER);
  EXPECT_TRUE(untouched());
}

TEST(SuperovoidBatch, EmptyBatchAndThreadCounts) {
  const Pairs p = LoadSubsets();
  sov_batch b = p.Batch();
  b.count = 0;
  b.index_a = b.index_b = nullptr;
  b.poses_a = b.poses_b = nullptr;
  int st = 99;
  sov_result r{};
  sov_batch_report report;
  EXPECT_EQ(sov_batch_distance(&r, &st, &report, &b, nullptr, 0), SOV_OK);
  EXPECT_EQ(report.failed, 0u);
  EXPECT_EQ(report.first_failed, 0u);
  EXPECT_EQ(report.threads, 1);
  EXPECT_EQ(st, 99);
  // Never more threads than pairs; 0 asks for every core.
  b = p.Batch();
  b.count = 3;
  std::vector<int> sts(3);
  std::vector<int> col(3);
  EXPECT_EQ(sov_batch_collide(col.data(), sts.data(), &report, &b, nullptr, 8), SOV_OK);
  EXPECT_EQ(report.threads, 3);
  b.count = 200;
  std::vector<int> sts2(200), col2(200);
  EXPECT_EQ(sov_batch_collide(col2.data(), sts2.data(), &report, &b, nullptr, 0), SOV_OK);
  EXPECT_GE(report.threads, 1);
}

TEST(SuperovoidBatch, IndexStatusHasAMessage) {
  EXPECT_STREQ(sov_status_string(SOV_ERR_INDEX),
               "a shape index is past the end of the batch's shapes");
}

}  // namespace
