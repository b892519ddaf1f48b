# `koordq at`'s renderings: tables, YAML and the unit view (cmd/at_*).
koordq_gtest(at_render_test unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/at_render_test.cpp LIBS koordq_at_render)
