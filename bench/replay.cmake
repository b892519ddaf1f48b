# replay_bench: full replay (fold from seq 1) and --verify against a raw cursor scan of the same
# journal; scripts/bench-replay.sh makes the journal with a virtual-clock simulation.
add_executable(replay_bench ${CMAKE_CURRENT_LIST_DIR}/replay_bench.cpp)
koordq_project_target(replay_bench)
target_link_libraries(replay_bench PRIVATE koordq_replay benchmark::benchmark)
