# replay/, explain/ and ingest/: replay, what-if, a unit's story, the relist diff.
koordq_gtest(replay_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/replay_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/what_if_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/explain_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/explain_index_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/relist_diff_test.cpp
  LIBS koordq_replay koordq_explain koordq_ingest)
