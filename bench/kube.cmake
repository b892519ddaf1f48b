# Kubernetes I/O: watch events through the client from a local socket, a 150k-object LIST to its
# relist snapshot and to durable records as `koordq serve` journals it.
add_executable(kube_watch_bench ${CMAKE_CURRENT_LIST_DIR}/kube_watch_bench.cpp)
koordq_project_target(kube_watch_bench)
target_compile_definitions(kube_watch_bench PRIVATE KOORDQ_FIXTURES_DIR="${CMAKE_SOURCE_DIR}/tests/fixtures")
target_link_libraries(kube_watch_bench PRIVATE koordq_controller koordq_kube_client koordq_ingest koordq_journal simdjson::simdjson benchmark::benchmark)
