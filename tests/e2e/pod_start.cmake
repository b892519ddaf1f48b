# koordq's image started under podman as the kubelet starts the StatefulSet's container, against the
# real kube-apiserver with RBAC, inside `unshare -n` (tests/e2e/pod_start_test.sh; skipped when not
# root or when podman is unusable).
add_test(NAME pod_start_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/pod_start_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(pod_start_e2e PROPERTIES LABELS e2e TIMEOUT 900)
