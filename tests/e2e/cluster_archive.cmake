# The journal archive of two replicas on the real kube-apiserver and Ceph RGW
# (tests/e2e/cluster_archive_test.sh).
add_test(NAME cluster_archive_e2e
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cluster_archive_test.sh $<TARGET_FILE:koordq> $<TARGET_FILE:s3_client_probe>
          ${CMAKE_SOURCE_DIR}/scripts/s3-server.sh)
set_tests_properties(cluster_archive_e2e PROPERTIES LABELS e2e TIMEOUT 900)
