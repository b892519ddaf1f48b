koordq_gtest(scheduler_admission_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/scheduler_admission_test.cpp
  LIBS koordq_decision)
koordq_gtest(scheduler_policy_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/scheduler_policy_test.cpp
  LIBS koordq_decision)
koordq_gtest(scheduler_preemption_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/scheduler_preemption_test.cpp
  LIBS koordq_decision)
