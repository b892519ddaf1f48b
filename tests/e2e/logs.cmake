# The log lines of behaviour.md §20 at each verbosity (tests/e2e/logs_test.sh).
add_test(NAME logs_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/logs_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(logs_e2e PROPERTIES LABELS e2e TIMEOUT 600)
