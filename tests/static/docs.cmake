# Static checks of the repository's documents (no build needed; label static, and unit so that
# `ctest -L unit` runs them too): every "design.md §N" / "behaviour.md §N.M" / "operations.md §N"
# reference resolves to a heading in docs/, every relative markdown link to a file
# (scripts/check-doc-refs.py), and the check fails on broken ones (tests/static/doc_refs_test.sh).
add_test(NAME doc_refs_static COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/doc_refs_test.sh)
set_tests_properties(doc_refs_static PROPERTIES LABELS "static;unit" TIMEOUT 60)
