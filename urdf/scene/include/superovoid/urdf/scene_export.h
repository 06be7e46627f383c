// Symbol visibility of libsuperovoid_scene: built with hidden visibility;
// SOV_SCENE_API marks what it exports.
#ifndef SUPEROVOID_URDF_SCENE_EXPORT_H
#define SUPEROVOID_URDF_SCENE_EXPORT_H
#if defined(_WIN32)
#  if defined(SOV_SCENE_BUILDING_LIBRARY)
#    define SOV_SCENE_API __declspec(dllexport)
#  else
#    define SOV_SCENE_API __declspec(dllimport)
#  endif
#else
#  define SOV_SCENE_API __attribute__((visibility("default")))
#endif
#endif  // SUPEROVOID_URDF_SCENE_EXPORT_H
