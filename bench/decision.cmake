file(GLOB KOORDQ_DECISION_BENCH_SRCS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/decision_*.cpp)
add_executable(decision_bench ${KOORDQ_DECISION_BENCH_SRCS})
koordq_project_target(decision_bench)
target_link_libraries(decision_bench PRIVATE koordq_runtime benchmark::benchmark)
