# `koordq replay` over simulated journals (behaviour.md §24.3), driven from bash.
add_test(NAME replay_e2e
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/replay_test.sh $<TARGET_FILE:koordq> ${CMAKE_SOURCE_DIR}/tests/golden)
set_tests_properties(replay_e2e PROPERTIES LABELS e2e TIMEOUT 600)
