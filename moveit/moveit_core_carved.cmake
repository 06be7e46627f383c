# Top-level CMakeLists.txt for a carved-out moveit_core 1.1.16, copied over the original by
# build_moveit_core.sh. It follows the original file but adds only the subdirectories a
# planning scene with FCL collision detection needs, and drops ruckig, pybind11_catkin and
# Bullet, which Debian does not package (or which the scene does not use).
cmake_minimum_required(VERSION 3.1.3)
project(moveit_core)

if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  add_compile_options(-Wno-maybe-uninitialized)
endif()
include(cmake/moveit.cmake)
moveit_build_options()

find_package(Boost REQUIRED system filesystem date_time thread iostreams regex)
find_package(Eigen3 REQUIRED)
list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_SOURCE_DIR}/cmake")

find_package(fcl REQUIRED)
moveit_get_include_and_libs_from_target(fcl fcl)
find_package(octomap REQUIRED)
find_package(urdfdom REQUIRED)
find_package(urdfdom_headers REQUIRED)

find_package(catkin REQUIRED COMPONENTS
  tf2_eigen tf2_geometry_msgs eigen_stl_containers geometric_shapes geometry_msgs
  kdl_parser moveit_msgs octomap_msgs random_numbers roslib rostime rosconsole
  sensor_msgs shape_msgs srdfdom std_msgs trajectory_msgs urdf visualization_msgs
  xmlrpcpp pluginlib angles)

set(VERSION_FILE_PATH "${CATKIN_DEVEL_PREFIX}/include")
list(APPEND ${PROJECT_NAME}_INCLUDE_DIRS ${VERSION_FILE_PATH})
file(MAKE_DIRECTORY "${VERSION_FILE_PATH}/moveit")

set(THIS_PACKAGE_INCLUDE_DIRS
  exceptions/include backtrace/include collision_detection/include
  collision_detection_fcl/include kinematics_base/include robot_model/include
  transforms/include robot_state/include robot_trajectory/include
  kinematic_constraints/include macros/include planning_scene/include profiler/include
  trajectory_processing/include utils/include)

catkin_package(
  INCLUDE_DIRS ${THIS_PACKAGE_INCLUDE_DIRS}
  LIBRARIES
    moveit_exceptions moveit_kinematics_base moveit_robot_model moveit_transforms
    moveit_robot_state moveit_robot_trajectory moveit_collision_detection
    moveit_collision_detection_fcl moveit_kinematic_constraints moveit_planning_scene
    moveit_profiler moveit_trajectory_processing moveit_utils moveit_test_utils
  CATKIN_DEPENDS
    eigen_stl_containers geometric_shapes geometry_msgs kdl_parser moveit_msgs
    octomap_msgs random_numbers sensor_msgs shape_msgs srdfdom std_msgs tf2_eigen
    tf2_geometry_msgs trajectory_msgs visualization_msgs
  DEPENDS Boost EIGEN3 fcl OCTOMAP urdfdom urdfdom_headers
  CFG_EXTRAS moveit.cmake)

include_directories(SYSTEM ${catkin_INCLUDE_DIRS} ${Boost_INCLUDE_DIRS} ${EIGEN3_INCLUDE_DIRS}
  ${urdfdom_INCLUDE_DIRS} ${urdfdom_headers_INCLUDE_DIRS} ${fcl_INCLUDE_DIRS}
  ${OCTOMAP_INCLUDE_DIRS})
include_directories(${THIS_PACKAGE_INCLUDE_DIRS} ${VERSION_FILE_PATH})

add_subdirectory(version)
add_subdirectory(macros)
add_subdirectory(backtrace)
add_subdirectory(exceptions)
add_subdirectory(profiler)
add_subdirectory(utils)
add_subdirectory(kinematics_base)
add_subdirectory(robot_model)
add_subdirectory(transforms)
add_subdirectory(robot_state)
add_subdirectory(robot_trajectory)
add_subdirectory(collision_detection)
add_subdirectory(collision_detection_fcl)
add_subdirectory(kinematic_constraints)
add_subdirectory(planning_scene)

# The planning scene calls only trajectory_tools.cpp; the rest needs ruckig or KDL dynamics.
add_library(moveit_trajectory_processing trajectory_processing/src/trajectory_tools.cpp)
set_target_properties(moveit_trajectory_processing PROPERTIES VERSION "${${PROJECT_NAME}_VERSION}")
target_link_libraries(moveit_trajectory_processing moveit_robot_trajectory ${catkin_LIBRARIES})
install(TARGETS moveit_trajectory_processing
  LIBRARY DESTINATION ${CATKIN_PACKAGE_LIB_DESTINATION}
  ARCHIVE DESTINATION ${CATKIN_PACKAGE_LIB_DESTINATION})
install(FILES trajectory_processing/include/moveit/trajectory_processing/trajectory_tools.h
  DESTINATION ${CATKIN_GLOBAL_INCLUDE_DESTINATION}/moveit/trajectory_processing)

# package.xml exports a Bullet plugin description: install the empty one, as
# the original does without Bullet (pluginlib logs an error for a missing file).
install(FILES collision_detection_bullet/empty_description.xml
  DESTINATION ${CATKIN_PACKAGE_SHARE_DESTINATION} RENAME collision_detector_bullet_description.xml)
