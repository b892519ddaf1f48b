# Invalid quantities on the real kube-apiserver: never admitted, reported once (tests/e2e/cluster_quantities_test.sh).
add_test(NAME cluster_quantities_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cluster_quantities_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(cluster_quantities_e2e PROPERTIES LABELS e2e TIMEOUT 600)
