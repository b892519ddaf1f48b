# Compiler launcher, warnings, sanitizer flags, debug information and linker for project code.
# Project targets call koordq_project_target(); library headers stay system headers.

find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  # The cache lives outside the source tree (CCACHE_DIR, default ~/.cache/ccache);
  # base_dir makes hits independent of where the clone is. The sloppiness lets ccache cache
  # compiles that use a precompiled header (the tests', KoordqTesting.cmake): without it every
  # such compile is a miss.
  set(_koordq_ccache ${CMAKE_COMMAND} -E env
    CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime ${CCACHE_PROGRAM})
  set(CMAKE_C_COMPILER_LAUNCHER ${_koordq_ccache})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${_koordq_ccache})
  set(ENV{CCACHE_BASEDIR} "${CMAKE_SOURCE_DIR}")
endif()

set(KOORDQ_WARNINGS -Wall -Wextra -Werror)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  # RapidJSON 1.1's member iterators compare ambiguously under C++20's reversed operators
  # (clang only; the comparison it picks is the intended one).
  list(APPEND KOORDQ_WARNINGS -Wno-ambiguous-reversed-operator)
endif()
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

# Debug information of Debug and RelWithDebInfo builds. "lines" (-g1) keeps what stack traces need
# (function names, file:line, inlined frames: ASan/UBSan reports, gdb's bt) but no variables or
# types, and compiles about a quarter faster; CI builds with it (scripts/test.sh).
set(KOORDQ_DEBUG_INFO "full" CACHE STRING "Debug information: full (-g) or lines (-g1)")
set_property(CACHE KOORDQ_DEBUG_INFO PROPERTY STRINGS full lines)
if(KOORDQ_DEBUG_INFO STREQUAL "lines")
  add_compile_options($<$<CONFIG:Debug,RelWithDebInfo>:-g1>)
elseif(NOT KOORDQ_DEBUG_INFO STREQUAL "full")
  message(FATAL_ERROR "KOORDQ_DEBUG_INFO is '${KOORDQ_DEBUG_INFO}': use full or lines")
endif()

# lld links the ~100 executables (each with the debug information of every library it uses)
# several times faster than GNU ld.
option(KOORDQ_LLD "Link with lld when the compiler can use it (Debian package lld)" ON)
if(KOORDQ_LLD)
  include(CheckLinkerFlag)
  check_linker_flag(CXX -fuse-ld=lld KOORDQ_HAVE_LLD)
  if(KOORDQ_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()

function(koordq_project_target target)
  target_compile_options(${target} PRIVATE ${KOORDQ_WARNINGS})
endfunction()
