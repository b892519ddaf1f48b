# Every JSON surface koordq emits (replay, what-if, `at -o json`, `explain -o json`, the usage
# annotations, journal stat, export lines and trailers, audit lines, the API writer) parses and round-trips a string of every control
# character, quote, backslash, DEL and UTF-8, escaped as RapidJSON's Writer escapes it.
koordq_gtest(json_surfaces_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/json_surfaces_test.cpp
  LIBS koordq_replay koordq_explain koordq_api koordq_rapidjson)
