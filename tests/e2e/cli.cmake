# The koordq binary's command line, driven from bash (help, usage errors, serve --simulate).
add_test(NAME cli_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cli_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(cli_e2e PROPERTIES LABELS e2e TIMEOUT 300)
