add_executable(json_bench ${CMAKE_CURRENT_LIST_DIR}/json_bench.cpp)
koordq_project_target(json_bench)
target_compile_definitions(json_bench PRIVATE KOORDQ_FIXTURES_DIR="${CMAKE_SOURCE_DIR}/tests/fixtures")
target_link_libraries(json_bench PRIVATE koordq_json simdjson::simdjson benchmark::benchmark)
