# Who may read what through the visibility API: RBAC on the real kube-apiserver, the aggregator
# verifying the caBundle koordq sets, a tenant and an admin with kubectl get --raw, inside
# `unshare -n` (tests/e2e/visibility_authz_test.sh; skipped when not root).
add_test(NAME visibility_authz_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/visibility_authz_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(visibility_authz_e2e PROPERTIES LABELS e2e TIMEOUT 600)
