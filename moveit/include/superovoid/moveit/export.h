// Symbol visibility of libsuperovoid_moveit (hidden by default; SOV_MOVEIT_API
// marks what it exports).
#ifndef SUPEROVOID_MOVEIT_EXPORT_H
#define SUPEROVOID_MOVEIT_EXPORT_H

#define SOV_MOVEIT_API __attribute__((visibility("default")))

#endif  // SUPEROVOID_MOVEIT_EXPORT_H
