# The consumer tests, run by CTest: bsx used from outside in each way README.md gives.
#   cmake -DVIA=<way> -DBSX_SOURCE_DIR=<bsx sources> -DCONSUMER_SOURCE_DIR=<this dir>
#         -DWORK_DIR=<scratch dir> -DPREFIX=<install prefix> -DCXX=<compiler> -DVERSION=<bsx's version>
#         -DWITH_SLEEF=<bool> -DWITH_MVEC=<bool> -DWITH_OPENMP=<bool> -DWITH_BLAS=<bool> -DOPENMP_FLAGS=<flags>
#         -DEXTRA_INCLUDE_DIRS=<dirs> -P run_consumer.cmake
# <way> is one of
#   install        configure bsx as the `install` preset does (no tests, examples or benchmarks: the
#                  cache must show that neither Boost.Test nor Google Benchmark was looked for) and
#                  install it into PREFIX (the fixture of the next two);
#   find_package   build find_package/ against PREFIX (find_package(bsx), bsx::bsx);
#   pkg_config     compile main.cpp with $(pkg-config --cflags --libs bsx) from PREFIX;
#   fetchcontent   build fetchcontent/, which fetches an archive of the sources (FetchContent, hence
#                  add_subdirectory);
#   compiler_line  compile main.cpp with README's plain compiler line: -I, and the flags of vector
#                  math and OpenMP by hand.
# Each program checks values and prints "bsx <version> sleef <0|1> mvec <0|1> openmp <0|1> blas <0|1>"; that
# must match VERSION (CMake's project version) and what this bsx build found.
foreach(var VIA BSX_SOURCE_DIR CONSUMER_SOURCE_DIR WORK_DIR PREFIX CXX VERSION WITH_SLEEF WITH_MVEC WITH_OPENMP WITH_BLAS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()

set(bsx_build "${WORK_DIR}/bsx-build")
set(build "${WORK_DIR}/build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " shown "${ARGN}")
    message("${out}")
    message(FATAL_ERROR "${VIA}: ${what} failed (${rc})\n  command: ${shown}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

# A bsx configured only to be used must not look for what only its tests and benchmarks need.
function(check_nothing_test_only cache)
  file(STRINGS "${cache}" looked_for REGEX "^(benchmark_DIR|Boost_UNIT_TEST_FRAMEWORK|boost_unit_test_framework_DIR)")
  if(looked_for)
    message(FATAL_ERROR "${VIA}: configuring bsx looked for Boost.Test or Google Benchmark: ${looked_for}")
  endif()
endfunction()

set(expected_output "bsx ${VERSION}")
foreach(feature IN ITEMS SLEEF MVEC OPENMP BLAS)
  string(TOLOWER ${feature} name)
  if(WITH_${feature})
    string(APPEND expected_output " ${name} 1")
  else()
    string(APPEND expected_output " ${name} 0")
  endif()
endforeach()

function(run_consumer exe)
  step("run" "${exe}")
  string(STRIP "${step_output}" printed)
  if(NOT printed STREQUAL expected_output)
    message(FATAL_ERROR "${VIA}: the consumer printed '${printed}', expected '${expected_output}'")
  endif()
  message(STATUS "${VIA}: PASS (${printed})")
endfunction()

# CMake-built consumers: configure, build Release, run.
function(build_and_run_cmake_consumer source_dir)
  step("configure" "${CMAKE_COMMAND}" -S "${source_dir}" -B "${build}" "-DCMAKE_CXX_COMPILER=${CXX}"
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF ${ARGN})
  set(step_output "${step_output}" PARENT_SCOPE)
  check_nothing_test_only("${build}/CMakeCache.txt")
  step("build" "${CMAKE_COMMAND}" --build "${build}" --config Release)
  find_program(consumer_exe consumer PATHS "${build}" "${build}/Release" NO_DEFAULT_PATH NO_CACHE)
  if(NOT consumer_exe)
    message(FATAL_ERROR "${VIA}: consumer executable not found in ${build}")
  endif()
  run_consumer("${consumer_exe}")
endfunction()

# Compiler-line consumers: main.cpp in one command, flags as words.
function(compile_and_run_consumer)
  step("compile" "${CXX}" -std=c++20 -O2 ${ARGN})
  run_consumer("${WORK_DIR}/consumer")
endfunction()

if(VIA STREQUAL "install")
  file(REMOVE_RECURSE "${PREFIX}")
  step("configure bsx" "${CMAKE_COMMAND}" -S "${BSX_SOURCE_DIR}" -B "${bsx_build}" "-DCMAKE_CXX_COMPILER=${CXX}"
    -DCMAKE_BUILD_TYPE=Release -DBSX_BUILD_TESTS=OFF -DBSX_BUILD_EXAMPLES=OFF -DBSX_BUILD_BENCHMARKS=OFF)
  check_nothing_test_only("${bsx_build}/CMakeCache.txt")
  step("install" "${CMAKE_COMMAND}" --install "${bsx_build}" --prefix "${PREFIX}" --config Release)
  file(GLOB_RECURSE pc_files "${PREFIX}/*/bsx.pc")
  file(GLOB_RECURSE config_files "${PREFIX}/*/bsxConfig.cmake")
  if(NOT pc_files OR NOT config_files OR NOT EXISTS "${PREFIX}/include/bsx/version.hpp")
    message(FATAL_ERROR "install: no bsx.pc, bsxConfig.cmake or bsx/version.hpp under ${PREFIX}")
  endif()
  message(STATUS "install: PASS (installed to ${PREFIX})")

elseif(VIA STREQUAL "find_package")
  build_and_run_cmake_consumer("${CONSUMER_SOURCE_DIR}/find_package" "-DCMAKE_PREFIX_PATH=${PREFIX}")
  # The installed package, not the build tree, and its version file says VERSION.
  if(NOT step_output MATCHES "found bsx ([^ \n]*) in ([^\n]*)")
    message(FATAL_ERROR "find_package: the consumer did not report bsx_VERSION and bsx_DIR")
  endif()
  if(NOT CMAKE_MATCH_1 STREQUAL VERSION)
    message(FATAL_ERROR "find_package: bsx_VERSION is '${CMAKE_MATCH_1}', expected ${VERSION}")
  endif()
  string(FIND "${CMAKE_MATCH_2}" "${PREFIX}" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "find_package: bsx found in ${CMAKE_MATCH_2}, expected under ${PREFIX}")
  endif()

elseif(VIA STREQUAL "pkg_config")
  find_program(pkg_config NAMES pkg-config pkgconf NO_CACHE)
  if(NOT pkg_config)
    message(FATAL_ERROR "pkg_config: pkg-config not found (Debian: apt-get install pkg-config)")
  endif()
  file(GLOB_RECURSE pc_files "${PREFIX}/*/bsx.pc")
  list(GET pc_files 0 pc_file)
  get_filename_component(pc_dir "${pc_file}" DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
  step("pkg-config --modversion" "${pkg_config}" --modversion bsx)
  string(STRIP "${step_output}" pc_version)
  if(NOT pc_version STREQUAL VERSION)
    message(FATAL_ERROR "pkg_config: bsx.pc has version '${pc_version}', expected ${VERSION}")
  endif()
  step("pkg-config --cflags --libs" "${pkg_config}" --cflags --libs bsx)
  separate_arguments(flags UNIX_COMMAND "${step_output}")
  compile_and_run_consumer("${CONSUMER_SOURCE_DIR}/main.cpp" -o "${WORK_DIR}/consumer" ${flags})

elseif(VIA STREQUAL "fetchcontent")
  # The archive holds what a consumer needs: the top CMakeLists.txt, cmake/ and include/.
  set(archive "${WORK_DIR}/bsx-src.tar.gz")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E tar czf "${archive}" CMakeLists.txt cmake include
    WORKING_DIRECTORY "${BSX_SOURCE_DIR}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "fetchcontent: could not pack ${BSX_SOURCE_DIR} into ${archive}")
  endif()
  build_and_run_cmake_consumer("${CONSUMER_SOURCE_DIR}/fetchcontent" "-DBSX_URL=file://${archive}")

elseif(VIA STREQUAL "compiler_line")
  set(flags "-I${BSX_SOURCE_DIR}/include")
  foreach(dir IN LISTS EXTRA_INCLUDE_DIRS)
    list(APPEND flags "-I${dir}")
  endforeach()
  if(WITH_OPENMP)
    separate_arguments(openmp UNIX_COMMAND "${OPENMP_FLAGS}")
    list(APPEND flags ${openmp})
  endif()
  # Each optional library: its macro before the source, its library after it (OpenBLAS by
  # its own name, as README.md writes it).
  set(libraries)
  foreach(library IN ITEMS SLEEF MVEC BLAS)
    if(WITH_${library})
      list(APPEND flags -DBSX_HAVE_${library})
      string(TOLOWER ${library} name)
      if(library STREQUAL "BLAS")
        set(name openblas)
      endif()
      list(APPEND libraries -l${name})
    endif()
  endforeach()
  compile_and_run_consumer(${flags} "${CONSUMER_SOURCE_DIR}/main.cpp" -o "${WORK_DIR}/consumer" ${libraries})

else()
  message(FATAL_ERROR "run_consumer.cmake: unknown VIA '${VIA}'")
endif()
