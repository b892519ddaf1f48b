# `koordq serve --simulate` with the virtual clock: determinism, verification, restart.
add_test(NAME simulate_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/simulate_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(simulate_e2e PROPERTIES LABELS e2e TIMEOUT 900)
