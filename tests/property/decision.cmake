# Decision invariants: accounting, order, replay == live, re-decision, snapshots, what-if, actor
# rounds with 1 and 4 threads, the quota tree.
koordq_gtest(decision_property_tests property
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/decision_property_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/snapshot_property_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/what_if_property_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/actor_rounds_property_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/quota_tree_property_test.cpp
  LIBS koordq_decision_wire koordq_replay koordq_runtime koordq_decision)
