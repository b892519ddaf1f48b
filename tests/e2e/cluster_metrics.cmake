# A real Prometheus scraping `koordq serve` on the real kube-apiserver of tests/controlplane while a
# scripted workload runs: every dashboard expression has data (tests/e2e/cluster_metrics_test.sh).
add_test(NAME cluster_metrics_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cluster_metrics_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(cluster_metrics_e2e PROPERTIES LABELS e2e TIMEOUT 900)
