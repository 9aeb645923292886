# Compile-fail test runner:
#   cmake -DCXX=<compiler> -DSOURCE=<file.cpp> -DREGEX_FILE=<file> -DINCLUDE_DIRS=<dir;dir>
#         [-DFLAGS=<flag;flag>] -P run_compile_fail.cmake
# Passes only if compiling SOURCE fails and the compiler output matches the regex
# stored in REGEX_FILE; otherwise prints the compiler output and fails.
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
if(NOT out MATCHES "${regex}")
  message("${out}")
  message(FATAL_ERROR "FAIL: ${SOURCE} did not compile (good), but the diagnostic does not match the expected regex '${regex}' (compiler output above).\n  command: ${shown}")
endif()
message(STATUS "PASS: ${SOURCE} fails to compile with a diagnostic matching '${regex}'")
