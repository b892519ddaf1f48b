# Test registration. Labels select the suites: unit, property, e2e.
# CI runs unit+property under ASan/UBSan and everything once in the RelWithDebInfo build.
enable_testing()
include(GoogleTest)

# koordq_unit_tests: every executable the unit and property suites run, so that a build for them
# alone (the ASan+UBSan build in CI) skips the binary, the benchmarks and the e2e probes.
add_custom_target(koordq_unit_tests)

# Precompiled test headers: GoogleTest, GoogleMock (and rapidcheck for property tests) with the
# standard headers tests use, compiled once per build tree and reused by every koordq_gtest()
# target. The owners are built like a test (same flags), which REUSE_FROM requires; GCC's
# -Winvalid-pch (added by CMake) with -Werror turns a PCH that does not fit into an error.
# -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON builds without.
set(KOORDQ_TEST_PCH_HEADERS
  <algorithm> <chrono> <cstdint> <functional> <map> <memory> <optional> <set> <string>
  <string_view> <vector> <gmock/gmock.h> <gtest/gtest.h>)
function(koordq_test_pch_owner name)
  set(src ${CMAKE_BINARY_DIR}/pch/${name}.cpp)
  file(CONFIGURE OUTPUT ${src} CONTENT "// Owner of the precompiled test headers.\n")
  add_library(${name} OBJECT ${src})
  koordq_project_target(${name})
  target_link_libraries(${name} PRIVATE GTest::gmock GTest::gtest ${ARGN})
  target_precompile_headers(${name} PRIVATE ${KOORDQ_TEST_PCH_HEADERS})
endfunction()
koordq_test_pch_owner(koordq_unit_pch)
koordq_test_pch_owner(koordq_property_pch rapidcheck rapidcheck_gtest)
target_precompile_headers(koordq_property_pch PRIVATE <rapidcheck.h> <rapidcheck/gtest.h>)

# Test code is compiled at -O1 in the optimised builds: the libraries under test keep the build's
# -O2, and -O1 compiles a test file about a quarter faster. The precompiled-header owners get the
# same flag, since a PCH is only used with the options it was built with.
set(KOORDQ_TEST_OPTIMIZE $<$<CONFIG:Release,RelWithDebInfo>:-O1>)
target_compile_options(koordq_unit_pch PRIVATE ${KOORDQ_TEST_OPTIMIZE})
target_compile_options(koordq_property_pch PRIVATE ${KOORDQ_TEST_OPTIMIZE})

# koordq_gtest(NAME LABEL SOURCES... LIBS ... [BATCH N])
# One executable per test area, compiled as a unity build: its test files are included into
# translation units of BATCH files (default: all of them), so the templates they share (Beast,
# CAF, rapidcheck, GoogleTest's matchers) are instantiated and compiled once per unit instead of
# once per file, which roughly halves the build of a test area. Every test file puts its helpers
# and tests in `namespace KOORDQ_TEST_LOCAL`, a name unique to the file in the unity unit (the
# role `namespace {` has in a file compiled alone).
function(koordq_gtest name label)
  cmake_parse_arguments(T "" "BATCH" "SOURCES;LIBS" ${ARGN})
  if(NOT DEFINED T_BATCH)
    set(T_BATCH 0)
  endif()
  add_executable(${name} ${T_SOURCES})
  koordq_project_target(${name})
  set_target_properties(${name} PROPERTIES
    UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${T_BATCH} UNITY_BUILD_UNIQUE_ID KOORDQ_TEST_LOCAL)
  target_compile_options(${name} PRIVATE ${KOORDQ_TEST_OPTIMIZE})
  target_link_libraries(${name} PRIVATE ${T_LIBS} GTest::gmock GTest::gtest_main)
  if(label STREQUAL "property")
    target_link_libraries(${name} PRIVATE rapidcheck rapidcheck_gtest)
    target_precompile_headers(${name} REUSE_FROM koordq_property_pch)
  else()
    target_precompile_headers(${name} REUSE_FROM koordq_unit_pch)
  endif()
  if(label STREQUAL "unit" OR label STREQUAL "property")
    add_dependencies(koordq_unit_tests ${name})
  endif()
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    PROPERTIES LABELS ${label} TIMEOUT 600
    EXTRA_ARGS --gtest_color=no)
endfunction()
