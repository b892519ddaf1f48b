koordq_gtest(wire_test unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/wire_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/wire_bytes_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/wire_record_test.cpp
  LIBS koordq_wire)
