# base/'s shared pieces: the LRU cache, the token bucket, hex, base64, UUIDs and JSON string literals.
koordq_gtest(base_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/base_shared_test.cpp
  LIBS koordq_base koordq_rapidjson simdjson::simdjson)
