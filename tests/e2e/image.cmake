# The production image (scripts/build-image.sh) from the built binary: its configuration, labels and
# layer, two builds with one digest, and the binary run in it by podman (tests/e2e/image_test.sh).
add_test(NAME image_e2e COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/image_test.sh $<TARGET_FILE:koordq>)
set_tests_properties(image_e2e PROPERTIES LABELS e2e TIMEOUT 900)
