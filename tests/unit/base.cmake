koordq_gtest(rfc3339_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/rfc3339_test.cpp LIBS koordq_base)
