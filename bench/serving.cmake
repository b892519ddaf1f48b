add_executable(serving_bench ${CMAKE_CURRENT_LIST_DIR}/serving_bench.cpp)
koordq_project_target(serving_bench)
target_link_libraries(serving_bench PRIVATE koordq_api benchmark::benchmark)
