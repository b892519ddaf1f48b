koordq_gtest(quantity_test unit
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/quantity_test.cpp
  LIBS koordq_quantity)
