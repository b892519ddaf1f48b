koordq_gtest(actor_rounds_property_test property
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/actor_rounds_property_test.cpp
  LIBS koordq_runtime)
