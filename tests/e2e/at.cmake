# `koordq at` over a virtual-clock simulator journal against golden files, and against the live APIs.
add_test(NAME at_e2e
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/at_test.sh $<TARGET_FILE:koordq> ${CMAKE_SOURCE_DIR}/tests/golden)
set_tests_properties(at_e2e PROPERTIES LABELS e2e TIMEOUT 600)
