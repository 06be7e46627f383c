# Runs sov_hand_demo --steps STEPS --out-dir OUT_DIR and checks its output:
# exit status 0, one table row per step (numbered 0 .. STEPS-1, finite
# distances), and the CSV with a header and one line per step.
file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})
execute_process(COMMAND ${DEMO} --steps ${STEPS} --out-dir ${OUT_DIR}
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "sov_hand_demo exited with ${status}")
endif()

# Table rows: "step q q | link d d us us | pair d d us us".
set(number "-?[0-9]+\\.[0-9]+")
set(row_regex
  "\n *([0-9]+) +${number} +${number} \\| [^ |]+ +${number} +${number} +${number} +${number} \\| [^ |]+ +${number} +${number} +${number} +${number}")
string(REGEX MATCHALL "${row_regex}" rows "${out}")
list(LENGTH rows n_rows)
if(NOT n_rows EQUAL STEPS)
  message(FATAL_ERROR "expected ${STEPS} table rows, found ${n_rows}")
endif()
math(EXPR last "${STEPS} - 1")
foreach(i RANGE ${last})
  list(GET rows ${i} row)
  string(REGEX REPLACE "^\n *([0-9]+) .*" "\\1" step "${row}")
  if(NOT step EQUAL i)
    message(FATAL_ERROR "row ${i} is numbered ${step}")
  endif()
endforeach()

set(csv ${OUT_DIR}/hand_demo.csv)
if(NOT EXISTS ${csv})
  message(FATAL_ERROR "${csv} was not written")
endif()
file(STRINGS ${csv} lines)
list(LENGTH lines n_lines)
math(EXPR expected "${STEPS} + 1")
if(NOT n_lines EQUAL expected)
  message(FATAL_ERROR "${csv}: ${n_lines} lines, expected ${expected} (header and one per step)")
endif()
list(GET lines 0 header)
if(NOT header MATCHES "^step,t,q_finger,q_thumb,object_link,object_d,object_d_mesh,")
  message(FATAL_ERROR "${csv}: unexpected header '${header}'")
endif()
# The plot is optional: either written, or its absence explained.
if(NOT out MATCHES "wrote [^\n]*hand_demo\\.png" AND NOT out MATCHES "no plot")
  message(FATAL_ERROR "the demo neither wrote the PNG nor said why not")
endif()
