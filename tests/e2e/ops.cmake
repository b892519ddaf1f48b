# The operations bundle (ops/: dashboard, Prometheus rules and scrape job, kustomize manifests) against
# tests/controlplane/check-dashboard.sh, promtool, kubectl 1.20 and newer, the real kube-apiserver
# with RBAC, and a real Prometheus scraping `koordq serve --simulate` (tests/e2e/ops_test.sh).
add_test(NAME ops_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/ops_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(ops_e2e PROPERTIES LABELS e2e TIMEOUT 600)
