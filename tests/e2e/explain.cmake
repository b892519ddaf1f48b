# `koordq explain` over a virtual-clock simulator journal, against a golden file.
add_test(NAME explain_e2e
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/explain_test.sh $<TARGET_FILE:koordq> ${CMAKE_SOURCE_DIR}/tests/golden)
set_tests_properties(explain_e2e PROPERTIES LABELS e2e TIMEOUT 600)
