# koordq_json: JSON → model decoding (simdjson), model → JSON (RapidJSON), raw-object redaction.
add_library(koordq_json STATIC
  ${CMAKE_CURRENT_LIST_DIR}/json_decode_context.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_decode_list.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_decode_meta.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_decode_object.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_decode_queue.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_decode_queue_unit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_decode_quota.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_decode_watch_event.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_decoder.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_dom_writer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_encode.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_raw_span.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_secret_splice.cpp
  ${CMAKE_CURRENT_LIST_DIR}/json_watch_event.cpp
  ${CMAKE_CURRENT_LIST_DIR}/raw_object.cpp)
koordq_project_target(koordq_json)
target_link_libraries(koordq_json
  PUBLIC koordq_base koordq_quantity
  PRIVATE simdjson::simdjson koordq_rapidjson)
