# console/: what records count as on the timeline, and the timeline's bins.
koordq_gtest(console_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/console_timeline_test.cpp
  LIBS koordq_console koordq_decision_wire)
