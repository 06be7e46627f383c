// The distance batteries (SPEC "Battery files") against their reference
// answers: the committed subsets always, the full batteries in ../shared/data
// when present. Every row must meet SPEC "Accuracy".
#include <gtest/gtest.h>

#include <cstdio>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "battery_check.h"
#include "superovoid/superovoid.h"

namespace {

using sov_test::Battery;
using sov_test::CheckAnswer;
using sov_test::IsHonestFailure;
using sov_test::LoadBattery;
using sov_test::PosedPair;

// Failures printed in full per test; all are counted.
constexpr int kMaxPrinted = 20;

const std::string kSubsetDir = SOV_TEST_DATA_DIR;
const std::string kSharedDir = SOV_SHARED_DATA_DIR;

// Failing rows: the first kMaxPrinted described, all counted.
struct FailureLog {
  int count = 0;
  std::string text;

  // Records one failing row.
  void Add(long id, const std::string& why) {
    if (++count <= kMaxPrinted) text += "  id " + std::to_string(id) + ":" + why + "\n";
  }

  // The summary to attach to the assertion.
  std::string Report(const std::string& what, size_t rows) const {
    std::string s = what + ": " + std::to_string(count) + " of " + std::to_string(rows) +
                    " rows failed";
    if (count > kMaxPrinted) s += " (first " + std::to_string(kMaxPrinted) + " shown)";
    return s + "\n" + text;
  }
};

// Status with its message, for failure lines.
std::string StatusText(int status) {
  return " status " + std::to_string(status) + " (" + sov_status_string(status) + ")";
}

// Solves every row of a battery with default options and checks each answer.
void ExpectBatteryCorrect(const std::string& path) {
  const Battery battery = LoadBattery(path);
  ASSERT_TRUE(battery.error.empty()) << battery.error;
  sov_options options;
  sov_options_default(&options);
  FailureLog log;
  for (size_t i = 0; i < battery.pairs.size(); ++i) {
    const long id = battery.pairs[i].id;
    PosedPair pp;
    int st = sov_test::MakePosedPair(&pp, battery.pairs[i]);
    if (st != SOV_OK) {
      log.Add(id, " shape/pose rejected:" + StatusText(st));
      continue;
    }
    sov_result r{};
    st = sov_distance(&r, &pp.A, &pp.XA, &pp.B, &pp.XB, &options, nullptr);
    if (st != SOV_OK) {
      log.Add(id, StatusText(st) + " d_ref=" + sov_test::Num(battery.refs[i].d));
      continue;
    }
    const std::string why = CheckAnswer(r, pp, battery.refs[i].d);
    if (!why.empty()) log.Add(id, why);
  }
  std::printf("[ battery  ] %s: %zu pairs, %d failing\n", path.c_str(), battery.pairs.size(),
              log.count);
  EXPECT_EQ(log.count, 0) << log.Report(path, battery.pairs.size());
}

// Full battery path, or "" after recording a skip when ../shared is absent.
std::string FullBatteryPath(const std::string& name) {
  const std::string path = kSharedDir + "/" + name;
  return sov_test::FileExists(path) ? path : "";
}

// The four batteries, by the names of their files.
const char* const kBatteries[] = {"paper", "stress", "contact", "ellipsoid"};

// check on the committed subset of every battery.
template <class Check>
void OnSubsets(Check check) {
  for (const char* name : kBatteries) check(kSubsetDir + "/" + name + "_subset.csv");
}

// check on every full battery in ../shared/data; the test is skipped, saying
// so, when none is there (what checked the subsets instead).
template <class Check>
void OnFullBatteries(Check check, const std::string& instead) {
  int ran = 0;
  for (const char* name : kBatteries) {
    const std::string path = FullBatteryPath(std::string("battery_") + name + ".csv");
    if (path.empty()) continue;
    check(path);
    ++ran;
  }
  if (ran == 0)
    GTEST_SKIP() << "full batteries not found at " << kSharedDir << "; " << instead;
}

// ExpectBatteryCorrect on one full battery, or the test skipped, saying so.
void ExpectFullBatteryCorrect(const std::string& name) {
  const std::string path = FullBatteryPath("battery_" + name + ".csv");
  if (path.empty())
    GTEST_SKIP() << "full batteries not found at " << kSharedDir << " (battery_" << name
                 << ".csv); only the subsets in test/data were checked";
  ExpectBatteryCorrect(path);
}

TEST(SuperovoidBattery, PaperSubsetMatchesReference) {
  ExpectBatteryCorrect(kSubsetDir + "/paper_subset.csv");
}

TEST(SuperovoidBattery, StressSubsetMatchesReference) {
  ExpectBatteryCorrect(kSubsetDir + "/stress_subset.csv");
}

TEST(SuperovoidBattery, FullPaperBatteryMatchesReference) {
  ExpectFullBatteryCorrect("paper");
}

TEST(SuperovoidBattery, FullStressBatteryMatchesReference) {
  ExpectFullBatteryCorrect("stress");
}

TEST(SuperovoidBattery, ContactSubsetMatchesReference) {
  ExpectBatteryCorrect(kSubsetDir + "/contact_subset.csv");
}

TEST(SuperovoidBattery, EllipsoidSubsetMatchesReference) {
  ExpectBatteryCorrect(kSubsetDir + "/ellipsoid_subset.csv");
}

TEST(SuperovoidBattery, FullContactBatteryMatchesReference) {
  ExpectFullBatteryCorrect("contact");
}

TEST(SuperovoidBattery, FullEllipsoidBatteryMatchesReference) {
  ExpectFullBatteryCorrect("ellipsoid");
}

// sov_collide on every row of a battery: its verdict must be the reference's
// (colliding where d_ref <= 0). Near contact the collide stops at the first
// proof a chart's iterate gives, so this checks every such stop.
void ExpectCollideMatchesReference(const std::string& path) {
  const Battery battery = LoadBattery(path);
  ASSERT_TRUE(battery.error.empty()) << battery.error;
  FailureLog log;
  for (size_t i = 0; i < battery.pairs.size(); ++i) {
    const long id = battery.pairs[i].id;
    PosedPair pp;
    ASSERT_EQ(sov_test::MakePosedPair(&pp, battery.pairs[i]), SOV_OK) << path << " id " << id;
    int colliding = -1;
    const int st = sov_collide(&colliding, &pp.A, &pp.XA, &pp.B, &pp.XB, nullptr, nullptr);
    const int expected = battery.refs[i].d <= 0 ? 1 : 0;
    if (st != SOV_OK)
      log.Add(id, StatusText(st));
    else if (colliding != expected)
      log.Add(id, " colliding = " + std::to_string(colliding) +
                      ", d_ref = " + sov_test::Num(battery.refs[i].d));
  }
  std::printf("[ collide  ] %s: %zu pairs, %d failing\n", path.c_str(), battery.pairs.size(),
              log.count);
  EXPECT_EQ(log.count, 0) << log.Report(path, battery.pairs.size());
}

TEST(SuperovoidCollide, SubsetVerdictsMatchReference) {
  OnSubsets(ExpectCollideMatchesReference);
}

TEST(SuperovoidCollide, FullBatteryVerdictsMatchReference) {
  OnFullBatteries(ExpectCollideMatchesReference,
                  "the collide verdicts were checked on the subsets only");
}

// The overlapping pairs of a battery moved apart along their reference
// normal until they touch: translating B by t >= 0 along the optimal normal
// raises d by exactly t (along any other direction v the objective gains
// t v.n <= t), so the moved pair's d is the gap asked for. Gaps from -1e-12
// to 1e-12 of the smaller body's size lie below the solver's tolerance,
// where the sign of d is rounding: every such pair must still be answered
// within SPEC "Accuracy" and collided without an error.
void ExpectTouchingAnswered(const std::string& path) {
  const Battery battery = LoadBattery(path);
  ASSERT_TRUE(battery.error.empty()) << battery.error;
  const double kGaps[] = {-1e-12, -1e-13, 0, 1e-13, 1e-12};
  FailureLog log;
  size_t queries = 0;
  for (size_t i = 0; i < battery.pairs.size(); ++i) {
    const sov_test::Ref& ref = battery.refs[i];
    if (!(ref.d < 0)) continue;
    const sov_test::Pair& row = battery.pairs[i];
    const double size =
        std::fmin(std::fmax(row.body[0][0], std::fmax(row.body[0][1], row.body[0][2])),
                  std::fmax(row.body[1][0], std::fmax(row.body[1][1], row.body[1][2])));
    for (const double g : kGaps) {
      const double gap = g * size, t = gap - ref.d;
      sov_test::Pair moved = row;
      for (int k = 0; k < 3; ++k) moved.body[1][11 + k] += t * ref.n[k];
      PosedPair pp;
      ASSERT_EQ(sov_test::MakePosedPair(&pp, moved), SOV_OK) << path << " id " << row.id;
      ++queries;
      const std::string at = " gap " + sov_test::Num(gap) + ":";
      sov_result r{};
      int st = sov_distance(&r, &pp.A, &pp.XA, &pp.B, &pp.XB, nullptr, nullptr);
      std::string why = st == SOV_OK ? CheckAnswer(r, pp, gap) : StatusText(st);
      int colliding = -1;
      st = sov_collide(&colliding, &pp.A, &pp.XA, &pp.B, &pp.XB, nullptr, nullptr);
      if (st != SOV_OK) why += " collide" + StatusText(st);
      if (!why.empty()) log.Add(row.id, at + why);
    }
  }
  std::printf("[ touching ] %s: %zu queries, %d failing\n", path.c_str(), queries, log.count);
  EXPECT_EQ(log.count, 0) << log.Report(path, queries);
}

TEST(SuperovoidTouching, SubsetPairsMovedToTouchingAreAnswered) {
  OnSubsets(ExpectTouchingAnswered);
}

// Contact battery pairs whose touching variants the global search refused
// (its bound closed with the origin just outside its polytope).
TEST(SuperovoidTouching, PairsOnceRefusedAtTouchingAreAnswered) {
  ExpectTouchingAnswered(kSubsetDir + "/contact_touching.csv");
}

// Runs one study method (quadtree seed) over both subsets: every SOV_OK must
// be a correct answer, every other status an honest failure. Prints the share
// converged.
void ExpectStudyMethodHonest(sov_method method) {
  sov_options options;
  sov_options_default(&options);
  options.method = method;
  options.seed = SOV_SEED_QUADTREE;
  FailureLog log;
  std::map<int, int> statuses;
  size_t rows = 0;
  for (const char* name : {"paper_subset.csv", "stress_subset.csv"}) {
    const Battery battery = LoadBattery(kSubsetDir + "/" + name);
    ASSERT_TRUE(battery.error.empty()) << battery.error;
    for (size_t i = 0; i < battery.pairs.size(); ++i, ++rows) {
      const long id = battery.pairs[i].id;
      PosedPair pp;
      ASSERT_EQ(sov_test::MakePosedPair(&pp, battery.pairs[i]), SOV_OK) << name << " id " << id;
      sov_result r{};
      const int st = sov_distance(&r, &pp.A, &pp.XA, &pp.B, &pp.XB, &options, nullptr);
      ++statuses[st];
      const std::string where = std::string(" ") + name + ":";
      if (st == SOV_OK) {
        const std::string why = CheckAnswer(r, pp, battery.refs[i].d);
        if (!why.empty()) log.Add(id, where + " SOV_OK but wrong:" + why);
      } else if (!IsHonestFailure(st)) {
        log.Add(id, where + " unexpected" + StatusText(st));
      }
    }
  }
  std::printf("[ study    ] %s (quadtree seed): SOV_OK on %d of %zu subset pairs (%.1f %%);",
              sov_method_name(method), statuses[SOV_OK], rows, 100.0 * statuses[SOV_OK] / rows);
  for (const auto& kv : statuses) std::printf(" status %d: %d;", kv.first, kv.second);
  std::printf("\n");
  EXPECT_EQ(log.count, 0) << log.Report(sov_method_name(method), rows);
}

TEST(SuperovoidStudyMethods, ImplicitNeverReportsAWrongAnswerAsOk) {
  ExpectStudyMethodHonest(SOV_METHOD_IMPLICIT);
}

TEST(SuperovoidStudyMethods, ParametricNeverReportsAWrongAnswerAsOk) {
  ExpectStudyMethodHonest(SOV_METHOD_PARAMETRIC);
}

TEST(SuperovoidStudyMethods, NtbNeverReportsAWrongAnswerAsOk) {
  ExpectStudyMethodHonest(SOV_METHOD_NTB);
}

}  // namespace

// Moves a pose by a small rigid motion: a rotation of about 1e-3 rad about a
// random axis (applied on the left) and a translation of about 1e-3.
void Nudge(sov_pose* X, std::mt19937_64* rng) {
  std::normal_distribution<double> n(0, 1e-3);
  const double w[3] = {n(*rng), n(*rng), n(*rng)};
  const double th = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  const double k[3] = {w[0] / th, w[1] / th, w[2] / th};
  const double c = std::cos(th), s = std::sin(th), t = 1 - c;
  const double Q[9] = {c + k[0] * k[0] * t,        k[0] * k[1] * t - k[2] * s, k[0] * k[2] * t + k[1] * s,
                       k[1] * k[0] * t + k[2] * s, c + k[1] * k[1] * t,        k[1] * k[2] * t - k[0] * s,
                       k[2] * k[0] * t - k[1] * s, k[2] * k[1] * t + k[0] * s, c + k[2] * k[2] * t};
  double R[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      R[3 * i + j] = Q[3 * i] * X->R[j] + Q[3 * i + 1] * X->R[3 + j] + Q[3 * i + 2] * X->R[6 + j];
  const double p[3] = {X->p[0] + n(*rng), X->p[1] + n(*rng), X->p[2] + n(*rng)};
  ASSERT_EQ(sov_pose_from_matrix(X, R, p), SOV_OK);
}

// Warm start (temporal coherence): after a small motion, the query started
// from the previous answer must give the cold answer of the moved pair, with
// sound witnesses. A warm start that tracks a saddle or a non-global optimum
// of an overlap shows here.
void ExpectWarmMatchesCold(const std::string& path) {
  const Battery battery = LoadBattery(path);
  ASSERT_TRUE(battery.error.empty()) << battery.error;
  std::mt19937_64 rng(2024);
  FailureLog log;
  for (size_t i = 0; i < battery.pairs.size(); ++i) {
    PosedPair pp;
    ASSERT_EQ(sov_test::MakePosedPair(&pp, battery.pairs[i]), SOV_OK);
    sov_cache cache;
    sov_cache_reset(&cache);
    sov_result first{}, cold{}, warm{};
    ASSERT_EQ(sov_distance(&first, &pp.A, &pp.XA, &pp.B, &pp.XB, nullptr, &cache), SOV_OK);
    Nudge(&pp.XA, &rng);
    Nudge(&pp.XB, &rng);
    const int sc = sov_distance(&cold, &pp.A, &pp.XA, &pp.B, &pp.XB, nullptr, nullptr);
    const int sw = sov_distance(&warm, &pp.A, &pp.XA, &pp.B, &pp.XB, nullptr, &cache);
    if (sc != SOV_OK || sw != SOV_OK) {
      log.Add(battery.pairs[i].id, " cold" + StatusText(sc) + ", warm" + StatusText(sw));
      continue;
    }
    const std::string why = CheckAnswer(warm, pp, cold.d);
    if (!why.empty()) log.Add(battery.pairs[i].id, " warm vs cold:" + why);
  }
  EXPECT_EQ(log.count, 0) << log.Report(path, battery.pairs.size());
}

TEST(SuperovoidWarmStart, SubsetsMatchColdAfterSmallMotions) {
  OnSubsets(ExpectWarmMatchesCold);
}

TEST(SuperovoidWarmStart, FullBatteriesMatchColdAfterSmallMotions) {
  OnFullBatteries(ExpectWarmMatchesCold, "the warm-start check ran on the subsets only");
}

// A cache shared by collide and distance queries along small motions (a
// planner's inner loop): sov_collide keeps its proof there and tries it first
// at the next pose. Every warm verdict must be the cold one, and a distance
// started from a collide's cache the cold distance.
void ExpectWarmCollideMatchesCold(const std::string& path) {
  const Battery battery = LoadBattery(path);
  ASSERT_TRUE(battery.error.empty()) << battery.error;
  std::mt19937_64 rng(2025);
  FailureLog log;
  constexpr int kSteps = 6;
  for (size_t i = 0; i < battery.pairs.size(); ++i) {
    const long id = battery.pairs[i].id;
    PosedPair pp;
    ASSERT_EQ(sov_test::MakePosedPair(&pp, battery.pairs[i]), SOV_OK);
    sov_cache cache;
    sov_cache_reset(&cache);
    for (int step = 0; step < kSteps; ++step) {
      if (step > 0) {
        Nudge(&pp.XA, &rng);
        Nudge(&pp.XB, &rng);
      }
      int cold = -1, warm = -1;
      const int sc = sov_collide(&cold, &pp.A, &pp.XA, &pp.B, &pp.XB, nullptr, nullptr);
      const int sw = sov_collide(&warm, &pp.A, &pp.XA, &pp.B, &pp.XB, nullptr, &cache);
      const std::string at = " step " + std::to_string(step) + ":";
      if (sc != SOV_OK || sw != SOV_OK || cold != warm)
        log.Add(id, at + " collide cold " + std::to_string(cold) + StatusText(sc) + ", warm " +
                        std::to_string(warm) + StatusText(sw));
      if (step % 3 != 2) continue;
      sov_result rc{}, rw{};
      const int dc = sov_distance(&rc, &pp.A, &pp.XA, &pp.B, &pp.XB, nullptr, nullptr);
      const int dw = sov_distance(&rw, &pp.A, &pp.XA, &pp.B, &pp.XB, nullptr, &cache);
      if (dc != SOV_OK || dw != SOV_OK) {
        log.Add(id, at + " distance cold" + StatusText(dc) + ", warm" + StatusText(dw));
        continue;
      }
      const std::string why = CheckAnswer(rw, pp, rc.d);
      if (!why.empty()) log.Add(id, at + " distance warm vs cold:" + why);
    }
  }
  EXPECT_EQ(log.count, 0) << log.Report(path, battery.pairs.size());
}

TEST(SuperovoidCollide, WarmAlongMotionsMatchesColdOnSubsets) {
  OnSubsets(ExpectWarmCollideMatchesCold);
}

TEST(SuperovoidCollide, WarmAlongMotionsMatchesColdOnFullBatteries) {
  OnFullBatteries(ExpectWarmCollideMatchesCold, "warm collides were checked on the subsets only");
}
