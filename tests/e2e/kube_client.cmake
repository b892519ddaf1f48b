# kube/client against the real kube-apiserver of tests/controlplane: list, watch, reconnects,
# relist after a 410, auth variants (tests/e2e/kube_client_test.sh).
add_executable(kube_watch_probe ${CMAKE_CURRENT_LIST_DIR}/kube_watch_probe.cpp)
koordq_project_target(kube_watch_probe)
target_link_libraries(kube_watch_probe PRIVATE koordq_kube_client)
add_test(NAME kube_client_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/kube_client_test.sh $<TARGET_FILE:kube_watch_probe>)
set_tests_properties(kube_client_e2e PROPERTIES LABELS e2e TIMEOUT 900)
