# kube/client: configuration, rate limit, retries, watch stream, deduplication, HTTP client and
# watcher against a local scripted server.
foreach(test kube_client_config_test kube_client_policy_test kube_watch_stream_test kube_http_client_test)
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/${test}.cpp)
    koordq_gtest(${test} unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/${test}.cpp LIBS koordq_kube_client)
    target_compile_definitions(${test} PRIVATE KOORDQ_FIXTURES_DIR="${CMAKE_SOURCE_DIR}/tests/fixtures")
  endif()
endforeach()
