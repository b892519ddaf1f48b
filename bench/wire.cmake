add_executable(wire_bench ${CMAKE_CURRENT_LIST_DIR}/wire_bench.cpp)
koordq_project_target(wire_bench)
target_link_libraries(wire_bench PRIVATE koordq_wire benchmark::benchmark)
