# `koordq serve` behind a TCP proxy that cuts connections, with a 410 relist (tests/e2e/cluster_faults_test.sh).
add_test(NAME cluster_faults_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cluster_faults_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(cluster_faults_e2e PROPERTIES LABELS e2e TIMEOUT 900)
