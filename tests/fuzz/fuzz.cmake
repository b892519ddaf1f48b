# Fuzz targets. Each tests/fuzz/<name>_fuzz.cpp defines LLVMFuzzerTestOneInput.
#  - KOORDQ_FUZZ=ON (clang-14): fuzz_<name>, a libFuzzer binary with ASan+UBSan
#    (scripts/fuzz.sh runs them).
#  - otherwise: <name>_fuzz_corpus_test replays tests/fuzz/corpus/<name>/* through the same
#    function as an ordinary unit test, so CI checks every saved input without fuzzing.
# A target lists the libraries it needs in tests/fuzz/<name>_fuzz.libs (one per line).
file(GLOB KOORDQ_FUZZ_TARGETS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*_fuzz.cpp)
foreach(src ${KOORDQ_FUZZ_TARGETS})
  get_filename_component(stem ${src} NAME_WE)
  string(REGEX REPLACE "_fuzz$" "" name ${stem})
  set(libs_file ${CMAKE_CURRENT_LIST_DIR}/${name}_fuzz.libs)
  set(libs "")
  if(EXISTS ${libs_file})
    file(STRINGS ${libs_file} libs)
  endif()
  if(KOORDQ_FUZZ)
    add_executable(fuzz_${name} ${src})
    target_compile_options(fuzz_${name} PRIVATE -fsanitize=fuzzer,address,undefined -g -O1)
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_libraries(fuzz_${name} PRIVATE ${libs})
  else()
    add_executable(${name}_fuzz_corpus_test ${src} ${CMAKE_CURRENT_LIST_DIR}/corpus_replay_main.cpp)
    koordq_project_target(${name}_fuzz_corpus_test)
    target_link_libraries(${name}_fuzz_corpus_test PRIVATE ${libs})
    add_test(NAME ${name}_fuzz_corpus
      COMMAND ${name}_fuzz_corpus_test ${CMAKE_CURRENT_LIST_DIR}/corpus/${name})
    set_tests_properties(${name}_fuzz_corpus PROPERTIES LABELS unit TIMEOUT 600)
    add_dependencies(koordq_unit_tests ${name}_fuzz_corpus_test)
  endif()
endforeach()
