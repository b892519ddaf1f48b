# `koordq serve` against the real kube-apiserver of tests/controlplane (tests/e2e/cluster_serve_test.sh).
add_test(NAME cluster_serve_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cluster_serve_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(cluster_serve_e2e PROPERTIES LABELS e2e TIMEOUT 900)
