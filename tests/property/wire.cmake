koordq_gtest(wire_property_test property
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/wire_property_test.cpp
  LIBS koordq_wire)
