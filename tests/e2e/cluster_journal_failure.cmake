# A leader whose journal disk fills up gives leadership up and takes it back once appends succeed (tests/e2e/cluster_journal_failure_test.sh).
add_test(NAME cluster_journal_failure_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cluster_journal_failure_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(cluster_journal_failure_e2e PROPERTIES LABELS e2e TIMEOUT 600)
