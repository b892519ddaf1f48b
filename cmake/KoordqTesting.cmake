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

# koordq_gtest(NAME LABEL SOURCES... LIBS ...)
function(koordq_gtest name label)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  koordq_project_target(${name})
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
