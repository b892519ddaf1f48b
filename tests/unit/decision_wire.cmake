koordq_gtest(decision_wire_test unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/decision_wire_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/record_apply_test.cpp
  LIBS koordq_decision_wire koordq_replay)
koordq_gtest(scheduler_write_failure_test unit
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/scheduler_write_failure_test.cpp
  LIBS koordq_decision)
