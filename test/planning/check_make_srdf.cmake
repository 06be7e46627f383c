# Runs sov_make_srdf on the committed Panda with the committed SRDF's settings
# (10000 configurations, seed 1) and checks that it writes the same
# collision entries: the committed SRDF is what the tool makes.
execute_process(COMMAND ${TOOL} ${URDF} ${OUT} --samples 10000 --seed 1
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "sov_make_srdf exited with ${status}")
endif()
file(STRINGS ${OUT} made REGEX "<disable_collisions")
file(STRINGS ${SRDF} committed REGEX "<disable_collisions")
list(LENGTH committed n)
if(n EQUAL 0)
  message(FATAL_ERROR "${SRDF} has no <disable_collisions> entry")
endif()
if(NOT made STREQUAL committed)
  message(FATAL_ERROR "the entries written to ${OUT} differ from ${SRDF}")
endif()
