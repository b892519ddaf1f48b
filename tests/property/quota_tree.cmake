koordq_gtest(quota_tree_property_test property
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/quota_tree_property_test.cpp
  LIBS koordq_decision)
