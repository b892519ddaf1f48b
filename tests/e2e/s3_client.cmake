# archive/'s S3 client against a real S3 server: Ceph's RADOS Gateway started by
# scripts/s3-server.sh (tests/e2e/s3_client_test.sh).
add_executable(s3_client_probe ${CMAKE_CURRENT_LIST_DIR}/s3_client_probe.cpp)
koordq_project_target(s3_client_probe)
target_link_libraries(s3_client_probe PRIVATE koordq_archive)
add_test(NAME s3_client_e2e
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/s3_client_test.sh $<TARGET_FILE:s3_client_probe> ${CMAKE_SOURCE_DIR}/scripts/s3-server.sh)
set_tests_properties(s3_client_e2e PROPERTIES LABELS e2e TIMEOUT 900)
