# explain_bench: `koordq explain` of one unit in a generated 10M-record decision journal, next to
# RocksDB reading the same records.
add_executable(explain_bench ${CMAKE_CURRENT_LIST_DIR}/explain_bench.cpp)
koordq_project_target(explain_bench)
target_link_libraries(explain_bench PRIVATE koordq_explain koordq_replay benchmark::benchmark)
