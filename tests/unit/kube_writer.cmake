# kube/writer: request bodies, the coalescing write queue, the writer against a scripted server.
koordq_gtest(kube_writer_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/kube_writer_test.cpp LIBS koordq_kube_writer)
