# Compile-fail test runner:
#   cmake -DCXX=<compiler> -DSOURCE=<file.cpp> -DREGEX_FILE=<file> -DINCLUDE_DIRS=<dir;dir>
#         [-DFLAGS=<flag;flag>] [-DMAX_ERRORS=<n>] -P run_compile_fail.cmake
# Passes only if compiling SOURCE fails, the first diagnostic (the output up to the second
# `error:` line) matches the regex stored in REGEX_FILE, and the output holds at most
# MAX_ERRORS (default 2) `error:` lines, notes aside: the reason comes first, and the
# compiler stops there. Otherwise prints the compiler output and fails.
foreach(var CXX SOURCE REGEX_FILE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_compile_fail.cmake: -D${var}=... is required")
  endif()
endforeach()
file(READ "${REGEX_FILE}" regex)

set(include_flags)
foreach(dir IN LISTS INCLUDE_DIRS)
  if(dir)
    list(APPEND include_flags "-I${dir}")
  endif()
endforeach()

set(command "${CXX}" -std=c++20 -fsyntax-only -fdiagnostics-color=never ${FLAGS} ${include_flags} "${SOURCE}")
execute_process(COMMAND ${command}
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE out)

string(REPLACE ";" " " shown "${command}")
if(rc EQUAL 0)
  message("${out}")
  message(FATAL_ERROR "FAIL: ${SOURCE} compiled, but it must not.\n  command: ${shown}")
endif()

# The first diagnostic: everything before the second `error:`.
string(FIND "${out}" "error: " first_error)
set(first_diagnostic "${out}")
if(first_error GREATER_EQUAL 0)
  math(EXPR after_first "${first_error} + 7")
  string(SUBSTRING "${out}" ${after_first} -1 rest)
  string(FIND "${rest}" "error: " second_error)
  if(second_error GREATER_EQUAL 0)
    math(EXPR first_length "${after_first} + ${second_error}")
    string(SUBSTRING "${out}" 0 ${first_length} first_diagnostic)
  endif()
endif()
if(NOT first_diagnostic MATCHES "${regex}")
  message("${out}")
  message(FATAL_ERROR "FAIL: ${SOURCE} did not compile (good), but its first diagnostic does not match the expected regex '${regex}' (compiler output above).\n  command: ${shown}")
endif()

# Count the error lines; `;` and brackets would split or join CMake list items.
if(NOT DEFINED MAX_ERRORS)
  set(MAX_ERRORS 2)
endif()
string(REGEX REPLACE "[][;]" " " flat "${out}")
string(REGEX MATCHALL "[^\n]*error: [^\n]*" error_lines "${flat}")
list(LENGTH error_lines errors)
if(errors GREATER MAX_ERRORS)
  message("${out}")
  message(FATAL_ERROR "FAIL: ${SOURCE} fails to compile with the expected reason, but with ${errors} error lines (at most ${MAX_ERRORS} allowed; compiler output above).\n  command: ${shown}")
endif()
message(STATUS "PASS: ${SOURCE} fails to compile with ${errors} error line(s), the first diagnostic matching '${regex}'")
