# `koordq journal …` on real journals, driven from bash.
add_test(NAME journal_cli_e2e
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/journal_cli_test.sh $<TARGET_FILE:koordq> ${CMAKE_SOURCE_DIR}/tests/fixtures)
set_tests_properties(journal_cli_e2e PROPERTIES LABELS e2e TIMEOUT 300)
