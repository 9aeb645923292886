# Install + find_package test:
#   cmake -DBSX_BINARY_DIR=<bsx build dir> -DBSX_CONFIG=<config> -DCONSUMER_SOURCE_DIR=<dir>
#         -DWORK_DIR=<scratch dir> -DCXX=<compiler> -P run_consumer.cmake
# 1. cmake --install <bsx build> --prefix <WORK_DIR>/prefix
# 2. configure + build the consumer project with -DCMAKE_PREFIX_PATH=<prefix>
# 3. run it: it exits 0 iff bsx computed the right value.
foreach(var BSX_BINARY_DIR CONSUMER_SOURCE_DIR WORK_DIR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()

set(prefix "${WORK_DIR}/prefix")
set(build "${WORK_DIR}/build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " shown "${ARGN}")
    message("${out}")
    message(FATAL_ERROR "find_package_consumer: ${what} failed (${rc})\n  command: ${shown}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

set(config_args)
if(BSX_CONFIG)
  set(config_args --config "${BSX_CONFIG}")
endif()

step("install" "${CMAKE_COMMAND}" --install "${BSX_BINARY_DIR}" --prefix "${prefix}" ${config_args})
step("configure" "${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${build}"
  "-DCMAKE_PREFIX_PATH=${prefix}"
  "-DCMAKE_CXX_COMPILER=${CXX}"
  -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
# The consumer must see the installed package, not the build tree.
if(NOT step_output MATCHES "found bsx [^\n]* in ([^\n]*)")
  message("${step_output}")
  message(FATAL_ERROR "find_package_consumer: consumer did not report bsx_DIR")
endif()
set(bsx_dir "${CMAKE_MATCH_1}")
string(FIND "${bsx_dir}" "${prefix}" at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "find_package_consumer: bsx found in ${bsx_dir}, expected under ${prefix}")
endif()
step("build" "${CMAKE_COMMAND}" --build "${build}" ${config_args})

find_program(consumer_exe consumer PATHS "${build}" "${build}/${BSX_CONFIG}" NO_DEFAULT_PATH)
if(NOT consumer_exe)
  message(FATAL_ERROR "find_package_consumer: consumer executable not found in ${build}")
endif()
step("run" "${consumer_exe}")
message(STATUS "find_package_consumer: PASS (installed to ${prefix}, bsx_DIR=${bsx_dir})")
