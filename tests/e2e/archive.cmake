# The journal archive against a real S3 server: Ceph's RADOS Gateway started by
# scripts/s3-server.sh (tests/e2e/archive_test.sh).
add_test(NAME archive_e2e
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/archive_test.sh $<TARGET_FILE:koordq> $<TARGET_FILE:s3_client_probe>
          ${CMAKE_SOURCE_DIR}/scripts/s3-server.sh)
set_tests_properties(archive_e2e PROPERTIES LABELS e2e TIMEOUT 900)
