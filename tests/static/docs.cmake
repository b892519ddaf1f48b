# Static checks of the repository's documents (no build needed; label static, and unit so that
# `ctest -L unit` runs them too): every "design.md §N" / "behaviour.md §N.M" / "operations.md §N"
# reference resolves to a heading in docs/, every relative markdown link to a file
# (scripts/check-doc-refs.py), and the check fails on broken ones (tests/static/doc_refs_test.sh).
add_test(NAME doc_refs_static COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/doc_refs_test.sh)
set_tests_properties(doc_refs_static PROPERTIES LABELS "static;unit" TIMEOUT 60)
# Every command README.md and docs/operations.md show appears, verbatim after the normalisation of
# scripts/check-doc-commands.py, in a test script under tests/ (or is listed, with the reason, in
# tests/static/doc_commands_exempt.txt); the check names an uncovered one (tests/static/doc_commands_test.sh).
add_test(NAME doc_commands_static COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/doc_commands_test.sh)
set_tests_properties(doc_commands_static PROPERTIES LABELS "static;unit" TIMEOUT 60)
