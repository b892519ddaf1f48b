# kube/: configuration, rate limit, retries, watch stream, deduplication, the HTTP client, the
# watcher and the watch of one object against a local scripted server; the Lease election and the
# Event recorder against it too; the event correlator and the Lease record as pure logic; the
# writer's request bodies, the coalescing write queue and the writer against the scripted server.
koordq_gtest(kube_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/kube_client_config_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/kube_client_policy_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/kube_watch_stream_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/kube_http_client_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/kube_write_fence_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/kube_object_watch_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/kube_leader_lease_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/kube_leader_elector_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/kube_leader_guard_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/kube_leader_fence_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/kube_events_correlator_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/kube_events_recorder_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/kube_writer_test.cpp
  LIBS koordq_kube_client koordq_kube_leader koordq_kube_events koordq_kube_writer)
target_compile_definitions(kube_unit_tests PRIVATE KOORDQ_FIXTURES_DIR="${CMAKE_SOURCE_DIR}/tests/fixtures")
