# The web console in headless Chromium, over `koordq console` and over a running serve.
add_test(NAME console_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/console_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(console_e2e PROPERTIES LABELS e2e TIMEOUT 900)
