# README.md's commands as written: the quick start's journal commands and console over a simulated
# journal, install-deps.sh --build, ctest -L static (tests/e2e/quick_start_test.sh).
add_test(NAME quick_start_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/quick_start_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(quick_start_e2e PROPERTIES LABELS e2e TIMEOUT 300)
