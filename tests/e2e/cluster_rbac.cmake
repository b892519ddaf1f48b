# `koordq serve` as its ServiceAccount under RBAC with the rules of ops/kubernetes (tests/e2e/cluster_rbac_test.sh).
add_test(NAME cluster_rbac_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cluster_rbac_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(cluster_rbac_e2e PROPERTIES LABELS e2e TIMEOUT 900)
