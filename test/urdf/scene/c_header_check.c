/* Compiled as C11 into superovoid_scene_tests: superovoid/scene.h is a C
 * header, and the whole API is usable from C. */
#include <stddef.h>

#include "superovoid/scene.h"

/* Creates a scene of the URDF file at path, sets count joints, and writes
 * its minimum self distance to out and its colliding link pair count to
 * pairs; returns the first failing status (message in err). */
int sov_test_scene_from_c(sov_scene_distance *out, size_t *pairs, const char *path,
                          const char *const *names, const double *positions, size_t count,
                          char *err, size_t err_size);

int sov_test_scene_from_c(sov_scene_distance *out, size_t *pairs, const char *path,
                          const char *const *names, const double *positions, size_t count,
                          char *err, size_t err_size) {
  sov_scene *scene = NULL;
  int colliding = 0;
  int status = sov_scene_create_file(&scene, path, err, err_size);
  if (status == 0) {
    status = sov_scene_set_joint_positions(scene, names, positions, count, err, err_size);
  }
  if (status == 0) status = sov_scene_min_self_distance(out, scene, err, err_size);
  if (status == 0) status = sov_scene_self_collision(&colliding, pairs, scene, err, err_size);
  sov_scene_destroy(scene);
  return status;
}

/* Loads the SRDF text srdf into a scene of the URDF file at path and counts
 * its self contacts within margin into count; returns the first failing
 * status. */
int sov_test_scene_srdf_contacts_from_c(size_t *count, const char *path, const char *srdf,
                                        double margin, char *err, size_t err_size);

int sov_test_scene_srdf_contacts_from_c(size_t *count, const char *path, const char *srdf,
                                        double margin, char *err, size_t err_size) {
  sov_scene *scene = NULL;
  sov_scene_srdf_report report;
  int status = sov_scene_create_file(&scene, path, err, err_size);
  if (status == 0) {
    status = sov_scene_load_srdf_string(&report, scene, srdf, "c.srdf", err, err_size);
  }
  if (status == 0) {
    status = sov_scene_self_contacts(NULL, 0, count, scene, margin, err, err_size);
    if (status == SOV_ERR_BUFFER) status = 0; /* the count query */
  }
  sov_scene_destroy(scene);
  return status;
}

/* Checks the motion of count joints from q0 to q1 in a scene of the URDF
 * file at path, without obstacles, into out; returns the first failing
 * status. */
int sov_test_scene_motion_from_c(sov_scene_motion *out, const char *path,
                                 const char *const *names, const double *q0, const double *q1,
                                 size_t count, char *err, size_t err_size);

int sov_test_scene_motion_from_c(sov_scene_motion *out, const char *path,
                                 const char *const *names, const double *q0, const double *q1,
                                 size_t count, char *err, size_t err_size) {
  sov_scene *scene = NULL;
  int status = sov_scene_create_file(&scene, path, err, err_size);
  if (status == 0) {
    status = sov_scene_motion_collides(out, scene, names, q0, q1, count, NULL, NULL, 0, err,
                                       err_size);
  }
  sov_scene_destroy(scene);
  return status;
}
