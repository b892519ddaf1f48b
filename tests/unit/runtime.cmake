koordq_gtest(decision_engine_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/decision_engine_test.cpp
  LIBS koordq_runtime)
koordq_gtest(clock_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/clock_test.cpp
  LIBS koordq_runtime)
