# The visibility API through the real kube-apiserver's aggregation layer, inside `unshare -n`
# (tests/e2e/aggregation_test.sh; skipped when not root).
add_test(NAME aggregation_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/aggregation_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(aggregation_e2e PROPERTIES LABELS e2e TIMEOUT 600)
