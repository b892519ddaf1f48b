# Flag values, RFC 3339 times, logging and the koordq command line (base/ value parsers and log,
# cmd/), and `koordq at`'s renderings: tables, YAML and the unit view (cmd/at_*).
koordq_gtest(cli_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/go_duration_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/byte_size_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/decimal_ppm_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/rfc3339_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/log_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/when_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/serve_flags_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/offline_flags_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/serve_surfaces_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/at_render_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/journal_witness_writer_test.cpp
  LIBS koordq_cmd koordq_at_render koordq_base)
