// OMPL on a sov::urdf::Scene (ompl_planning.h).
#include "superovoid/planning/ompl_planning.h"

#include <ompl/base/DiscreteMotionValidator.h>
#include <ompl/base/ProblemDefinition.h>
#include <ompl/base/objectives/PathLengthOptimizationObjective.h>
#include <ompl/base/spaces/RealVectorStateSpace.h>
#include <ompl/geometric/PathGeometric.h>
#include <ompl/geometric/PathSimplifier.h>
#include <ompl/geometric/planners/informedtrees/BITstar.h>
#include <ompl/geometric/planners/rrt/RRTConnect.h>
#include <ompl/geometric/planners/rrt/RRTstar.h>

#include <superovoid/error.h>

#include <chrono>
#include <stdexcept>

namespace ob = ompl::base;
namespace og = ompl::geometric;

namespace sov {
namespace planning {
namespace {

using Clock = std::chrono::steady_clock;

// Seconds from t0 to now.
double secondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Whether the scene takes state's joint values: each finite and within its
// URDF limits, ends included. OMPL's satisfiesBounds is looser: it lets a
// value DBL_EPSILON past a bound through, and NaN (no comparison with NaN
// fails), where Scene::setJointPositions throws.
bool withinLimits(const ob::State* state, const Arm& arm) {
  const auto* s = state->as<ob::RealVectorStateSpace::StateType>();
  for (std::size_t i = 0; i < arm.joints.size(); ++i)
    if (!(s->values[i] >= arm.lower[i] && s->values[i] <= arm.upper[i])) return false;
  return true;
}

// A state is valid when it is inside the limits, no pair of links that may
// collide touches (the scene's allowed pairs, the SRDF's among them, are
// skipped) and no link touches an environment object.
class SceneValidityChecker : public ob::StateValidityChecker {
 public:
  SceneValidityChecker(const ob::SpaceInformationPtr& si, urdf::Scene& scene,
                       const std::vector<fcl::CollisionObject<double>*>& env, const Arm& arm,
                       CheckCounts* counts)
      : ob::StateValidityChecker(si), scene_(scene), env_(env), arm_(arm), counts_(counts) {}

  bool isValid(const ob::State* state) const override {
    const auto t0 = Clock::now();
    bool valid = withinLimits(state, arm_);
    if (valid) {
      scene_.setJointPositions(arm_.positions(configOf(state, arm_.joints.size())));
      valid = !scene_.selfCollision() && !scene_.collides(env_);
    }
    counts_->state_seconds += secondsSince(t0);
    ++counts_->states;
    return valid;
  }

 private:
  urdf::Scene& scene_;
  std::vector<fcl::CollisionObject<double>*> env_;
  Arm arm_;
  CheckCounts* counts_;
};

// OMPL's motion validator on Scene::motionCollides: a segment is valid when
// both ends are inside the limits and no checked pair comes within the
// distance tolerance anywhere along it (conservative advancement: no
// sampling resolution, so no thin obstacle is stepped over).
class CertifiedMotionValidator : public ob::MotionValidator {
 public:
  CertifiedMotionValidator(const ob::SpaceInformationPtr& si, urdf::Scene& scene,
                           const std::vector<fcl::CollisionObject<double>*>& env,
                           const Arm& arm, CheckCounts* counts)
      : ob::MotionValidator(si), scene_(scene), env_(env), arm_(arm), counts_(counts) {}

  bool checkMotion(const ob::State* s1, const ob::State* s2) const override {
    return firstContact(s1, s2) >= 1;
  }

  // As above; when invalid, last is the state at the time of first contact
  // (every earlier state is free, by the certificate) and its fraction.
  bool checkMotion(const ob::State* s1, const ob::State* s2,
                   std::pair<ob::State*, double>& last) const override {
    const double t = firstContact(s1, s2);
    if (t >= 1) return true;
    last.second = t;
    if (last.first) si_->getStateSpace()->interpolate(s1, s2, t, last.first);
    return false;
  }

 private:
  // Time of first contact along s1 -> s2 (1 when free, 0 when an end is out
  // of the limits or the check gave up), counted in counts_.
  double firstContact(const ob::State* s1, const ob::State* s2) const {
    if (!withinLimits(s1, arm_) || !withinLimits(s2, arm_)) {
      ++invalid_;
      return 0;
    }
    const auto t0 = Clock::now();
    const std::size_t n = arm_.joints.size();
    double t = 0;
    try {
      const urdf::MotionCheck m =
          scene_.motionCollides(arm_.positions(configOf(s1, n)), arm_.positions(configOf(s2, n)),
                                env_);
      t = m.collides ? m.t : 1;
      counts_->motion_steps += m.steps;
      counts_->motions_certified = counts_->motions_certified && m.certified;
    } catch (const sov::Error& e) {
      if (e.status() != SOV_ERR_NO_CONVERGENCE) throw;
      ++counts_->motion_failures;  // too many steps: the segment is not proved free
    }
    ++counts_->motions;
    counts_->motion_seconds += secondsSince(t0);
    ++(t >= 1 ? valid_ : invalid_);
    return t;
  }

  urdf::Scene& scene_;
  std::vector<fcl::CollisionObject<double>*> env_;
  Arm arm_;
  CheckCounts* counts_;
};

// The planners by name, each on si, minimising path length.
struct PlannerKind {
  const char* name;
  ob::PlannerPtr (*make)(const ob::SpaceInformationPtr& si);
};
const PlannerKind kPlanners[] = {
    {"RRTConnect",
     [](const ob::SpaceInformationPtr& si) -> ob::PlannerPtr {
       return std::make_shared<og::RRTConnect>(si);
     }},
    // OMPL 1.5's BIT* defaults to its k-nearest variant, which it warns must
    // be named "kBITstar".
    {"BITstar",
     [](const ob::SpaceInformationPtr& si) -> ob::PlannerPtr {
       return std::make_shared<og::BITstar>(si, "kBITstar");
     }},
    {"RRTstar",
     [](const ob::SpaceInformationPtr& si) -> ob::PlannerPtr {
       return std::make_shared<og::RRTstar>(si);
     }},
};

// The planner of the given name on si.
ob::PlannerPtr plannerOf(const std::string& name, const ob::SpaceInformationPtr& si) {
  for (const PlannerKind& k : kPlanners)
    if (name == k.name) return k.make(si);
  std::string known;
  for (const std::string& n : plannerNames()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown planner '" + name + "' (" + known + ")");
}

// Shortcuts path and drops its redundant vertices: a fixed number of
// attempts (OMPL's defaults), so the same path gets the same result.
void simplify(const ob::SpaceInformationPtr& si, og::PathGeometric& path) {
  og::PathSimplifier simplifier(si);
  simplifier.reduceVertices(path);
  simplifier.shortcutPath(path);
  simplifier.reduceVertices(path);
}

}  // namespace

const std::vector<std::string>& plannerNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const PlannerKind& k : kPlanners) out.push_back(k.name);
    return out;
  }();
  return names;
}

Config configOf(const ob::State* state, std::size_t n) {
  const auto* s = state->as<ob::RealVectorStateSpace::StateType>();
  return Config(s->values, s->values + n);
}

void setState(ob::State* state, const Config& q) {
  auto* s = state->as<ob::RealVectorStateSpace::StateType>();
  for (std::size_t i = 0; i < q.size(); ++i) s->values[i] = q[i];
}

ob::SpaceInformationPtr spaceOf(urdf::Scene& scene,
                                const std::vector<fcl::CollisionObject<double>*>& env,
                                const Arm& arm, MotionValidation motion, double resolution,
                                CheckCounts* counts) {
  auto space = std::make_shared<ob::RealVectorStateSpace>(arm.joints.size());
  ob::RealVectorBounds bounds(arm.joints.size());
  for (std::size_t i = 0; i < arm.joints.size(); ++i) {
    bounds.setLow(i, arm.lower[i]);
    bounds.setHigh(i, arm.upper[i]);
  }
  space->setBounds(bounds);
  auto si = std::make_shared<ob::SpaceInformation>(space);
  si->setStateValidityChecker(
      std::make_shared<SceneValidityChecker>(si, scene, env, arm, counts));
  si->setStateValidityCheckingResolution(resolution);
  if (motion == MotionValidation::kCertified)
    si->setMotionValidator(
        std::make_shared<CertifiedMotionValidator>(si, scene, env, arm, counts));
  else
    si->setMotionValidator(std::make_shared<ob::DiscreteMotionValidator>(si));
  si->setup();
  return si;
}

PlanResult plan(urdf::Scene& scene, const std::vector<fcl::CollisionObject<double>*>& env,
                const Arm& arm, const Config& start, const Config& goal,
                const PlanOptions& options) {
  PlanResult r;
  const auto si = spaceOf(scene, env, arm, options.motion, options.resolution, &r.counts);
  ob::ScopedState<> s(si), g(si);
  setState(s.get(), start);
  setState(g.get(), goal);
  auto pdef = std::make_shared<ob::ProblemDefinition>(si);
  pdef->setStartAndGoalStates(s, g);
  pdef->setOptimizationObjective(std::make_shared<ob::PathLengthOptimizationObjective>(si));
  const auto t0 = Clock::now();
  pdef->setIntermediateSolutionCallback(
      [&](const ob::Planner*, const std::vector<const ob::State*>&, const ob::Cost&) {
        if (r.first_solution_seconds != r.first_solution_seconds)
          r.first_solution_seconds = secondsSince(t0);
      });
  const ob::PlannerPtr planner = plannerOf(options.planner, si);
  planner->setProblemDefinition(pdef);
  planner->setup();
  const ob::PlannerStatus status = planner->solve(options.time_limit);
  r.seconds = secondsSince(t0);
  r.solved = status == ob::PlannerStatus::EXACT_SOLUTION;
  if (!r.solved) return r;
  if (r.first_solution_seconds != r.first_solution_seconds) r.first_solution_seconds = r.seconds;
  auto& path = *pdef->getSolutionPath()->as<og::PathGeometric>();
  if (options.simplify) {
    const auto t1 = Clock::now();
    simplify(si, path);
    r.simplify_seconds = secondsSince(t1);
  }
  r.length = path.length();
  for (std::size_t i = 0; i < path.getStateCount(); ++i)
    r.path.push_back(configOf(path.getState(i), arm.joints.size()));
  return r;
}

}  // namespace planning
}  // namespace sov
