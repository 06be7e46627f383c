# The properties every installed superovoid library and program shares, in
# one place. Included by the root CMakeLists.txt after GNUInstallDirs; uses
# SOV_WARNING_FLAGS, SOV_SOVERSION, SOV_BUILD_SHARED and SOV_CMAKE_DIR.

# RUNPATH of installed programs: the library folder relative to the program
# folder ("$ORIGIN/../lib"), so that an installed tool finds its libraries
# wherever the prefix is moved to and without LD_LIBRARY_PATH.
file(RELATIVE_PATH SOV_BIN_TO_LIB
  ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
set(SOV_PROGRAM_RUNPATH "$ORIGIN/${SOV_BIN_TO_LIB}")

# sov_library(<target> EXPORT_NAME <name> EXPORT_SET <set>
#             [INCLUDE_DIR <dir>] [BUILDING_DEFINE <macro>] [CXX])
#
# Gives the library <target> (already created by add_library) the common
# properties: alias superovoid::<name>; hidden visibility (the SOV_*_API
# macros mark what is exported) and position-independent code; the
# project's warnings; VERSION and SOVERSION; --no-undefined when shared;
# RUNPATH $ORIGIN once installed (the superovoid libraries sit side by
# side); <macro> defined while it is built; INCLUDE_DIR (relative to the
# calling folder) as its public headers, installed under include/; install
# rules into the export set <set>, which is installed too. CXX marks a C++17
# layer: it also gets the C++ headers all layers share (cxx/include:
# sov::Error).
function(sov_library target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "CXX"
    "EXPORT_NAME;EXPORT_SET;INCLUDE_DIR;BUILDING_DEFINE" "")
  if(NOT ARG_EXPORT_NAME OR NOT ARG_EXPORT_SET)
    message(FATAL_ERROR "sov_library(${target}): EXPORT_NAME and EXPORT_SET are required")
  endif()
  add_library(superovoid::${ARG_EXPORT_NAME} ALIAS ${target})
  set_target_properties(${target} PROPERTIES
    VERSION ${PROJECT_VERSION}
    SOVERSION ${SOV_SOVERSION}
    OUTPUT_NAME ${target}
    EXPORT_NAME ${ARG_EXPORT_NAME}
    POSITION_INDEPENDENT_CODE ON
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    INSTALL_RPATH "$ORIGIN")
  target_compile_options(${target} PRIVATE ${SOV_WARNING_FLAGS})
  if(ARG_BUILDING_DEFINE)
    target_compile_definitions(${target} PRIVATE ${ARG_BUILDING_DEFINE})
  endif()
  if(SOV_BUILD_SHARED AND NOT APPLE AND NOT WIN32)
    # Fail at link time, not in the user's program, if a symbol is missing.
    target_link_options(${target} PRIVATE LINKER:--no-undefined)
  endif()
  set(include_dirs "")
  if(ARG_INCLUDE_DIR)
    list(APPEND include_dirs ${CMAKE_CURRENT_SOURCE_DIR}/${ARG_INCLUDE_DIR})
  endif()
  if(ARG_CXX)
    target_compile_features(${target} PUBLIC cxx_std_17)
    list(APPEND include_dirs ${PROJECT_SOURCE_DIR}/cxx/include)
  endif()
  foreach(dir IN LISTS include_dirs)
    target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${dir}>)
    install(DIRECTORY ${dir}/superovoid
      DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
      FILES_MATCHING PATTERN "*.h")
  endforeach()
  target_include_directories(${target} PUBLIC $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  install(TARGETS ${target} EXPORT ${ARG_EXPORT_SET}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT ${ARG_EXPORT_SET}
    NAMESPACE superovoid::
    DESTINATION ${SOV_CMAKE_DIR})
endfunction()

# sov_program(<target>): an installed command-line tool (already created by
# add_executable): the project's warnings, RUNPATH to the installed
# libraries relative to its own folder, installed into bin/.
function(sov_program target)
  target_compile_options(${target} PRIVATE ${SOV_WARNING_FLAGS})
  set_target_properties(${target} PROPERTIES INSTALL_RPATH "${SOV_PROGRAM_RUNPATH}")
  install(TARGETS ${target} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()
