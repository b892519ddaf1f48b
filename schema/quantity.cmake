# koordq_quantity: Quantity (behaviour.md §3), ResourceList/ResourceVector, WatchedObject helpers.
add_library(koordq_quantity STATIC
  ${CMAKE_CURRENT_LIST_DIR}/quantity.cpp
  ${CMAKE_CURRENT_LIST_DIR}/resource_list.cpp
  ${CMAKE_CURRENT_LIST_DIR}/watched_object.cpp)
koordq_project_target(koordq_quantity)
target_link_libraries(koordq_quantity PUBLIC koordq_base)
