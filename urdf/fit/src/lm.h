// A small Levenberg-Marquardt solver over a state with its own update rule
// (the fit's rotation lives on SO(3)), used by fit.cpp.
#ifndef SUPEROVOID_URDF_FIT_LM_H
#define SUPEROVOID_URDF_FIT_LM_H

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace sov {
namespace urdf {
namespace detail {

// Minimises |r(x)|^2 from x by Levenberg-Marquardt with Marquardt's diagonal
// scaling and Nielsen's damping update (Madsen, Nielsen, Tingleff, "Methods
// for non-linear least squares problems", 2004, Alg. 3.16).
// eval(x, r, J) fills the residuals and, when J is not null, the Jacobian
// with respect to the step; plus(x, step, x_new) makes the stepped state and
// returns false when the step leaves the domain (then the step is rejected).
// Returns x at the last accepted step.
template <class State, class Eval, class Plus>
State levenbergMarquardt(State x, const Eval& eval, const Plus& plus, int max_iterations) {
  Eigen::VectorXd r, r_new;
  Eigen::MatrixXd J;
  eval(x, r, &J);
  double cost = r.squaredNorm();
  Eigen::MatrixXd A = J.transpose() * J;
  Eigen::VectorXd g = J.transpose() * r;
  double lambda = 1e-3 * A.diagonal().maxCoeff(), nu = 2;
  for (int it = 0; it < max_iterations; ++it) {
    if (g.lpNorm<Eigen::Infinity>() <= 1e-14 || !(lambda < 1e30)) break;
    const double floor = 1e-12 * std::max(A.diagonal().maxCoeff(), 1e-300);
    Eigen::MatrixXd M = A;
    for (int i = 0; i < M.rows(); ++i) M(i, i) += lambda * std::max(A(i, i), floor);
    const Eigen::VectorXd step = M.ldlt().solve(-g);
    if (!step.allFinite() || step.norm() <= 1e-12) break;
    State x_new;
    const double predicted = -(2 * step.dot(g) + step.dot(A * step));
    bool improved = false;
    if (plus(x, step, x_new)) {
      eval(x_new, r_new, nullptr);
      const double new_cost = r_new.squaredNorm();
      const double rho = predicted > 0 ? (cost - new_cost) / predicted : -1;
      if (std::isfinite(new_cost) && rho > 0) {
        improved = true;
        const bool small = cost - new_cost <= 1e-12 * cost;
        x = x_new;
        eval(x, r, &J);
        cost = r.squaredNorm();
        A = J.transpose() * J;
        g = J.transpose() * r;
        lambda *= std::max(1.0 / 3, 1 - std::pow(2 * rho - 1, 3));
        nu = 2;
        if (small) break;
      }
    }
    if (!improved) {
      lambda *= nu;
      nu *= 2;
    }
  }
  return x;
}

}  // namespace detail
}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_FIT_LM_H
