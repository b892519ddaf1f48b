# A journal of another cluster is refused unchanged (tests/e2e/cluster_identity_test.sh, behaviour.md §2.1).
add_test(NAME cluster_identity_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cluster_identity_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(cluster_identity_e2e PROPERTIES LABELS e2e TIMEOUT 600)
