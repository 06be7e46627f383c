/* Install-test consumer of the scene's C API (superovoid::scene through
 * find_package(superovoid COMPONENTS scene)): two unit spheres as
 * superovoids on the links at either end of a chain of three, 3 apart along
 * x; the middle link is adjacent to both, so the one pair checked is the
 * spheres', at distance 1. Exits nonzero on any failure. */
#include <stdio.h>
#include <string.h>
#include <superovoid/scene.h>

static const char kUrdf[] =
    "<robot name='c' xmlns:sov='urn:superovoid:urdf:1'>"
    "<link name='a'><collision><geometry>"
    "<sov:superovoid a1='1' a2='1' a3='1' eps1='1' eps2='1'/></geometry></collision></link>"
    "<link name='m'/>"
    "<link name='b'><collision><geometry>"
    "<sov:superovoid a1='1' a2='1' a3='1' eps1='1' eps2='1'/></geometry></collision></link>"
    "<joint name='j1' type='revolute'><parent link='a'/><child link='m'/>"
    "<origin xyz='1.5 0 0'/><axis xyz='0 0 1'/>"
    "<limit lower='-1' upper='1' effort='1' velocity='1'/></joint>"
    "<joint name='j2' type='fixed'><parent link='m'/><child link='b'/>"
    "<origin xyz='1.5 0 0'/></joint>"
    "</robot>";

/* Absolute value without libm. */
static double abs_value(double x) { return x < 0.0 ? -x : x; }

int main(void) {
  sov_scene *scene = NULL;
  sov_scene_distance d;
  char err[512];
  int status = sov_scene_create_string(&scene, kUrdf, "consumer.urdf", NULL, err, sizeof err);
  if (status == 0) status = sov_scene_min_self_distance(&d, scene, err, sizeof err);
  sov_scene_destroy(scene);
  if (status != 0) {
    fprintf(stderr, "scene: %s (%s)\n", err, sov_scene_status_string(status));
    return 1;
  }
  if (abs_value(d.distance - 1.0) > 1e-9 || strcmp(d.link1, "a") != 0 ||
      strcmp(d.link2, "b") != 0) {
    fprintf(stderr, "scene: d = %.17g between '%s' and '%s', expected 1 between a and b\n",
            d.distance, d.link1, d.link2);
    return 1;
  }
  printf("scene: d = %.12g between %s and %s\n", d.distance, d.link1, d.link2);
  return 0;
}
