# actors/core decision logic: admission, policies, preemption, admission checks, queues, metrics
# inputs, derived indexes and status-write failures, as tables of behaviour.md.
koordq_gtest(decision_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/scheduler_admission_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/scheduler_policy_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/scheduler_queue_items_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/scheduler_events_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/scheduler_preemption_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/scheduler_admission_checks_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/scheduler_queues_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/scheduler_metrics_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/scheduler_indexes_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/scheduler_spec_queue_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/scheduler_write_failure_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/scheduler_invalid_quantities_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/unit_facts_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/quota_tree_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/status_change_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/boxed_optional_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/usage_annotations_test.cpp
  LIBS koordq_decision)
