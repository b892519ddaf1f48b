# kube/leader and kube/events against the real kube-apiserver of tests/controlplane: takeover after
# a release and after a kill, the legacy-lease guard, the leader label, an Event and its repeat
# (tests/e2e/leader_election_test.sh).
add_executable(leader_probe ${CMAKE_CURRENT_LIST_DIR}/leader_probe.cpp)
koordq_project_target(leader_probe)
target_link_libraries(leader_probe PRIVATE koordq_kube_leader koordq_kube_events)
add_test(NAME leader_election_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/leader_election_test.sh $<TARGET_FILE:leader_probe>)
set_tests_properties(leader_election_e2e PROPERTIES LABELS e2e TIMEOUT 600)
