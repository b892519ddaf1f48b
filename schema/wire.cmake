# koordq_wire: the Cap'n Proto schemas of records, snapshots (and the decision state's parts) and the model,
# and model ↔ Cap'n Proto.
# Generated headers are included as "schema/<name>.capnp.h" from ${CMAKE_BINARY_DIR}.
set(CAPNPC_SRC_PREFIX ${CMAKE_SOURCE_DIR})
set(CAPNPC_OUTPUT_DIR ${CMAKE_BINARY_DIR})
capnp_generate_cpp(KOORDQ_WIRE_CAPNP_SRCS KOORDQ_WIRE_CAPNP_HDRS
  ${CMAKE_CURRENT_LIST_DIR}/model.capnp
  ${CMAKE_CURRENT_LIST_DIR}/record.capnp
  ${CMAKE_CURRENT_LIST_DIR}/snapshot.capnp
  ${CMAKE_CURRENT_LIST_DIR}/state.capnp)
unset(CAPNPC_SRC_PREFIX)
unset(CAPNPC_OUTPUT_DIR)

# Generated code is not ours to keep warning-free: it builds without the project's -Werror.
add_library(koordq_wire_generated OBJECT ${KOORDQ_WIRE_CAPNP_SRCS} ${KOORDQ_WIRE_CAPNP_HDRS})
target_include_directories(koordq_wire_generated PUBLIC ${CMAKE_BINARY_DIR})
target_link_libraries(koordq_wire_generated PUBLIC CapnProto::capnp CapnProto::kj)

add_library(koordq_wire STATIC
  ${CMAKE_CURRENT_LIST_DIR}/canonical.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wire_bytes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wire_elastic_quota.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wire_message.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wire_object_meta.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wire_queue.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wire_queue_unit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wire_watched_object.cpp
  ${KOORDQ_WIRE_CAPNP_HDRS}
  $<TARGET_OBJECTS:koordq_wire_generated>)
koordq_project_target(koordq_wire)
target_include_directories(koordq_wire PUBLIC ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR})
target_link_libraries(koordq_wire PUBLIC koordq_base CapnProto::capnp CapnProto::kj)
