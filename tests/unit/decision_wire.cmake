# actors/wire: decision records, applying every record kind, and the state snapshot.
koordq_gtest(decision_wire_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/decision_wire_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/record_apply_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/state_snapshot_round_trip_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/state_snapshot_refused_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/state_snapshot_large_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/state_restore_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/round_index_backoff_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/capacity_change_mark_test.cpp
  LIBS koordq_decision_wire koordq_replay)
