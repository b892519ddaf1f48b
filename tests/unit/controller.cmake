# The serve loop and its start (controller/): the loop driven by a scripted inbox with a crash
# between any two steps, the writes of the previous process left without an answer, and a relist
# epoch's changes. No API server, no simulator.
koordq_gtest(controller_unit_tests unit
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/serve_loop_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/serve_loop_crash_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/unanswered_writes_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/relist_changes_test.cpp
  LIBS koordq_controller koordq_replay)
