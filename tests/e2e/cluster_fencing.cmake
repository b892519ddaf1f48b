# The leader's writes fenced by its Lease, counted in the real kube-apiserver's audit log (tests/e2e/cluster_fencing_test.sh).
add_test(NAME cluster_fencing_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cluster_fencing_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(cluster_fencing_e2e PROPERTIES LABELS e2e TIMEOUT 900)
