// The C entry points of superovoid/scene.h: thin wrappers around
// sov::urdf::Scene that turn every exception into a status and a message
// (sov::guardedCall).
#include <superovoid/fcl.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "superovoid/scene.h"
#include "superovoid/urdf/error.h"
#include "superovoid/urdf/model.h"
#include "superovoid/urdf/scene.h"

struct sov_scene {
  std::unique_ptr<sov::urdf::Scene> scene;
  // Obstacle k of the superovoid environment queries. Each object keeps its
  // address for the scene's life (a new shape is built in place), so the
  // scene's warm-start caches, keyed by address, follow the obstacle index.
  std::vector<std::unique_ptr<std::optional<fcl::CollisionObject<double>>>> obstacles;
  std::vector<std::array<double, 7>> obstacle_params;
};

namespace {

// Copies message into err (truncated, NUL-terminated) when there is room.
void writeMessage(char* err, size_t err_size, const char* message) noexcept {
  sov::copyMessage(err, err_size, message);
}

// Runs body (returning a status), clears err on success, and maps every
// exception to its status and message (sov::guardedCall).
template <typename Body>
int guarded(char* err, size_t err_size, Body body) noexcept {
  return sov::guardedCall(err, err_size, SOV_URDF_ERR_INTERNAL, body);
}

// SOV_ERR_NULL with a message.
int nullArgument(char* err, size_t err_size) noexcept {
  writeMessage(err, err_size, "a required argument is NULL");
  return SOV_ERR_NULL;
}

// Copies name into a fixed-size field; SOV_URDF_ERR_NAME when it does not fit.
int copyName(char (&dst)[SOV_URDF_NAME_SIZE], const std::string& name, char* err, size_t err_size) {
  if (name.size() >= SOV_URDF_NAME_SIZE) {
    writeMessage(err, err_size,
                 ("link '" + name.substr(0, 40) + "...' (" + std::to_string(name.size()) +
                  " characters) does not fit SOV_URDF_NAME_SIZE")
                     .c_str());
    return SOV_URDF_ERR_NAME;
  }
  std::memcpy(dst, name.c_str(), name.size() + 1);
  return SOV_OK;
}

// Writes d into *out, or returns SOV_URDF_ERR_NAME (out untouched) when a
// link name does not fit.
int copyDistance(sov_scene_distance* out, const sov::urdf::PairDistance& d, char* err,
                 size_t err_size) {
  sov_scene_distance r;
  int status = copyName(r.link1, d.link1, err, err_size);
  if (status == SOV_OK) status = copyName(r.link2, d.link2, err, err_size);
  if (status != SOV_OK) return status;
  r.collision1 = d.collision1;
  r.collision2 = d.collision2;
  r.distance = d.distance;
  for (int i = 0; i < 3; ++i) {
    r.p1[i] = d.p1[i];
    r.p2[i] = d.p2[i];
  }
  *out = r;
  return SOV_OK;
}

// Writes contacts into out (the first capacity of them) and their number
// into *count; SOV_ERR_BUFFER when they do not all fit, SOV_URDF_ERR_NAME
// (nothing written) when a link name does not fit.
int copyContacts(sov_scene_contact* out, size_t capacity, size_t* count,
                 const std::vector<sov::urdf::Contact>& contacts, char* err, size_t err_size) {
  *count = contacts.size();
  sov_scene_contact c;
  for (const sov::urdf::Contact& k : contacts) {  // every name checked first
    int status = copyName(c.link1, k.link1, err, err_size);
    if (status == SOV_OK) status = copyName(c.link2, k.link2, err, err_size);
    if (status != SOV_OK) return status;
  }
  for (size_t i = 0; i < contacts.size() && i < capacity; ++i) {
    const sov::urdf::Contact& k = contacts[i];
    copyName(out[i].link1, k.link1, err, err_size);
    copyName(out[i].link2, k.link2, err, err_size);
    out[i].collision1 = k.collision1;
    out[i].collision2 = k.collision2;
    out[i].distance = k.distance;
    for (int j = 0; j < 3; ++j) {
      out[i].p1[j] = k.p1[j];
      out[i].p2[j] = k.p2[j];
      out[i].normal[j] = k.normal[j];
    }
  }
  if (capacity < contacts.size()) {
    writeMessage(err, err_size,
                 ("the query has " + std::to_string(contacts.size()) + " contacts, room for " +
                  std::to_string(capacity))
                     .c_str());
    return SOV_ERR_BUFFER;
  }
  return SOV_OK;
}

// Writes r into *out (out may be NULL).
void copyReport(sov_scene_srdf_report* out, const sov::urdf::SrdfReport& r) noexcept {
  if (!out) return;
  out->disabled = r.disabled;
  out->enabled = r.enabled;
  out->skipped = r.skipped.size();
}

// Creates *out from a parsed model.
int create(sov_scene** out, const sov::urdf::Model& model, const sov::urdf::SceneOptions& options) {
  auto s = std::make_unique<sov_scene>();
  s->scene = std::make_unique<sov::urdf::Scene>(model, options);
  *out = s.release();
  return SOV_OK;
}

}  // namespace

extern "C" {

const char* sov_scene_status_string(int status) {
  switch (status) {
    case SOV_SCENE_ERR_JOINT:
      return "a joint name or position is invalid, or a joint is not supported";
    case SOV_SCENE_ERR_LINK:
      return "a link name is not a link of the model";
    case SOV_SCENE_ERR_GEOMETRY:
      return "a collision geometry could not be built";
    case SOV_SCENE_ERR_SRDF:
      return "an SRDF has no <robot> or a collision entry without its links";
    default:
      return sov_urdf_status_string(status);
  }
}

int sov_scene_create_file(sov_scene** scene, const char* path, char* err, size_t err_size) {
  if (!scene) return nullArgument(err, err_size);
  *scene = nullptr;
  if (!path) return nullArgument(err, err_size);
  return guarded(err, err_size, [&]() -> int {
    sov::urdf::SceneOptions options;
    options.mesh_directory = std::filesystem::path(path).parent_path().string();
    return create(scene, sov::urdf::parseFile(path), options);
  });
}

int sov_scene_create_string(sov_scene** scene, const char* xml, const char* source_name,
                            const char* mesh_directory, char* err, size_t err_size) {
  if (!scene) return nullArgument(err, err_size);
  *scene = nullptr;
  if (!xml) return nullArgument(err, err_size);
  return guarded(err, err_size, [&]() -> int {
    sov::urdf::SceneOptions options;
    if (mesh_directory) options.mesh_directory = mesh_directory;
    return create(scene, sov::urdf::parse(xml, source_name ? source_name : "<string>"), options);
  });
}

void sov_scene_destroy(sov_scene* scene) { delete scene; }

int sov_scene_set_joint_positions(sov_scene* scene, const char* const* names,
                                  const double* positions, size_t count, char* err,
                                  size_t err_size) {
  if (!scene || (count > 0 && (!names || !positions))) return nullArgument(err, err_size);
  for (size_t k = 0; k < count; ++k) {
    if (!names[k]) return nullArgument(err, err_size);
  }
  return guarded(err, err_size, [&]() -> int {
    sov::urdf::JointPositions q;
    for (size_t k = 0; k < count; ++k) {
      if (!q.emplace(names[k], positions[k]).second) {
        throw sov::urdf::SceneError(SOV_SCENE_ERR_JOINT, names[k],
                                    "joint '" + std::string(names[k]) + "' is given twice");
      }
    }
    scene->scene->setJointPositions(q);
    return SOV_OK;
  });
}

int sov_scene_min_self_distance(sov_scene_distance* out, sov_scene* scene, char* err,
                                size_t err_size) {
  if (!out || !scene) return nullArgument(err, err_size);
  return guarded(err, err_size, [&]() -> int {
    return copyDistance(out, scene->scene->minSelfDistance(), err, err_size);
  });
}

int sov_scene_self_collision(int* colliding, size_t* pair_count, sov_scene* scene, char* err,
                             size_t err_size) {
  if (!colliding || !scene) return nullArgument(err, err_size);
  return guarded(err, err_size, [&]() -> int {
    if (!pair_count) {
      *colliding = scene->scene->selfCollision() ? 1 : 0;
      return SOV_OK;
    }
    std::set<std::pair<std::string, std::string>> pairs;
    *colliding = scene->scene->selfCollision(&pairs) ? 1 : 0;
    *pair_count = pairs.size();
    return SOV_OK;
  });
}

int sov_scene_allow_collision(sov_scene* scene, const char* link1, const char* link2, int allowed,
                              char* err, size_t err_size) {
  if (!scene || !link1 || !link2) return nullArgument(err, err_size);
  return guarded(err, err_size, [&]() -> int {
    if (allowed) {
      scene->scene->allowCollision(link1, link2);
    } else {
      scene->scene->disallowCollision(link1, link2);
    }
    return SOV_OK;
  });
}

int sov_scene_self_contacts(sov_scene_contact* out, size_t capacity, size_t* count,
                            sov_scene* scene, double margin, char* err, size_t err_size) {
  if (!count || !scene || (!out && capacity > 0)) return nullArgument(err, err_size);
  *count = 0;
  return guarded(err, err_size, [&]() -> int {
    return copyContacts(out, capacity, count, scene->scene->contacts(margin), err, err_size);
  });
}

int sov_scene_load_srdf(sov_scene_srdf_report* report, sov_scene* scene, const char* path,
                        char* err, size_t err_size) {
  if (!scene || !path) return nullArgument(err, err_size);
  return guarded(err, err_size, [&]() -> int {
    copyReport(report, scene->scene->loadSrdf(path));
    return SOV_OK;
  });
}

int sov_scene_load_srdf_string(sov_scene_srdf_report* report, sov_scene* scene, const char* xml,
                               const char* source_name, char* err, size_t err_size) {
  if (!scene || !xml) return nullArgument(err, err_size);
  return guarded(err, err_size, [&]() -> int {
    copyReport(report, scene->scene->loadSrdfString(xml, source_name ? source_name : "<string>"));
    return SOV_OK;
  });
}

}  // extern "C"

namespace {

// The obstacles as the scene's environment: validates every shape and pose
// first (throwing sov::Error with the core's status), then updates the
// scene's obstacle objects in place.
std::vector<fcl::CollisionObject<double>*> obstacles(sov_scene& scene, const sov_shape* shapes,
                                                     const sov_pose* poses, size_t count) {
  std::vector<std::array<double, 7>> params(count);
  for (size_t k = 0; k < count; ++k) {
    const std::string which = "obstacle " + std::to_string(k);
    sov_shape_info info;
    int status = sov_shape_get(&info, &shapes[k]);
    if (status != SOV_OK) throw sov::Error(status, which + ": " + sov_status_string(status));
    std::copy(std::begin(info.params), std::end(info.params), params[k].begin());
    sov_shape checked;
    status = sov_shape_init(&checked, params[k].data());
    if (status != SOV_OK) throw sov::Error(status, which + ": " + sov_status_string(status));
    sov_pose pose;
    status = sov_pose_from_matrix(&pose, poses[k].R, poses[k].p);
    if (status != SOV_OK) throw sov::Error(status, which + ": " + sov_status_string(status));
  }
  std::vector<fcl::CollisionObject<double>*> env;
  for (size_t k = 0; k < count; ++k) {
    if (k == scene.obstacles.size()) {
      scene.obstacles.push_back(std::make_unique<std::optional<fcl::CollisionObject<double>>>());
      scene.obstacle_params.emplace_back();
    }
    std::optional<fcl::CollisionObject<double>>& object = *scene.obstacles[k];
    if (!object || scene.obstacle_params[k] != params[k]) {
      object.emplace(std::make_shared<sov::Superovoid>(params[k]));
      scene.obstacle_params[k] = params[k];
    }
    Eigen::Matrix3d R;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) R(i, j) = poses[k].R[3 * i + j];
    }
    object->setTransform(R, Eigen::Vector3d(poses[k].p[0], poses[k].p[1], poses[k].p[2]));
    object->computeAABB();
    env.push_back(&*object);
  }
  return env;
}

}  // namespace

int sov_scene_distance_superovoids(sov_scene_distance* out, sov_scene* scene,
                                   const sov_shape* shapes, const sov_pose* poses, size_t count,
                                   char* err, size_t err_size) {
  if (!out || !scene || (count > 0 && (!shapes || !poses))) return nullArgument(err, err_size);
  return guarded(err, err_size, [&]() -> int {
    return copyDistance(out, scene->scene->distance(obstacles(*scene, shapes, poses, count)), err,
                        err_size);
  });
}

int sov_scene_contacts_superovoids(sov_scene_contact* out, size_t capacity, size_t* count,
                                   sov_scene* scene, const sov_shape* shapes,
                                   const sov_pose* poses, size_t n, double margin, char* err,
                                   size_t err_size) {
  if (!count || !scene || (!out && capacity > 0) || (n > 0 && (!shapes || !poses))) {
    return nullArgument(err, err_size);
  }
  *count = 0;
  return guarded(err, err_size, [&]() -> int {
    return copyContacts(out, capacity, count,
                        scene->scene->contacts(obstacles(*scene, shapes, poses, n), margin), err,
                        err_size);
  });
}

int sov_scene_collides_superovoids(int* colliding, sov_scene* scene, const sov_shape* shapes,
                                   const sov_pose* poses, size_t count, char* err,
                                   size_t err_size) {
  if (!colliding || !scene || (count > 0 && (!shapes || !poses))) {
    return nullArgument(err, err_size);
  }
  return guarded(err, err_size, [&]() -> int {
    *colliding = scene->scene->collides(obstacles(*scene, shapes, poses, count)) ? 1 : 0;
    return SOV_OK;
  });
}

namespace {

// Joint positions from C arrays; a name given twice is a joint error.
sov::urdf::JointPositions positionsOf(const char* const* names, const double* values,
                                      size_t count) {
  sov::urdf::JointPositions q;
  for (size_t k = 0; k < count; ++k) {
    if (!q.emplace(names[k], values[k]).second) {
      throw sov::urdf::SceneError(SOV_SCENE_ERR_JOINT, names[k],
                                  "joint '" + std::string(names[k]) + "' is given twice");
    }
  }
  return q;
}

}  // namespace

int sov_scene_motion_collides(sov_scene_motion* out, sov_scene* scene, const char* const* names,
                              const double* q0, const double* q1, size_t count,
                              const sov_shape* shapes, const sov_pose* poses, size_t n_obstacles,
                              char* err, size_t err_size) {
  if (!out || !scene || (count > 0 && (!names || !q0 || !q1)) ||
      (n_obstacles > 0 && (!shapes || !poses))) {
    return nullArgument(err, err_size);
  }
  for (size_t k = 0; k < count; ++k) {
    if (!names[k]) return nullArgument(err, err_size);
  }
  return guarded(err, err_size, [&]() -> int {
    const sov::urdf::JointPositions from = positionsOf(names, q0, count);
    const sov::urdf::JointPositions to = positionsOf(names, q1, count);
    const auto env = obstacles(*scene, shapes, poses, n_obstacles);
    const sov::urdf::MotionCheck m = scene->scene->motionCollides(from, to, env);
    sov_scene_motion r{};
    sov::urdf::PairDistance pair = m.pair;
    const int status = copyDistance(&r.pair, pair, err, err_size);
    if (status != SOV_OK) return status;
    r.colliding = m.collides ? 1 : 0;
    r.t = m.t;
    r.steps = m.steps;
    r.pairs = m.pairs;
    r.certified = m.certified ? 1 : 0;
    *out = r;
    return SOV_OK;
  });
}
