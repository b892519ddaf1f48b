koordq_gtest(what_if_property_test property
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/what_if_property_test.cpp
  LIBS koordq_replay)
