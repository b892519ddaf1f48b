# Test registration. Labels select the suites: unit, property, e2e.
# CI runs unit+property under ASan/UBSan and everything once in the RelWithDebInfo build.
enable_testing()
include(GoogleTest)

# koordq_gtest(NAME LABEL SOURCES... LIBS ...)
function(koordq_gtest name label)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  koordq_project_target(${name})
  target_link_libraries(${name} PRIVATE ${T_LIBS} GTest::gmock GTest::gtest_main)
  if(label STREQUAL "property")
    target_link_libraries(${name} PRIVATE rapidcheck rapidcheck_gtest)
  endif()
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    PROPERTIES LABELS ${label} TIMEOUT 600
    EXTRA_ARGS --gtest_color=no)
endfunction()
