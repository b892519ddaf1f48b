# JSON codecs: decoding, encoding, raw-object redaction (schema/json.cmake).
foreach(test json_decode_test json_encode_test raw_object_test)
  koordq_gtest(${test} unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/${test}.cpp LIBS koordq_json)
  target_compile_definitions(${test} PRIVATE KOORDQ_FIXTURES_DIR="${CMAKE_SOURCE_DIR}/tests/fixtures")
endforeach()
