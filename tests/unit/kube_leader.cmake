# kube/leader and kube/events: the Lease election and the Event recorder against a local scripted
# server; the event correlator and the Lease record as pure logic.
foreach(test kube_leader_lease_test kube_leader_elector_test)
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/${test}.cpp)
    koordq_gtest(${test} unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/${test}.cpp LIBS koordq_kube_leader)
  endif()
endforeach()
foreach(test kube_events_correlator_test kube_events_recorder_test)
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/${test}.cpp)
    koordq_gtest(${test} unit SOURCES ${CMAKE_CURRENT_LIST_DIR}/${test}.cpp LIBS koordq_kube_events)
  endif()
endforeach()
