# The live read paths over generated scenarios' journals: time travel equals the live fold at every
# revision (so do the console's states); the journal stream, cut and resumed anywhere, delivers every
# record once.
koordq_gtest(api_property_tests property
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/time_travel_property_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/journal_stream_property_test.cpp
  LIBS koordq_api koordq_replay koordq_console)
