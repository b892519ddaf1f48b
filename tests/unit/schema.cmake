# schema/: JSON decoding, encoding and raw-object redaction, the record wire format, quantities.
koordq_gtest(schema_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/json_decode_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/json_decode_tolerated_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/json_decode_rejected_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/json_decode_raw_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/json_encode_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/flat_map_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/raw_object_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/wire_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/wire_bytes_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/wire_record_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/quantity_test.cpp
  LIBS koordq_json koordq_wire koordq_quantity)
target_compile_definitions(schema_unit_tests PRIVATE KOORDQ_FIXTURES_DIR="${CMAKE_SOURCE_DIR}/tests/fixtures")
