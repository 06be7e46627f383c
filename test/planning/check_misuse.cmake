# A tool's misuse: every argument list in CASES (lists separated by "|",
# arguments by "@") makes TOOL exit with status 2 before any work, and
# stderr names the option (its first argument; the usage text the tools
# print with the reason names every option).
string(REPLACE "|" ";" cases_list "${CASES}")
foreach(case IN LISTS cases_list)
  string(REPLACE "@" ";" args "${case}")
  execute_process(COMMAND ${TOOL} ${args} RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out
    TIMEOUT 30)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "${TOOL} ${args}: exit status ${rc}, expected 2\n${out}${err}")
  endif()
  list(GET args 0 option)
  string(FIND "${err}" "${option}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${TOOL} ${args}: the message does not name ${option}:\n${err}")
  endif()
endforeach()
