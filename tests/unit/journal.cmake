# journal/: keys and records, the journal itself, export and retention.
koordq_gtest(journal_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/journal_basics_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/journal_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/journal_export_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/journal_retention_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/read_ahead_cursor_test.cpp
  LIBS koordq_journal simdjson::simdjson)
