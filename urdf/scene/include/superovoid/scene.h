/* C API of the robot collision scene (libsuperovoid_scene): a URDF model
 * with superovoid and ordinary (box, sphere, cylinder, mesh: STL, OBJ,
 * COLLADA, ...) collision geometry, its joints, an SRDF's disabled
 * collisions, and self-collision, minimum self-distance and contacts (every
 * pair within a margin) queries, also against superovoid obstacles. The C++
 * API is superovoid/urdf/scene.h.
 *
 *   sov_scene *scene;
 *   char err[512];
 *   if (sov_scene_create_file(&scene, "hand.urdf", err, sizeof err)) ... err
 *   const char *names[] = {"index_mcp"};
 *   double q[] = {0.3};
 *   sov_scene_set_joint_positions(scene, names, q, 1, err, sizeof err);
 *   sov_scene_distance d;
 *   sov_scene_min_self_distance(&d, scene, err, sizeof err);
 *   sov_scene_destroy(scene);
 *
 * Every function returning int returns 0 on success, or a negative status:
 * a sov_scene_status below, a SOV_URDF_ERR_* of superovoid/urdf.h (the
 * document was rejected; an unexpected failure is SOV_URDF_ERR_INTERNAL) or
 * a sov_status of superovoid/superovoid.h (SOV_ERR_NULL for a NULL argument,
 * or the solver's status when a query failed). On failure the message is
 * written to err (truncated to err_size - 1 characters, always terminated;
 * err may be NULL when err_size is 0). No C++ exception crosses these
 * functions. A scene must not be used from two threads at once. */
#ifndef SUPEROVOID_SCENE_H
#define SUPEROVOID_SCENE_H

#include <stddef.h>

#include "superovoid/urdf.h"
#include "superovoid/urdf/scene_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes of the scene (besides superovoid.h's and urdf.h's). */
typedef enum sov_scene_status {
  SOV_SCENE_ERR_JOINT = -201,   /* a joint name that is not a movable joint
                                   of the model, a position given to a fixed
                                   or mimic joint, a position that is not
                                   finite or outside the limits (also a
                                   mimic joint's derived one), an unknown
                                   mimic master or a mimic cycle, a floating
                                   or planar joint, a zero axis */
  SOV_SCENE_ERR_LINK = -202,    /* a link name that is not a link of the
                                   model */
  SOV_SCENE_ERR_GEOMETRY = -203, /* a collision geometry could not be built:
                                   mesh file unreadable, malformed or in an
                                   unsupported format, unknown package://
                                   package or URI scheme, no geometry */
  SOV_SCENE_ERR_SRDF = -204     /* an SRDF has no <robot>, or a collision
                                   entry lacks a link attribute */
} sov_scene_status;

/* A scene: opaque; create with sov_scene_create_*, free with
 * sov_scene_destroy. */
typedef struct sov_scene sov_scene;

/* The smallest signed distance between two geometries and where it is. */
typedef struct sov_scene_distance {
  char link1[SOV_URDF_NAME_SIZE]; /* link of the first geometry */
  size_t collision1;              /* its <collision> index in the link */
  char link2[SOV_URDF_NAME_SIZE]; /* link of the second geometry */
  size_t collision2;
  double distance; /* signed: < 0 overlap; a pair with a mesh has no depth:
                      0 when they touch or cross (a mesh is its surface: a
                      body wholly inside a closed mesh is apart), p1 = p2 a
                      point of contact; +infinity when every pair is allowed */
  double p1[3];    /* witness point on the first geometry (root frame) */
  double p2[3];    /* and on the second */
} sov_scene_distance;

/* A pair of geometries within a margin (sov_scene_self_contacts), with the
 * conventions of sov_scene_distance. */
typedef struct sov_scene_contact {
  char link1[SOV_URDF_NAME_SIZE]; /* link of the first geometry */
  size_t collision1;              /* its <collision> index in the link */
  char link2[SOV_URDF_NAME_SIZE]; /* link of the second ("" for an obstacle) */
  size_t collision2;              /* its index, or the obstacle's index */
  double distance;                /* signed; a mesh pair: 0 when touching */
  double p1[3];                   /* witness points (root frame) */
  double p2[3];
  double normal[3]; /* unit, from the first geometry towards the second */
} sov_scene_contact;

/* Static English message for a status: the scene's, urdf.h's and
 * superovoid.h's codes. */
SOV_SCENE_API const char *sov_scene_status_string(int status);

/* Creates a scene from the URDF file at path, every movable joint at 0 (or
 * its nearest limit). Relative mesh file names resolve against the file's
 * folder. *scene is NULL on failure. */
SOV_SCENE_API int sov_scene_create_file(sov_scene **scene, const char *path, char *err,
                                        size_t err_size);

/* Creates a scene from URDF text; source_name names it in messages (NULL:
 * "<string>"), relative mesh file names resolve against mesh_directory (NULL
 * or "": the current directory). */
SOV_SCENE_API int sov_scene_create_string(sov_scene **scene, const char *xml,
                                          const char *source_name, const char *mesh_directory,
                                          char *err, size_t err_size);

/* Frees a scene; NULL is a no-op. */
SOV_SCENE_API void sov_scene_destroy(sov_scene *scene);

/* Sets count joints by name (the others keep their positions); on failure
 * the scene is unchanged. */
SOV_SCENE_API int sov_scene_set_joint_positions(sov_scene *scene, const char *const *names,
                                                const double *positions, size_t count, char *err,
                                                size_t err_size);

/* The smallest signed distance over the geometry pairs of links that may
 * collide, with its links and witness points; SOV_URDF_ERR_NAME (out
 * untouched) when a link name of the answer does not fit
 * SOV_URDF_NAME_SIZE. */
SOV_SCENE_API int sov_scene_min_self_distance(sov_scene_distance *out, sov_scene *scene, char *err,
                                              size_t err_size);

/* *colliding = 1 when geometries of two links that may not collide touch;
 * *pair_count (may be NULL) = the number of such link pairs. */
SOV_SCENE_API int sov_scene_self_collision(int *colliding, size_t *pair_count, sov_scene *scene,
                                           char *err, size_t err_size);

/* Allows (allowed != 0: never checked) or disallows collisions between two
 * links. */
SOV_SCENE_API int sov_scene_allow_collision(sov_scene *scene, const char *link1, const char *link2,
                                            int allowed, char *err, size_t err_size);

/* What loading an SRDF changed (sov::urdf::SrdfReport). */
typedef struct sov_scene_srdf_report {
  size_t disabled; /* <disable_collisions> pairs, and the pairs of each
                      <disable_default_collisions> link, now allowed */
  size_t enabled;  /* <enable_collisions> pairs now checked */
  size_t skipped;  /* entries naming a link the model does not have (skipped,
                      as srdfdom and MoveIt skip them) */
} sov_scene_srdf_report;

/* Applies the collision entries of the SRDF (MoveIt's semantic robot
 * description) at path: <disable_default_collisions link>, then
 * <disable_collisions link1 link2>, then <enable_collisions link1 link2>;
 * everything else in it is ignored. report may be NULL. Errors name the SRDF
 * and the line: SOV_URDF_ERR_IO (unreadable), SOV_URDF_ERR_XML (not
 * well-formed), SOV_SCENE_ERR_SRDF; on failure the scene is unchanged. */
SOV_SCENE_API int sov_scene_load_srdf(sov_scene_srdf_report *report, sov_scene *scene,
                                      const char *path, char *err, size_t err_size);

/* As sov_scene_load_srdf, for SRDF text; source_name names it in messages
 * (NULL: "<string>"). */
SOV_SCENE_API int sov_scene_load_srdf_string(sov_scene_srdf_report *report, sov_scene *scene,
                                             const char *xml, const char *source_name,
                                             char *err, size_t err_size);

/* The environment as count superovoid obstacles: shapes[k] (from
 * sov_shape_init) at poses[k] (root frame; R a rotation within 1e-6). */

/* The smallest signed distance between a link geometry and an obstacle:
 * link1 and collision1 name the geometry, link2 is "" and collision2 is the
 * obstacle's index k; +infinity for count 0. Superovoid links start from the
 * previous answer for the same obstacle index (warm start). Obstacles are
 * checked before anything is queried: an invalid shape gives its
 * superovoid.h status, a pose that is not a rotation SOV_ERR_ROTATION. */
SOV_SCENE_API int sov_scene_distance_superovoids(sov_scene_distance *out, sov_scene *scene,
                                                 const sov_shape *shapes, const sov_pose *poses,
                                                 size_t count, char *err, size_t err_size);

/* Every geometry pair of links that may collide whose distance is at most
 * margin (a NaN margin is SOV_ERR_NONFINITE), nearest first, with witness
 * points and normal. *count receives their number; the first min(count,
 * capacity) are written to out (out may be NULL when capacity is 0).
 * Returns SOV_ERR_BUFFER when capacity < *count (ask with capacity 0, then
 * call again: each call runs the query), SOV_URDF_ERR_NAME (out untouched)
 * when a link name does not fit SOV_URDF_NAME_SIZE. */
SOV_SCENE_API int sov_scene_self_contacts(sov_scene_contact *out, size_t capacity, size_t *count,
                                          sov_scene *scene, double margin, char *err,
                                          size_t err_size);

/* As sov_scene_self_contacts, between the link geometries and n superovoid
 * obstacles (as in sov_scene_distance_superovoids: warm-started per index,
 * every obstacle checked first). */
SOV_SCENE_API int sov_scene_contacts_superovoids(sov_scene_contact *out, size_t capacity,
                                                 size_t *count, sov_scene *scene,
                                                 const sov_shape *shapes, const sov_pose *poses,
                                                 size_t n, double margin, char *err,
                                                 size_t err_size);

/* *colliding = 1 when a link geometry touches an obstacle. */
SOV_SCENE_API int sov_scene_collides_superovoids(int *colliding, sov_scene *scene,
                                                 const sov_shape *shapes, const sov_pose *poses,
                                                 size_t count, char *err, size_t err_size);

/* Answer of sov_scene_motion_collides (Scene::motionCollides). */
typedef struct sov_scene_motion {
  int colliding;           /* 1: a checked pair comes within 1e-6 on the
                              segment */
  double t;                /* time of first contact in [0, 1] along
                              q0 + t (q1 - q0), never after the first
                              contact; every checked pair is apart on
                              [0, t); 1 when free */
  sov_scene_distance pair; /* colliding: the pair at t, its distance and
                              witness points (link2 "" and collision2 the
                              obstacle's index for an obstacle); free:
                              empty names, distance +infinity */
  size_t steps;            /* distance queries made */
  size_t pairs;            /* geometry pairs checked */
  int certified;           /* 1 when every step's lower bound was proved
                              (0: a mesh pair stepped on FCL's GJK
                              distance) */
} sov_scene_motion;

/* Whether the joint-space segment from q0 to q1 is free (conservative
 * advancement over every pair of links that may collide, and against
 * n_obstacles static superovoid obstacles as in
 * sov_scene_distance_superovoids, which may be 0): names[k] moves from
 * q0[k] to q1[k]; the other joints keep their positions. The scene's joint
 * positions are left as they were. Errors: SOV_SCENE_ERR_JOINT (a name,
 * given twice, or a position at either end), the obstacles' statuses,
 * SOV_ERR_NO_CONVERGENCE (a million distance queries without an answer). */
SOV_SCENE_API int sov_scene_motion_collides(sov_scene_motion *out, sov_scene *scene,
                                            const char *const *names, const double *q0,
                                            const double *q1, size_t count,
                                            const sov_shape *shapes, const sov_pose *poses,
                                            size_t n_obstacles, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif /* SUPEROVOID_SCENE_H */
