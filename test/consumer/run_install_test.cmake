# Install test, run by ctest as `cmake -P` (see test/CMakeLists.txt):
#  1. install the build tree into SOV_WORK_DIR/prefix;
#  2. build test/consumer with find_package(superovoid) and with pkg-config,
#     and, when superovoid::scene was installed, a C consumer of its C API
#     with find_package(superovoid COMPONENTS scene), and of the fitting
#     component with COMPONENTS fit;
#  3. compile consumer.c with a plain `cc ... $(pkg-config --cflags --libs)`
#     (with -Wl,-rpath for the prefix, as a Makefile user of a non-system
#     prefix writes it);
#  4. run the programs and the installed tools, with LD_LIBRARY_PATH unset:
#     installed libraries and tools carry an $ORIGIN-relative RUNPATH
#     (checked with readelf), and the consumers CMake's build RPATH;
#  5. import the installed Python package (SOV_PYTHON, when it was built)
#     from the prefix's site directory;
#  6. (shared library) check that only sov_* symbols are exported and that
#     LAPACKE stays private.
# Inputs: SOV_BUILD_DIR SOV_WORK_DIR SOV_CONSUMER_DIR SOV_CONFIG SOV_SHARED
#         SOV_LIBRARY_FILE SOV_NM SOV_READELF SOV_C_COMPILER SOV_GENERATOR
#         PKG_CONFIG_EXECUTABLE SOV_PYTHON (empty: no Python package)
#         SOV_SANITIZE (the build's sanitizers, empty for none)

# Run a command; stop the test with its output if it fails.
function(sov_run what)
  execute_process(COMMAND ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${what}: ok")
  set(SOV_LAST_OUTPUT "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${SOV_WORK_DIR}/prefix)
file(REMOVE_RECURSE ${SOV_WORK_DIR})
file(MAKE_DIRECTORY ${SOV_WORK_DIR})

sov_run("install" ${CMAKE_COMMAND} --install ${SOV_BUILD_DIR}
  --prefix ${prefix} --config ${SOV_CONFIG})

file(GLOB_RECURSE config_file ${prefix}/*/superovoidConfig.cmake)
file(GLOB_RECURSE pc_file ${prefix}/*/superovoid.pc)
file(GLOB_RECURSE targets_file ${prefix}/*/superovoidTargets.cmake)
foreach(f config_file pc_file targets_file)
  if(NOT ${f})
    message(FATAL_ERROR "install: no ${f} under ${prefix}")
  endif()
endforeach()
if(NOT EXISTS ${prefix}/include/superovoid/superovoid.h)
  message(FATAL_ERROR "install: no include/superovoid/superovoid.h")
endif()
get_filename_component(pc_dir ${pc_file} DIRECTORY)
get_filename_component(lib_dir ${pc_dir} DIRECTORY)

# The .pc file must name the prefix installed to, not the configured one.
file(READ ${pc_file} pc_text)
string(FIND "${pc_text}" "prefix=${prefix}\n" pc_at)
if(NOT pc_at EQUAL 0)
  message(FATAL_ERROR "superovoid.pc does not point at ${prefix}:\n${pc_text}")
endif()

set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
# Nothing may find the installed libraries through the environment.
unset(ENV{LD_LIBRARY_PATH})

if(SOV_SHARED)
  set(static OFF)
else()
  set(static ON)
endif()
# The scene component is checked when its export set was installed.
file(GLOB_RECURSE scene_targets ${prefix}/*/superovoidSceneTargets.cmake)
if(scene_targets)
  set(scene ON)
else()
  set(scene OFF)
endif()
file(GLOB_RECURSE fit_targets ${prefix}/*/superovoidFitTargets.cmake)
if(fit_targets)
  set(fit ON)
else()
  set(fit OFF)
endif()
# A sanitized build's consumers are sanitized too: a plain program loads the
# sanitizer runtime only as a dependency of the library, after libstdc++,
# and the two operator news then meet (the fit consumer, whose libraries pull
# in liboctomap's static constructors, crashed before main).
set(san_flags "")
if(SOV_SANITIZE)
  set(san_flags "-fsanitize=${SOV_SANITIZE}")
endif()
sov_run("configure consumer" ${CMAKE_COMMAND}
  -S ${SOV_CONSUMER_DIR} -B ${SOV_WORK_DIR}/build -G ${SOV_GENERATOR}
  -DCMAKE_BUILD_TYPE=${SOV_CONFIG}
  "-DCMAKE_C_FLAGS=${san_flags}" "-DCMAKE_CXX_FLAGS=${san_flags}"
  "-DCMAKE_EXE_LINKER_FLAGS=${san_flags}"
  -DCMAKE_C_COMPILER=${SOV_C_COMPILER}
  -DCMAKE_PREFIX_PATH=${prefix}
  -DPKG_CONFIG_EXECUTABLE=${PKG_CONFIG_EXECUTABLE}
  -DSOV_STATIC=${static}
  -DSOV_CONSUMER_SCENE=${scene}
  -DSOV_CONSUMER_FIT=${fit})
sov_run("build consumer" ${CMAKE_COMMAND} --build ${SOV_WORK_DIR}/build
  --config ${SOV_CONFIG})

file(GLOB_RECURSE exe_cmake ${SOV_WORK_DIR}/build/consumer_cmake
  ${SOV_WORK_DIR}/build/consumer_cmake.exe)
file(GLOB_RECURSE exe_pc ${SOV_WORK_DIR}/build/consumer_pkgconfig
  ${SOV_WORK_DIR}/build/consumer_pkgconfig.exe)
sov_run("run consumer (find_package)" ${exe_cmake})
string(STRIP "${SOV_LAST_OUTPUT}" consumer_output)
message(STATUS "  ${consumer_output}")
sov_run("run consumer (pkg-config, CMake)" ${exe_pc})
if(scene)
  file(GLOB_RECURSE exe_scene ${SOV_WORK_DIR}/build/consumer_scene
    ${SOV_WORK_DIR}/build/consumer_scene.exe)
  sov_run("run scene consumer (find_package COMPONENTS scene)" ${exe_scene})
  string(STRIP "${SOV_LAST_OUTPUT}" consumer_output)
  message(STATUS "  ${consumer_output}")
endif()
if(fit)
  file(GLOB_RECURSE exe_fit ${SOV_WORK_DIR}/build/consumer_fit
    ${SOV_WORK_DIR}/build/consumer_fit.exe)
  sov_run("run fit consumer (find_package COMPONENTS fit)" ${exe_fit})
  string(STRIP "${SOV_LAST_OUTPUT}" consumer_output)
  message(STATUS "  ${consumer_output}")
endif()

# Plain compiler line, as a Makefile user would write it.
if(SOV_SHARED)
  sov_run("pkg-config" ${PKG_CONFIG_EXECUTABLE} --cflags --libs superovoid)
else()
  sov_run("pkg-config" ${PKG_CONFIG_EXECUTABLE} --static --cflags --libs
    superovoid)
endif()
string(STRIP "${SOV_LAST_OUTPUT}" pc_flags)
if(SOV_SHARED AND pc_flags MATCHES "lapacke")
  message(FATAL_ERROR "pkg-config --libs leaks LAPACKE: ${pc_flags}")
endif()
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
sov_run("compile consumer (pkg-config, cc)" ${SOV_C_COMPILER} ${san_flags}
  ${SOV_CONSUMER_DIR}/consumer.c -o ${SOV_WORK_DIR}/consumer_cc ${pc_flags}
  -Wl,-rpath,${lib_dir})
sov_run("run consumer (pkg-config, cc)" ${SOV_WORK_DIR}/consumer_cc)

# The installed tools start with nothing but their RUNPATH.
set(bin_dir ${prefix}/bin)
if(EXISTS ${bin_dir}/sov-query)
  sov_run("run installed sov-query" ${bin_dir}/sov-query
    --a "1 1 1 1 1" --b "1 1 1 1 1" --pose-b "3 0 0")
  if(NOT SOV_LAST_OUTPUT MATCHES "d          = 1\n")
    message(FATAL_ERROR "installed sov-query: two unit spheres 3 apart are not 1 apart:\n"
      "${SOV_LAST_OUTPUT}")
  endif()
endif()
if(EXISTS ${bin_dir}/sov-urdf-fallback)
  file(WRITE ${SOV_WORK_DIR}/bare.urdf
    "<robot name='r' xmlns:sov='urn:superovoid:urdf:1'><link name='l'><collision>"
    "<geometry><sov:superovoid a1='1' a2='1' a3='1' eps1='1' eps2='1'/></geometry>"
    "</collision></link></robot>\n")
  sov_run("run installed sov-urdf-fallback" ${bin_dir}/sov-urdf-fallback
    ${SOV_WORK_DIR}/bare.urdf ${SOV_WORK_DIR}/with_box.urdf)
  if(EXISTS ${bin_dir}/sov-query)
    sov_run("run installed sov-query (robot query)" ${bin_dir}/sov-query
      --urdf ${SOV_WORK_DIR}/with_box.urdf --obstacle "sphere 0.5 @ 3 0 0")
    if(NOT SOV_LAST_OUTPUT MATCHES "env-min +l +0 +obstacle +0 +1\\.5")
      message(FATAL_ERROR "installed sov-query: a unit sphere 1.5 from an obstacle of radius "
        "0.5 at 3:\n${SOV_LAST_OUTPUT}")
    endif()
  endif()
endif()

# The installed Python package (when built; SOV_PYTHON is its interpreter)
# imports from the prefix's site directory with LD_LIBRARY_PATH unset: its
# module finds the libraries through its RUNPATH.
if(SOV_PYTHON)
  file(GLOB_RECURSE py_init ${prefix}/__init__.py)
  list(FILTER py_init INCLUDE REGEX "/superovoid/__init__\\.py$")
  if(NOT py_init)
    message(FATAL_ERROR "install: no superovoid/__init__.py under ${prefix}")
  endif()
  get_filename_component(py_pkg ${py_init} DIRECTORY)
  get_filename_component(py_site ${py_pkg} DIRECTORY)
  set(ENV{PYTHONPATH} ${py_site})
  file(WRITE ${SOV_WORK_DIR}/import_check.py
    "import superovoid as s\n"
    "u = s.Shape(1, 1, 1, 1, 1)\n"
    "assert abs(s.distance(u, s.Pose(), u, s.Pose([3, 0, 0])).d - 1) < 1e-12\n"
    "print(s.__file__, s.HAVE_SCENE, s.HAVE_FIT)\n")
  sov_run("import installed Python package" ${SOV_PYTHON} ${SOV_WORK_DIR}/import_check.py)
  if(NOT SOV_LAST_OUTPUT MATCHES "^${py_pkg}/__init__.py")
    message(FATAL_ERROR "the Python package imported is not the installed one:\n${SOV_LAST_OUTPUT}")
  endif()
  file(GLOB py_module ${py_pkg}/_superovoid*.so)
  file(GLOB py_stub ${py_pkg}/_superovoid.pyi ${py_pkg}/py.typed)
  list(LENGTH py_stub py_stub_count)
  if(NOT py_module OR NOT py_stub_count EQUAL 2)
    message(FATAL_ERROR "install: the extension module, stub or py.typed is missing in ${py_pkg}")
  endif()
  unset(ENV{PYTHONPATH})
endif()

if(NOT SOV_SHARED)
  return()
endif()

# Every installed library and tool has a RUNPATH relative to its own folder
# ($ORIGIN), and none points back into the build tree.
file(GLOB installed_elf ${lib_dir}/libsuperovoid*.so ${bin_dir}/*)
if(SOV_PYTHON)
  list(APPEND installed_elf ${py_module})
endif()
foreach(elf IN LISTS installed_elf)
  sov_run("readelf ${elf}" ${SOV_READELF} -d ${elf})
  if(NOT SOV_LAST_OUTPUT MATCHES "\\(RUNPATH\\)[^\n]*\\[\\$ORIGIN[^\n]*\\]")
    message(FATAL_ERROR "${elf} has no $ORIGIN-relative RUNPATH:\n${SOV_LAST_OUTPUT}")
  endif()
  if(SOV_LAST_OUTPUT MATCHES "R(UN)?PATH[^\n]*${SOV_BUILD_DIR}")
    message(FATAL_ERROR "${elf} points into the build tree:\n${SOV_LAST_OUTPUT}")
  endif()
endforeach()

# Hidden visibility: the shared library exports the C API and nothing else.
sov_run("nm" ${SOV_NM} -D --defined-only ${SOV_LIBRARY_FILE})
string(REPLACE "\n" ";" nm_lines "${SOV_LAST_OUTPUT}")
set(foreign "")
set(count 0)
foreach(line IN LISTS nm_lines)
  if(line MATCHES "^[0-9a-fA-F]* +[A-Za-z] +([^ ]+)$")
    set(sym ${CMAKE_MATCH_1})
    if(sym MATCHES "^sov_")
      math(EXPR count "${count} + 1")
    elseif(NOT sym MATCHES "^(_init|_fini|_edata|_end|__bss_start)$")
      list(APPEND foreign ${sym})
    endif()
  endif()
endforeach()
if(foreign)
  message(FATAL_ERROR "libsuperovoid exports non-API symbols: ${foreign}")
endif()

# ... and every function the installed header declares with SOV_API.
file(READ ${prefix}/include/superovoid/superovoid.h header)
string(REGEX MATCHALL "SOV_API[^;(]*[ *](sov_[a-z0-9_]+)\\(" decls "${header}")
set(missing "")
set(declared 0)
foreach(decl IN LISTS decls)
  string(REGEX MATCH "sov_[a-z0-9_]+\\($" name "${decl}")
  string(REPLACE "(" "" name "${name}")
  math(EXPR declared "${declared} + 1")
  if(NOT SOV_LAST_OUTPUT MATCHES " ${name}\n")
    list(APPEND missing ${name})
  endif()
endforeach()
if(declared EQUAL 0)
  message(FATAL_ERROR "found no SOV_API declaration in superovoid.h")
endif()
if(missing)
  message(FATAL_ERROR "declared in superovoid.h but not exported: ${missing}")
endif()
message(STATUS "exports: ${count} sov_* symbols = the ${declared} SOV_API "
  "functions of superovoid.h, nothing else")
