# koordq_replay: `koordq replay` (behaviour.md §24.3) as a pure library: the state at a revision,
# the verification of recorded rounds, the state difference, exports read as journals, the
# what-if (replay/replay.cpp, state_diff.cpp, export_journal.cpp, what_if.cpp, admission_change.cpp,
# what_if_render.cpp).
add_library(koordq_replay STATIC
  ${CMAKE_CURRENT_LIST_DIR}/admission_change.cpp
  ${CMAKE_CURRENT_LIST_DIR}/export_journal.cpp
  ${CMAKE_CURRENT_LIST_DIR}/replay.cpp
  ${CMAKE_CURRENT_LIST_DIR}/state_diff.cpp
  ${CMAKE_CURRENT_LIST_DIR}/what_if.cpp
  ${CMAKE_CURRENT_LIST_DIR}/what_if_render.cpp)
koordq_project_target(koordq_replay)
target_include_directories(koordq_replay PUBLIC ${CMAKE_SOURCE_DIR})
target_link_libraries(koordq_replay PUBLIC koordq_decision_wire koordq_journal PRIVATE CapnProto::capnp-json)
