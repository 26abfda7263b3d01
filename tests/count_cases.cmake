# Fails unless CTest holds exactly one entry per Catch2 case. A case name CTest cannot carry
# whole (catch_discover_tests splits names at ";") would show up as extra entries here.
#   cmake -DCTEST=ctest -DBUILD_DIR=build -DCASES=verdict_tests -P count_cases.cmake
execute_process(COMMAND ${CASES} --list-test-names-only OUTPUT_VARIABLE names)
string(REPLACE ";" "," names "${names}") # a CMake list would split a name at ";" as well
string(REGEX MATCHALL "[^\n]+" case_lines "${names}")
list(LENGTH case_lines case_count)

execute_process(COMMAND ${CTEST} --test-dir ${BUILD_DIR} -N -L ^catch$ OUTPUT_VARIABLE listing
                RESULT_VARIABLE listed)
if(NOT listed EQUAL 0 OR NOT listing MATCHES "Total Tests: ([0-9]+)")
  message(FATAL_ERROR "could not list the CTest entries:\n${listing}")
endif()
set(entry_count ${CMAKE_MATCH_1})

if(case_count EQUAL 0 OR NOT case_count EQUAL entry_count)
  message(FATAL_ERROR "${case_count} Catch2 cases but ${entry_count} CTest entries:\n${listing}")
endif()
message(STATUS "${case_count} Catch2 cases, ${entry_count} CTest entries")
