# The read side's pages: kept batch by batch, they are the pages built from the whole state.
koordq_gtest(pages_property_tests property
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/read_pages_property_test.cpp
  LIBS koordq_runtime koordq_pages koordq_decision_wire koordq_decision)
