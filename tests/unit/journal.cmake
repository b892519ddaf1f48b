koordq_gtest(journal_basics_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/journal_basics_test.cpp LIBS koordq_journal)
koordq_gtest(journal_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/journal_test.cpp LIBS koordq_journal)
koordq_gtest(journal_export_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/journal_export_test.cpp
  LIBS koordq_journal simdjson::simdjson)
koordq_gtest(journal_retention_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/journal_retention_test.cpp
  LIBS koordq_journal)
