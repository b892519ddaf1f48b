# The virtual clock under load: two runs of one seed side by side end with the same head.
add_test(NAME determinism_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/determinism_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(determinism_e2e PROPERTIES LABELS e2e TIMEOUT 1800)
