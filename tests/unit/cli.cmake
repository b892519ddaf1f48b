# Flag values, logging and the koordq command line (base/ value parsers and log, cmd/).
koordq_gtest(go_duration_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/go_duration_test.cpp LIBS koordq_base)
koordq_gtest(byte_size_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/byte_size_test.cpp LIBS koordq_base)
koordq_gtest(decimal_ppm_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/decimal_ppm_test.cpp LIBS koordq_base)
koordq_gtest(log_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/log_test.cpp LIBS koordq_base)
koordq_gtest(when_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/when_test.cpp LIBS koordq_cmd)
koordq_gtest(serve_flags_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/serve_flags_test.cpp LIBS koordq_cmd)
koordq_gtest(offline_flags_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/offline_flags_test.cpp LIBS koordq_cmd)
