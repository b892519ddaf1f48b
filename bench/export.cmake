# `journal export` and `journal verify --export` on a real journal against the raw libraries
# doing the same reading and hashing (scripts/bench-export.sh makes the journal and runs it).
add_executable(export_bench ${CMAKE_CURRENT_LIST_DIR}/export_bench.cpp)
koordq_project_target(export_bench)
target_link_libraries(export_bench PRIVATE koordq_journal benchmark::benchmark OpenSSL::Crypto)
