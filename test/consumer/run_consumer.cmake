# Install + consumer test, run by CTest (find_package_consumer):
#   cmake -DBSX_SOURCE_DIR=<bsx sources> -DCONSUMER_SOURCE_DIR=<dir> -DWORK_DIR=<scratch dir>
#         -DCXX=<compiler> -P run_consumer.cmake
# 1. configure bsx as the `install` preset does (no tests, examples or benchmarks; the cache
#    must show that neither Boost.Test nor Google Benchmark was looked for), then install it
#    into <WORK_DIR>/prefix;
# 2. build the consumer project with find_package(bsx) (-DCMAKE_PREFIX_PATH=<prefix>) and run it;
# 3. build the same main.cpp with the flags of `pkg-config --cflags --libs bsx` from the
#    installed bsx.pc and run it. Each program exits 0 iff bsx computed the right values.
foreach(var BSX_SOURCE_DIR CONSUMER_SOURCE_DIR WORK_DIR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()

set(prefix "${WORK_DIR}/prefix")
set(bsx_build "${WORK_DIR}/bsx-build")
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

# ---- 1. configure and install bsx with tests, examples and benchmarks off
step("configure bsx" "${CMAKE_COMMAND}" -S "${BSX_SOURCE_DIR}" -B "${bsx_build}"
  "-DCMAKE_CXX_COMPILER=${CXX}"
  -DCMAKE_BUILD_TYPE=Release
  -DBSX_BUILD_TESTS=OFF -DBSX_BUILD_EXAMPLES=OFF -DBSX_BUILD_BENCHMARKS=OFF)
file(STRINGS "${bsx_build}/CMakeCache.txt" looked_for REGEX "^(benchmark_DIR|Boost_UNIT_TEST_FRAMEWORK|boost_unit_test_framework_DIR)")
if(looked_for)
  message(FATAL_ERROR "find_package_consumer: configuring bsx for install looked for Boost.Test or Google Benchmark: ${looked_for}")
endif()
step("install" "${CMAKE_COMMAND}" --install "${bsx_build}" --prefix "${prefix}" --config Release)
file(GLOB_RECURSE pc_files "${prefix}/*/bsx.pc")
file(GLOB_RECURSE config_files "${prefix}/*/bsxConfig.cmake")
if(NOT pc_files OR NOT config_files)
  message(FATAL_ERROR "find_package_consumer: the install has no bsx.pc or no bsxConfig.cmake under ${prefix}")
endif()

# ---- 2. find_package(bsx)
step("configure (find_package)" "${CMAKE_COMMAND}" -S "${CONSUMER_SOURCE_DIR}" -B "${build}"
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
step("build (find_package)" "${CMAKE_COMMAND}" --build "${build}" --config Release)
find_program(consumer_exe consumer PATHS "${build}" "${build}/Release" NO_DEFAULT_PATH)
if(NOT consumer_exe)
  message(FATAL_ERROR "find_package_consumer: consumer executable not found in ${build}")
endif()
step("run (find_package)" "${consumer_exe}")

# ---- 3. pkg-config --cflags bsx
find_program(PKG_CONFIG_EXECUTABLE NAMES pkg-config pkgconf)
if(NOT PKG_CONFIG_EXECUTABLE)
  message(FATAL_ERROR "find_package_consumer: pkg-config not found (Debian: apt-get install pkg-config)")
endif()
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir "${pc_file}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
step("pkg-config --cflags" "${PKG_CONFIG_EXECUTABLE}" --cflags bsx)
string(STRIP "${step_output}" cflags)
step("pkg-config --libs" "${PKG_CONFIG_EXECUTABLE}" --libs bsx)
string(STRIP "${step_output}" libs)
file(REAL_PATH "${prefix}/include" include_dir)
separate_arguments(cflags_list UNIX_COMMAND "${cflags}")
separate_arguments(libs_list UNIX_COMMAND "${libs}")
set(found_include FALSE)
foreach(flag IN LISTS cflags_list)
  if(flag MATCHES "^-I(.*)$")
    file(REAL_PATH "${CMAKE_MATCH_1}" dir)
    if(dir STREQUAL include_dir)
      set(found_include TRUE)
    endif()
  endif()
endforeach()
if(NOT found_include)
  message(FATAL_ERROR "find_package_consumer: pkg-config --cflags bsx gave '${cflags}', without -I${include_dir}")
endif()
step("build (pkg-config)" "${CXX}" -std=c++20 ${cflags_list} "${CONSUMER_SOURCE_DIR}/main.cpp"
  -o "${WORK_DIR}/consumer_pc" ${libs_list})
step("run (pkg-config)" "${WORK_DIR}/consumer_pc")
message(STATUS "find_package_consumer: PASS (installed to ${prefix} with tests and benchmarks off; "
  "find_package: bsx_DIR=${bsx_dir}; pkg-config: ${cflags} ${libs})")
