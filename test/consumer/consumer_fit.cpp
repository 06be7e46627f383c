// Consumer of the installed mesh-fitting component: fits the eight corners of
// a box and checks that every corner is inside the fitted superovoid.
#include <superovoid/urdf/fit.h>

#include <cstdio>
#include <vector>

int main() {
  std::vector<sov::urdf::Point3> corners;
  for (int i = 0; i < 8; ++i) {
    corners.push_back({i & 1 ? 0.02 : -0.02, i & 2 ? 0.01 : -0.01, i & 4 ? 0.05 : -0.05});
  }
  const sov::urdf::SuperovoidFit fit = sov::urdf::fitSuperovoid(corners);
  for (const auto& c : corners) {
    // The corner in the fit's local frame: R^T (c - p).
    double local[3], F = 0;
    for (int r = 0; r < 3; ++r) {
      local[r] = 0;
      for (int k = 0; k < 3; ++k) local[r] += fit.pose.R[3 * k + r] * (c[k] - fit.pose.p[k]);
    }
    if (sov_shape_implicit(&F, nullptr, nullptr, &fit.shape, local) != SOV_OK || F > 0) {
      std::printf("corner outside the fit (F = %g)\n", F);
      return 1;
    }
  }
  std::printf("box corners inside the fit, volume ratio %.3f\n", fit.volume_ratio);
  return 0;
}
