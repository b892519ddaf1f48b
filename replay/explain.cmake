# koordq_explain: `koordq explain` (behaviour.md §24.2) as a pure library: journal records in, the
# story of one QueueUnit out (replay/explain*.cpp), and which records of a journal it folds.
add_library(koordq_explain STATIC
  ${CMAKE_CURRENT_LIST_DIR}/explain_fold.cpp
  ${CMAKE_CURRENT_LIST_DIR}/explain_render.cpp
  ${CMAKE_CURRENT_LIST_DIR}/explain_story.cpp
  ${CMAKE_CURRENT_LIST_DIR}/explain_summary.cpp)
koordq_project_target(koordq_explain)
target_include_directories(koordq_explain PUBLIC ${CMAKE_SOURCE_DIR})
target_link_libraries(koordq_explain PUBLIC koordq_replay koordq_decision_wire PRIVATE koordq_rapidjson)
