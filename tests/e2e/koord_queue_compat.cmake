# The Koord-Queue drop-in overlay rendered by kustomize: Koord-Queue's names on koordq's objects
# (tests/e2e/koord_queue_compat_test.sh).
add_test(NAME koord_queue_compat_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/koord_queue_compat_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(koord_queue_compat_e2e PROPERTIES LABELS e2e TIMEOUT 120)
