# console/: what records count as on the timeline, the timeline's bins, and the lists of large states.
koordq_gtest(console_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/console_timeline_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/console_lists_test.cpp
  LIBS koordq_console koordq_decision_wire)
