koordq_gtest(quantity_property_test property
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/quantity_property_test.cpp
  LIBS koordq_quantity)
