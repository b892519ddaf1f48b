koordq_gtest(relist_diff_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/relist_diff_test.cpp LIBS koordq_ingest)
