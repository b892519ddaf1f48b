# The journal's external witness on the real kube-apiserver with RBAC (tests/e2e/cluster_witness_test.sh,
# behaviour.md §24.5): the witness appears, a journal cut on disk and re-signed disagrees with it.
add_executable(journal_cut_tool ${CMAKE_CURRENT_LIST_DIR}/journal_cut_tool.cpp)
koordq_project_target(journal_cut_tool)
target_link_libraries(journal_cut_tool PRIVATE koordq_journal)
add_test(NAME cluster_witness_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cluster_witness_test.sh $<TARGET_FILE:koordq>
                                          $<TARGET_FILE:journal_cut_tool>)
set_tests_properties(cluster_witness_e2e PROPERTIES LABELS e2e TIMEOUT 600)
