# The cluster simulator of `serve --simulate` (kube/simulator); the example of docs/scenario.md is checked too.
koordq_gtest(simulator_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/simulator_test.cpp LIBS koordq_simulator)
target_compile_definitions(simulator_test PRIVATE KOORDQ_DOCS_DIR="${CMAKE_SOURCE_DIR}/docs")
