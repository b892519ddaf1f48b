koordq_gtest(explain_test unit
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/explain_test.cpp
  LIBS koordq_explain)
