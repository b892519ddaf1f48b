# A journal written by an older koordq (tests/fixtures/journal-d627e47-seed7) with today's binary.
add_test(NAME journal_compat_e2e
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/journal_compat_test.sh $<TARGET_FILE:koordq>
          ${CMAKE_SOURCE_DIR}/tests/fixtures/journal-d627e47-seed7)
set_tests_properties(journal_compat_e2e PROPERTIES LABELS e2e TIMEOUT 300)
