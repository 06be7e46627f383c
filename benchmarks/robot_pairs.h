// The link pairs the robot benchmarks check, SRDF-style: links merged over
// fixed joints into bodies, and pairs of bodies at most two movable joints
// apart allowed (an SRDF's adjacent and "never" pairs). Shared by
// sov_bench_ccd and robots/sov_bench_robots.
#ifndef SUPEROVOID_BENCHMARKS_ROBOT_PAIRS_H
#define SUPEROVOID_BENCHMARKS_ROBOT_PAIRS_H

#include <urdf_model/model.h>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace sov_bench {

// Each link's body: the topmost link of its group rigidly attached through
// fixed joints.
inline std::map<std::string, std::string> rigidBodies(const urdf::ModelInterface& model) {
  std::map<std::string, std::string> body;
  for (const auto& l : model.links_) {
    auto link = l.second;
    while (link->parent_joint && link->parent_joint->type == urdf::Joint::FIXED)
      link = link->getParent();
    body[l.first] = link->name;
  }
  return body;
}

// Number of movable joints between two links' bodies in the tree.
inline int jointsBetween(const urdf::ModelInterface& model,
                         const std::map<std::string, std::string>& body, const std::string& a,
                         const std::string& b) {
  const auto chain = [&](const std::string& l) {
    std::vector<std::string> up;
    for (auto link = model.getLink(l); link; link = link->getParent()) {
      const std::string bl = body.at(link->name);
      if (up.empty() || up.back() != bl) up.push_back(bl);
    }
    return up;
  };
  const auto ca = chain(a), cb = chain(b);
  for (std::size_t i = 0; i < ca.size(); ++i)
    for (std::size_t j = 0; j < cb.size(); ++j)
      if (ca[i] == cb[j]) return static_cast<int>(i + j);
  return 1 << 20;
}

}  // namespace sov_bench

#endif
