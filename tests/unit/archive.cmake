# archive/: the S3 client's logic (endpoints and addressing, the environment and the credentials
# file, S3's XML answers and the errors they map to) and the archive's layout and segments. Against
# a real server: tests/e2e/s3_client.cmake and tests/e2e/archive.cmake.
koordq_gtest(archive_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/s3_config_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/s3_url_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/s3_error_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/s3_xml_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/archive_segment_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/archive_read_test.cpp
  LIBS koordq_archive)
