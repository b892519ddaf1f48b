# api/: request parameters, renderings, the HTTP server, metrics, time travel, the journal stream,
# the front-proxy CA from the ConfigMap, the exposition writer, the compact JSON writer and the
# visibility response cache, front-proxy authentication, authorization and the namespaced paths,
# the checkpoint endpoint's header.
koordq_gtest(api_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/api_render_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/api_params_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/api_http_server_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/api_metrics_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/api_time_travel_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/api_journal_stream_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/api_auth_configmap_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/api_exposition_writer_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/api_compact_json_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/api_visibility_cache_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/api_visibility_auth_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/api_visibility_authz_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/api_visibility_access_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/api_tls_material_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/api_debug_checkpoint_test.cpp
  LIBS koordq_api)
