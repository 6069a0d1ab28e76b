# docconform_add_hostile_case(NAME <name> FILE <input> COMMAND <cmd> [args...]
#                             [EXPECT_EXIT <n>] [MAX_SECONDS <s>] [MAX_MB <m>] [EXPECT_STDERR <regex>]
#                             [FIXTURES <fixture>...] [LABELS <label>...] [NEEDS_ADDRESS_LIMIT])
# Registers ctest `hostile.<name>`: runs COMMAND on FILE through tools/run-bounded under RLIMIT_AS
# = MAX_MB, at most MAX_SECONDS of CPU time and a wall clock of DOCCONFORM_HOSTILE_WALL_FACTOR x
# MAX_SECONDS (the CPU bound measures the work whatever else the machine runs; the wall bound
# still catches a process that blocks), and passes only if the exit status (default: any normal
# exit), the stderr pattern and every bound hold. `{input}` in COMMAND is replaced by FILE (FILE is
# appended when absent); a target name as the first word becomes its executable. FIXTURES names
# ctest fixtures that must run first (e.g. one that generates FILE).
#
# Sanitizer and coverage builds cannot hold production bounds: sanitizers reserve terabytes of
# address space (no RLIMIT_AS possible) and keep freed memory in quarantine, and all of them run
# several times slower. There the case still asserts the exit status and error text, the time bound
# is multiplied by DOCCONFORM_HOSTILE_SLOWDOWN and memory is not asserted. A case marked
# NEEDS_ADDRESS_LIMIT asserts what happens when an allocation fails under the bound, so those
# builds register it disabled.
set(DOCCONFORM_HOSTILE_SLOWDOWN 10 CACHE STRING "Time-bound factor for hostile cases in sanitizer/coverage builds")
set(DOCCONFORM_HOSTILE_WALL_FACTOR 5 CACHE STRING "Wall-clock bound of hostile cases as a multiple of their CPU bound")

# Whether this build's hostile cases run under an address-space bound (sanitizer and coverage
# runtimes reserve terabytes of it, so theirs do not).
function(docconform_hostile_address_limit out)
  if("${CMAKE_CXX_FLAGS} ${CMAKE_EXE_LINKER_FLAGS}" MATCHES "-fsanitize=|--coverage|-fprofile-instr-generate")
    set(${out} FALSE PARENT_SCOPE)
  else()
    set(${out} TRUE PARENT_SCOPE)
  endif()
endfunction()

function(docconform_add_hostile_case)
  cmake_parse_arguments(CASE "NEEDS_ADDRESS_LIMIT" "NAME;FILE;EXPECT_EXIT;MAX_SECONDS;MAX_MB;EXPECT_STDERR"
                        "COMMAND;FIXTURES;LABELS" ${ARGN})
  if(NOT CASE_NAME OR NOT CASE_FILE OR NOT CASE_COMMAND)
    message(FATAL_ERROR "docconform_add_hostile_case needs NAME, FILE and COMMAND")
  endif()
  if(NOT DEFINED CASE_MAX_SECONDS)
    set(CASE_MAX_SECONDS 2)
  endif()
  if(NOT DEFINED CASE_MAX_MB)
    set(CASE_MAX_MB 256)
  endif()

  list(POP_FRONT CASE_COMMAND program)
  if(TARGET ${program})
    set(program $<TARGET_FILE:${program}>)
  endif()
  set(command ${program})
  set(placed FALSE)
  foreach(word IN LISTS CASE_COMMAND)
    if(word MATCHES "\\{input\\}")
      string(REPLACE "{input}" "${CASE_FILE}" word "${word}")
      set(placed TRUE)
    endif()
    list(APPEND command "${word}")
  endforeach()
  if(NOT placed)
    list(APPEND command "${CASE_FILE}")
  endif()

  set(cpu_seconds ${CASE_MAX_SECONDS})
  set(memory --max-mb ${CASE_MAX_MB})
  docconform_hostile_address_limit(address_limit)
  if(NOT address_limit)
    math(EXPR cpu_seconds "(${CASE_MAX_SECONDS} + 1) * ${DOCCONFORM_HOSTILE_SLOWDOWN}")
    set(memory --max-mb 0 --no-rlimit-as)
  endif()
  math(EXPR timeout_seconds "${cpu_seconds} * ${DOCCONFORM_HOSTILE_WALL_FACTOR}")
  set(bounds --max-cpu-seconds ${cpu_seconds} --max-seconds ${timeout_seconds} ${memory})
  set(expect)
  if(DEFINED CASE_EXPECT_EXIT)
    list(APPEND expect --expect-exit ${CASE_EXPECT_EXIT})
  endif()
  if(DEFINED CASE_EXPECT_STDERR)
    list(APPEND expect --expect-stderr "${CASE_EXPECT_STDERR}")
  endif()

  add_test(NAME hostile.${CASE_NAME}
           COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/tools/run-bounded ${bounds} ${expect} -- ${command})
  math(EXPR ctest_timeout "${timeout_seconds} * 2 + 30")
  set_tests_properties(hostile.${CASE_NAME} PROPERTIES TIMEOUT ${ctest_timeout} LABELS "hostile;${CASE_LABELS}")
  if(CASE_FIXTURES)
    set_tests_properties(hostile.${CASE_NAME} PROPERTIES FIXTURES_REQUIRED "${CASE_FIXTURES}")
  endif()
  if(CASE_NEEDS_ADDRESS_LIMIT AND NOT address_limit)
    set_tests_properties(hostile.${CASE_NAME} PROPERTIES DISABLED TRUE)
  endif()
endfunction()
