koordq_gtest(json_property_test property
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/json_property_test.cpp
  LIBS koordq_json koordq_rapidjson simdjson::simdjson)
target_compile_definitions(json_property_test PRIVATE KOORDQ_FIXTURES_DIR="${CMAKE_SOURCE_DIR}/tests/fixtures")
