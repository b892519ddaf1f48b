# actors/runtime and the cluster simulator of `serve --simulate` (kube/simulator; the example of
# docs/scenario.md is checked too).
koordq_gtest(runtime_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/decision_engine_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/read_side_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/clock_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/simulator_scenario_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/simulator_random_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/simulated_cluster_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/simulated_cluster_writes_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/simulated_cluster_restore_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/simulator_closed_loop_test.cpp
  LIBS koordq_runtime koordq_simulator koordq_replay)
target_compile_definitions(runtime_unit_tests PRIVATE KOORDQ_DOCS_DIR="${CMAKE_SOURCE_DIR}/docs")
