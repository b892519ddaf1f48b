# Compiler launcher, warnings and sanitizer flags for project code.
# Project targets call koordq_project_target(); library headers stay system headers.

find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_C_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
  set(CMAKE_CXX_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
  # The cache lives outside the source tree (CCACHE_DIR, default ~/.cache/ccache);
  # base_dir makes hits independent of where the clone is.
  set(ENV{CCACHE_BASEDIR} "${CMAKE_SOURCE_DIR}")
endif()

set(KOORDQ_WARNINGS -Wall -Wextra -Werror)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # GCC 12 reports a false -Wrestrict inside <string> at -O3 with C++20.
  list(APPEND KOORDQ_WARNINGS -Wno-restrict)
endif()

if(KOORDQ_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

if(KOORDQ_FUZZ)
  # libFuzzer steers by the coverage of instrumented code: instrument every library the fuzz
  # targets link, not only the targets themselves (which add -fsanitize=fuzzer at link time).
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

function(koordq_project_target target)
  target_compile_options(${target} PRIVATE ${KOORDQ_WARNINGS})
endfunction()
