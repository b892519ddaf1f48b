# The serving surfaces of `koordq serve --simulate` with real clients (curl, promtool, Prometheus,
# kubectl, python3-kubernetes) over loopback.
add_test(NAME serving_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/serving_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(serving_e2e PROPERTIES LABELS e2e TIMEOUT 600)
