# Restarts of the real binary (clean stop, SIGTERM, SIGKILL at random moments) over one journal,
# each followed by replay --verify and the restored-state-equals-fold check. Runs koordq itself, so
# it is an end-to-end test (main build only).
koordq_gtest(restart_property_tests e2e
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/restart_property_test.cpp
  LIBS koordq_replay koordq_decision_wire koordq_journal)
target_compile_definitions(restart_property_tests PRIVATE KOORDQ_BINARY="$<TARGET_FILE:koordq>")
add_dependencies(restart_property_tests koordq)
