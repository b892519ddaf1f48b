koordq_gtest(scheduler_admission_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/scheduler_admission_test.cpp
  LIBS koordq_decision)
koordq_gtest(scheduler_policy_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/scheduler_policy_test.cpp
  LIBS koordq_decision)
koordq_gtest(scheduler_preemption_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/scheduler_preemption_test.cpp
  LIBS koordq_decision)
koordq_gtest(scheduler_admission_checks_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/scheduler_admission_checks_test.cpp
  LIBS koordq_decision)
koordq_gtest(scheduler_queues_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/scheduler_queues_test.cpp
  LIBS koordq_decision)
koordq_gtest(scheduler_metrics_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/scheduler_metrics_test.cpp
  LIBS koordq_decision)
koordq_gtest(scheduler_indexes_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/scheduler_indexes_test.cpp
  LIBS koordq_decision)
