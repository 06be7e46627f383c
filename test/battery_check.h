// Shared by the battery and C API tests: reading a battery CSV with its
// reference answers (SPEC "Battery files"), posing its bodies through the
// public API, and checking one answer against the SPEC's accuracy rules.
#ifndef SUPEROVOID_TEST_BATTERY_CHECK_H
#define SUPEROVOID_TEST_BATTERY_CHECK_H

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "shape_info.h"
#include "superovoid/superovoid.h"

namespace sov_test {

// SPEC "Accuracy": what a correct answer means.
constexpr double kDistanceTol = 1e-9;    // |d - d_ref|
constexpr double kSurfaceTol = 1e-9;     // |F(x)| / |grad F(x)| at a witness point
constexpr double kWitnessTol = 1e-9;     // max component of pB - pA - d n
constexpr double kUnitNormalTol = 1e-12; // ||n| - 1|

// Numbers per body in a battery row: a1 a2 a3 eps1 eps2 tx ty qw qx qy qz px py pz.
constexpr int kBodyColumns = 14;
// Numbers after the id in a reference row: d nx ny nz pA pB.
constexpr int kRefColumns = 10;

// One battery row: two bodies as shape parameters, quaternion and position.
struct Pair {
  long id = 0;
  double body[2][kBodyColumns] = {};
};

// One reference row.
struct Ref {
  long id = 0;
  double d = 0;
  double n[3] = {};
  double pA[3] = {};
  double pB[3] = {};
};

// A battery joined with its reference answers, row by row.
struct Battery {
  std::vector<Pair> pairs;
  std::vector<Ref> refs;  // refs[i] answers pairs[i]
  std::string error;      // non-empty when the files could not be read
};

// Two validated shapes and poses built from a battery row.
struct PosedPair {
  sov_shape A{};
  sov_shape B{};
  sov_pose XA{};
  sov_pose XB{};
};

// True when path names a readable file.
// Bitwise equality of two results, field by field (memcmp of the whole
// struct would also compare its padding, which copies need not preserve).
inline bool SameBits(const sov_result& a, const sov_result& b) {
  return std::memcmp(&a.d, &b.d, sizeof a.d) == 0 && std::memcmp(a.n, b.n, sizeof a.n) == 0 &&
         std::memcmp(a.pA, b.pA, sizeof a.pA) == 0 && std::memcmp(a.pB, b.pB, sizeof a.pB) == 0 &&
         a.iterations == b.iterations &&
         std::memcmp(&a.residual, &b.residual, sizeof a.residual) == 0 && a.method == b.method;
}

inline bool FileExists(const std::string& path) {
  std::ifstream in(path);
  return in.good();
}

// Battery path -> reference path: "x.csv" -> "x.ref.csv".
inline std::string RefPathFor(const std::string& csv_path) {
  const std::string ext = ".csv";
  if (csv_path.size() < ext.size() ||
      csv_path.compare(csv_path.size() - ext.size(), ext.size(), ext) != 0)
    return csv_path + ".ref";
  return csv_path.substr(0, csv_path.size() - ext.size()) + ".ref.csv";
}

// Reads a CSV with a header line and `columns` numbers per row (id first);
// returns "" or a message naming the file and line.
inline std::string ReadNumericCsv(const std::string& path, size_t columns,
                                  std::vector<std::vector<double>>* rows) {
  std::ifstream in(path);
  if (!in) return "cannot open " + path;
  std::string line;
  if (!std::getline(in, line)) return path + ": empty file (no header)";
  for (int lineno = 2; std::getline(in, line); ++lineno) {
    if (line.empty() || line == "\r") continue;
    std::vector<double> row;
    std::stringstream fields(line);
    std::string field;
    while (std::getline(fields, field, ',')) {
      char* end = nullptr;
      const double v = std::strtod(field.c_str(), &end);
      if (end == field.c_str())
        return path + ":" + std::to_string(lineno) + ": not a number: '" + field + "'";
      row.push_back(v);
    }
    if (row.size() != columns)
      return path + ":" + std::to_string(lineno) + ": " + std::to_string(row.size()) +
             " fields, expected " + std::to_string(columns);
    rows->push_back(std::move(row));
  }
  return "";
}

// Loads a battery and its .ref.csv, joined by id.
inline Battery LoadBattery(const std::string& csv_path) {
  Battery battery;
  std::vector<std::vector<double>> rows, ref_rows;
  battery.error = ReadNumericCsv(csv_path, 1 + 2 * kBodyColumns, &rows);
  if (battery.error.empty())
    battery.error = ReadNumericCsv(RefPathFor(csv_path), 1 + kRefColumns, &ref_rows);
  if (!battery.error.empty()) return battery;
  std::map<long, Ref> by_id;
  for (const auto& r : ref_rows) {
    Ref ref;
    ref.id = static_cast<long>(r[0]);
    ref.d = r[1];
    for (int k = 0; k < 3; ++k) {
      ref.n[k] = r[2 + k];
      ref.pA[k] = r[5 + k];
      ref.pB[k] = r[8 + k];
    }
    by_id[ref.id] = ref;
  }
  for (const auto& r : rows) {
    Pair pair;
    pair.id = static_cast<long>(r[0]);
    for (int b = 0; b < 2; ++b)
      for (int k = 0; k < kBodyColumns; ++k) pair.body[b][k] = r[1 + b * kBodyColumns + k];
    const auto it = by_id.find(pair.id);
    if (it == by_id.end()) {
      battery.error = RefPathFor(csv_path) + ": no reference for id " + std::to_string(pair.id);
      return battery;
    }
    battery.pairs.push_back(pair);
    battery.refs.push_back(it->second);
  }
  if (battery.pairs.empty()) battery.error = csv_path + ": no rows";
  return battery;
}

// Builds shapes and poses of a row through the public API; returns a status.
inline int MakePosedPair(PosedPair* out, const Pair& pair) {
  const double* b0 = pair.body[0];
  const double* b1 = pair.body[1];
  int st = sov_shape_init(&out->A, b0);
  if (st == SOV_OK) st = sov_shape_init(&out->B, b1);
  if (st == SOV_OK) st = sov_pose_from_quat(&out->XA, b0 + 7, b0 + 11);
  if (st == SOV_OK) st = sov_pose_from_quat(&out->XB, b1 + 7, b1 + 11);
  return st;
}

// A pair of the committed paper and stress subsets: its row, its reference
// and the row posed (status: MakePosedPair's), and where it comes from.
struct SubsetPair {
  Pair row;
  Ref ref;
  PosedPair posed;
  int status = SOV_OK;
  std::string where;  // "FILE row I"
};

// Every pair of paper_subset.csv and stress_subset.csv in dir, in file
// order; *error names a file that could not be read ("" if none).
inline std::vector<SubsetPair> LoadSubsetPairs(const std::string& dir, std::string* error) {
  std::vector<SubsetPair> out;
  error->clear();
  for (const char* name : {"paper_subset.csv", "stress_subset.csv"}) {
    const Battery b = LoadBattery(dir + "/" + name);
    if (!b.error.empty()) *error = b.error;
    for (size_t i = 0; i < b.pairs.size(); ++i) {
      SubsetPair sp;
      sp.row = b.pairs[i];
      sp.ref = b.refs[i];
      sp.status = MakePosedPair(&sp.posed, sp.row);
      sp.where = std::string(name) + " row " + std::to_string(i);
      out.push_back(sp);
    }
  }
  return out;
}

// World point -> body frame: R^T (x - p).
inline void ToLocal(double local[3], const sov_pose& X, const double world[3]) {
  const double v[3] = {world[0] - X.p[0], world[1] - X.p[1], world[2] - X.p[2]};
  for (int i = 0; i < 3; ++i)
    local[i] = X.R[i] * v[0] + X.R[3 + i] * v[1] + X.R[6 + i] * v[2];
}

// |F| / |grad F| at a world point in the body's frame (a first-order distance
// to the surface); NaN when the implicit function cannot be evaluated,
// infinite where grad F overflowed (far outside a body of a tiny exponent).
inline double SurfaceOffset(const sov_shape& shape, const sov_pose& X, const double world[3]) {
  double local[3], F = NAN, grad[3] = {NAN, NAN, NAN};
  ToLocal(local, X, world);
  if (sov_shape_implicit(&F, grad, nullptr, &shape, local) != SOV_OK) return NAN;
  const double gn = std::sqrt(grad[0] * grad[0] + grad[1] * grad[1] + grad[2] * grad[2]);
  return std::isfinite(gn) ? std::fabs(F) / gn : INFINITY;
}

// Formats doubles at full precision.
inline std::string Num(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// True for the statuses a method may use to say it has no answer (never a
// reason to return a wrong SOV_OK).
inline bool IsHonestFailure(int status) {
  return status == SOV_ERR_NO_CONVERGENCE || status == SOV_ERR_SINGULAR ||
         status == SOV_ERR_SPURIOUS;
}

// How far a dented body's hull may lie from its surface: dent * radius.
inline double DentAllowance(const sov_shape& s) {
  const sov_shape_info i = Info(s);
  return i.dent * i.radius;
}

// Checks a result against the SPEC's accuracy rules; returns "" when correct,
// otherwise every violated rule with the numbers.
inline std::string CheckAnswer(const sov_result& r, const PosedPair& pp, double d_ref) {
  std::string why;
  const double d_err = std::fabs(r.d - d_ref);
  if (!(d_err <= kDistanceTol))
    why += " d=" + Num(r.d) + " d_ref=" + Num(d_ref) + " |d-d_ref|=" + Num(d_err) + ";";
  // A body accepted with a dent (sov_shape_info.dent > 0: eps2 < 1 and unequal
  // tapers, at most 1e-6 of its width) is answered for its convex hull, the
  // SPEC's support-function definition. Where the contact lies on the hull's
  // bridge across the dent no surface witness satisfies pB - pA = d n (the
  // reference's own witnesses then violate it), and the witness lies on the
  // hull, at most dent * radius from the surface. Exactly convex bodies
  // (dent = 0) keep the plain 1e-9.
  const double offA = SurfaceOffset(pp.A, pp.XA, r.pA);
  const double offB = SurfaceOffset(pp.B, pp.XB, r.pB);
  const double tolA = kSurfaceTol + DentAllowance(pp.A);
  const double tolB = kSurfaceTol + DentAllowance(pp.B);
  if (!(offA <= tolA)) why += " pA off surface by " + Num(offA) + ";";
  if (!(offB <= tolB)) why += " pB off surface by " + Num(offB) + ";";
  double gap = 0;
  for (int k = 0; k < 3; ++k) {
    const double e = std::fabs(r.pB[k] - r.pA[k] - r.d * r.n[k]);
    gap = (e > gap || std::isnan(e)) ? e : gap;
  }
  if (!(gap <= kWitnessTol)) why += " |pB-pA-d n|_inf=" + Num(gap) + ";";
  const double norm_n = std::sqrt(r.n[0] * r.n[0] + r.n[1] * r.n[1] + r.n[2] * r.n[2]);
  if (!(std::fabs(norm_n - 1) <= kUnitNormalTol)) why += " |n|=" + Num(norm_n) + ";";
  return why;
}

}  // namespace sov_test

#endif  // SUPEROVOID_TEST_BATTERY_CHECK_H
