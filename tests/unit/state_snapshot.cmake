koordq_gtest(state_snapshot_test unit
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/state_snapshot_test.cpp
  LIBS koordq_decision_wire koordq_replay)
