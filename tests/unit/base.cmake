# base/'s shared pieces: the LRU cache, the token bucket, hex, base64, UUIDs, JSON string literals,
# objects freed on a thread of their own.
koordq_gtest(base_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/base_shared_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/base_deferred_release_test.cpp
  LIBS koordq_base koordq_rapidjson simdjson::simdjson)
