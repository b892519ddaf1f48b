koordq_gtest(replay_test unit
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/replay_test.cpp
  LIBS koordq_replay)

koordq_gtest(what_if_test unit
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/what_if_test.cpp
  LIBS koordq_replay)
