koordq_gtest(snapshot_property_test property
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/snapshot_property_test.cpp
  LIBS koordq_decision_wire koordq_replay)
