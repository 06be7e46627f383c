/* superovoid URDF layer, C interface: the superovoid collision elements of a
 * URDF document, validated, with their link, collision and origin.
 *
 * Syntax (namespace "urn:superovoid:urdf:1", any prefix):
 *
 *   <robot name="hand" xmlns:sov="urn:superovoid:urdf:1">
 *     <link name="index_distal">
 *       <collision name="pad">
 *         <origin xyz="0 0 0.008" rpy="0 0 0"/>
 *         <geometry>
 *           <box size="0.012 0.012 0.018"/>
 *           <sov:superovoid a1="0.006" a2="0.006" a3="0.009" eps1="0.8"
 *                           eps2="0.5" taper_x="0.2" taper_y="0.2"/>
 *         </geometry>
 *       </collision>
 *     </link>
 *   </robot>
 *
 * The standard primitive first is the fallback that unmodified readers
 * (urdfdom, MoveIt, RViz) see; a superovoid alone in <geometry> gets an
 * enclosing box written in before the document goes to urdfdom.
 *
 * Every function returns a status: 0 on success, a negative sov_status of
 * superovoid.h (shape errors, SOV_ERR_NULL, SOV_ERR_BUFFER) or one of the
 * SOV_URDF_ERR_* codes below. Nothing here prints or exits; C++ exceptions
 * never cross these functions. urdfdom itself reports model errors through
 * console_bridge (to stderr unless the program silences it). */
#ifndef SUPEROVOID_URDF_H
#define SUPEROVOID_URDF_H

#include <stddef.h>

#include <superovoid/superovoid.h>

#include "superovoid/urdf/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The XML namespace of the superovoid elements. */
#define SOV_URDF_NAMESPACE "urn:superovoid:urdf:1"

/* Room for a link or collision name in sov_urdf_superovoid, with its NUL. */
#define SOV_URDF_NAME_SIZE 256

/* Status codes of the URDF layer (beside those of superovoid.h). */
enum {
  SOV_URDF_ERR_XML = -101,       /* not well-formed XML, or not UTF-8 */
  SOV_URDF_ERR_IO = -102,        /* a file could not be read or written */
  SOV_URDF_ERR_MODEL = -103,     /* urdfdom rejected the model, or dropped
                                    one of its <collision> elements */
  SOV_URDF_ERR_PLACEMENT = -104, /* a superovoid element outside
                                    <robot><link><collision><geometry>, two in
                                    one geometry, an unknown element of the
                                    superovoid namespace, or a superovoid
                                    element with an undeclared prefix */
  SOV_URDF_ERR_ATTRIBUTE = -105, /* an attribute of a superovoid element is
                                    missing, unknown or not a finite number */
  SOV_URDF_ERR_INTERNAL = -106,  /* unexpected failure (e.g. out of memory) */
  SOV_URDF_ERR_NAME = -107       /* a link or collision name of a superovoid
                                    is longer than SOV_URDF_NAME_SIZE - 1 */
};

/* One superovoid collision element. */
typedef struct sov_urdf_superovoid {
  char link[SOV_URDF_NAME_SIZE];      /* name of the link */
  char collision[SOV_URDF_NAME_SIZE]; /* name attribute of the <collision>,
                                         "" when it has none */
  size_t index;      /* index of the <collision> among the link's (from 0) */
  int line;          /* line of the superovoid element in the document */
  int had_fallback;  /* 1 when the document gave a primitive before it */
  double xyz[3];     /* collision origin in the link frame: position */
  double quat[4];    /* and rotation, unit quaternion w x y z */
  double params[7];  /* a1 a2 a3 eps1 eps2 taper_x taper_y */
  sov_shape shape;   /* the validated shape (sov_shape_init of params) */
} sov_urdf_superovoid;

/* Static English message for a status code of this header or superovoid.h. */
SOV_URDF_API const char *sov_urdf_status_string(int status);

/* Parse a URDF document (NUL-terminated) with urdfdom and collect its
 * superovoids in document order. *count receives how many the document has;
 * the first min(count, capacity) are written to out (out may be NULL when
 * capacity is 0). Returns SOV_ERR_BUFFER when capacity < *count (ask with
 * capacity 0, then call again; the first capacity entries are written).
 * Returns SOV_URDF_ERR_NAME, whatever the capacity (so already on the call
 * with capacity 0), when a link or collision name of a superovoid does not
 * fit SOV_URDF_NAME_SIZE; *count is then set and nothing is written to out.
 * On any error a message naming source_name (NULL: "<string>"), line, link
 * and attribute is written to err (NULL or err_size 0: none). */
SOV_URDF_API int sov_urdf_superovoids(sov_urdf_superovoid *out,
                                      size_t capacity, size_t *count,
                                      char *err, size_t err_size,
                                      const char *xml,
                                      const char *source_name);

/* As sov_urdf_superovoids, for the URDF file at path. */
SOV_URDF_API int sov_urdf_superovoids_file(sov_urdf_superovoid *out,
                                           size_t capacity, size_t *count,
                                           char *err, size_t err_size,
                                           const char *path);

#ifdef __cplusplus
}
#endif

#endif /* SUPEROVOID_URDF_H */
