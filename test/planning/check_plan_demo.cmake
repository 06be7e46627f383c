# Runs sov_plan_demo --short --out-dir OUT_DIR/runs (a folder that does not
# exist yet: the demo creates it) and checks its output: exit status 0, one
# row per run (2 queries, each on both models and with every motion
# validation the demo ran), every solved path free on the meshes, and the
# CSV with a header and a line per run. Then an output folder that cannot
# be created (below a file): exit status 1 and a message naming it, before
# any planning.
file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})
set(blocker ${OUT_DIR}/a_file)
file(WRITE ${blocker} "not a folder\n")
execute_process(COMMAND ${DEMO} --short --out-dir ${blocker}/runs
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 1 OR NOT err MATCHES "cannot create the output folder [^\n]*a_file/runs")
  message(FATAL_ERROR "an output folder below a file: exit status ${status}, expected 1 "
                      "with a message naming it; stderr: ${err}")
endif()
if(out MATCHES "queries")
  message(FATAL_ERROR "the demo planned before finding it cannot write its output:\n${out}")
endif()

set(OUT_DIR ${OUT_DIR}/runs)
execute_process(COMMAND ${DEMO} --short --out-dir ${OUT_DIR}
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "sov_plan_demo exited with ${status}")
endif()

# Rows: "q from -> to planner motion model solved|FAILED ...".
string(REGEX MATCHALL "\n +[0-9]+ [a-z_]+ +-> [a-z_]+ +[A-Za-z]+ +(discrete|certified) +(fitted|mesh) +(solved|FAILED)[^\n]*"
  rows "${out}")
list(LENGTH rows n_rows)
string(REGEX MATCH "motions: ([a-z,]+)" motions "${out}")
string(REGEX REPLACE "motions: " "" motions "${motions}")
string(REPLACE "," ";" motions "${motions}")
list(LENGTH motions n_motions)
math(EXPR expected "2 * 2 * ${n_motions}")
if(n_motions EQUAL 0 OR NOT n_rows EQUAL expected)
  message(FATAL_ERROR "expected ${expected} run rows (motions: '${motions}'), found ${n_rows}")
endif()
foreach(row ${rows})
  if(NOT row MATCHES "solved")
    message(FATAL_ERROR "a query was not solved:${row}")
  endif()
  if(NOT row MATCHES "meshes: free")
    message(FATAL_ERROR "a path is not free on the meshes:${row}")
  endif()
endforeach()
if(NOT out MATCHES "re-check on the meshes: 0 of ${expected} returned paths collide")
  message(FATAL_ERROR "the re-check summary is missing or counts collisions")
endif()

set(csv ${OUT_DIR}/plan_runs.csv)
if(NOT EXISTS ${csv})
  message(FATAL_ERROR "${csv} was not written")
endif()
file(STRINGS ${csv} lines)
list(LENGTH lines n_lines)
math(EXPR expected_lines "${expected} + 1")
if(NOT n_lines EQUAL expected_lines)
  message(FATAL_ERROR "${csv}: ${n_lines} lines, expected ${expected_lines}")
endif()
# The picture is optional: either drawn, or its absence explained.
if(NOT out MATCHES "wrote [^\n]*plan\\.png" AND NOT out MATCHES "no plot")
  message(FATAL_ERROR "the demo neither wrote the PNG nor said why not")
endif()
