# The visibility API's load client (TLS with client certificates) and its fixed-body baseline server;
# scripts/bench-visibility.sh drives both against `koordq serve --simulate`.
add_executable(visibility_load
  ${CMAKE_CURRENT_LIST_DIR}/visibility_load.cpp
  ${CMAKE_CURRENT_LIST_DIR}/visibility_load_run.cpp
  ${CMAKE_CURRENT_LIST_DIR}/visibility_load_report.cpp
  ${CMAKE_CURRENT_LIST_DIR}/visibility_load_fixed_server.cpp)
koordq_project_target(visibility_load)
target_link_libraries(visibility_load PRIVATE koordq_base koordq_rapidjson CLI11::CLI11 Boost::headers OpenSSL::SSL
                                              OpenSSL::Crypto Threads::Threads fmt::fmt)
# Registered here rather than in tests/e2e: the client is built only with KOORDQ_BENCH.
add_test(NAME visibility_load_e2e COMMAND bash ${CMAKE_SOURCE_DIR}/tests/e2e/visibility_load_test.sh
                                          $<TARGET_FILE:visibility_load>)
set_tests_properties(visibility_load_e2e PROPERTIES LABELS e2e TIMEOUT 120)
