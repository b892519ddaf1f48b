# Journal reliability (issue "Journal", reliability), label e2e: a crash loop that SIGKILLs a
# writer process, corruption that recovery and the offline commands must name, and a full disk.
# scripts/crash-loop.sh runs the long crash loop.
add_executable(journal_crash_writer ${CMAKE_CURRENT_LIST_DIR}/journal_writer_main.cpp)
koordq_project_target(journal_crash_writer)
target_link_libraries(journal_crash_writer PRIVATE koordq_journal)

koordq_gtest(journal_crash_loop_test e2e
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/crash_loop_test.cpp ${CMAKE_CURRENT_LIST_DIR}/journal_audit.cpp
          ${CMAKE_CURRENT_LIST_DIR}/child_process.cpp
  LIBS koordq_journal)
target_compile_definitions(journal_crash_loop_test PRIVATE KOORDQ_CRASH_WRITER="$<TARGET_FILE:journal_crash_writer>")
add_dependencies(journal_crash_loop_test journal_crash_writer)

koordq_gtest(journal_corruption_test e2e
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/corruption_test.cpp ${CMAKE_CURRENT_LIST_DIR}/journal_damage.cpp
          ${CMAKE_CURRENT_LIST_DIR}/offline_commands_corruption_test.cpp
          ${CMAKE_CURRENT_LIST_DIR}/journal_tamper_test.cpp
  LIBS koordq_journal)
# The offline commands run over a damaged journal.
target_compile_definitions(journal_corruption_test PRIVATE KOORDQ_BINARY="$<TARGET_FILE:koordq>")
add_dependencies(journal_corruption_test koordq)

koordq_gtest(journal_disk_full_test e2e
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/disk_full_test.cpp ${CMAKE_CURRENT_LIST_DIR}/journal_audit.cpp
  LIBS koordq_journal)
