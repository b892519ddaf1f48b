# The journaled metric state across a restart of `koordq serve --simulate` (behaviour.md §15.4).
add_test(NAME metrics_restart_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/metrics_restart_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(metrics_restart_e2e PROPERTIES LABELS e2e TIMEOUT 300)
