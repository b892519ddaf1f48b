# Two `koordq serve` replicas electing a leader on the real kube-apiserver (tests/e2e/cluster_failover_test.sh).
add_test(NAME cluster_failover_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cluster_failover_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(cluster_failover_e2e PROPERTIES LABELS e2e TIMEOUT 900)
