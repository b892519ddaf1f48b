# journal/: keys and records, the journal itself, export and retention, the cluster a journal
# belongs to, where checkpoints may be written, the redaction key.
koordq_gtest(journal_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/journal_basics_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/journal_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/journal_writer_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/journal_export_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/line_reader_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/capnp_json_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/journal_retention_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/read_ahead_cursor_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/journal_cluster_identity_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/checkpoint_root_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/redaction_key_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/journal_witness_test.cpp
  LIBS koordq_journal simdjson::simdjson CapnProto::capnp-json)
