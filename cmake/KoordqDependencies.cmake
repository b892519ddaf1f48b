# Every dependency comes from a Debian package (see scripts/install-deps.sh).
find_package(Threads REQUIRED)
find_package(CAF 0.17 REQUIRED)                      # CAF::core CAF::io (cmake/FindCAF.cmake)
find_package(RocksDB 7.8 CONFIG REQUIRED)            # RocksDB::rocksdb-shared
find_package(CapnProto 0.9 CONFIG REQUIRED)          # CapnProto::capnp CapnProto::kj, capnp_generate_cpp()
find_package(prometheus-cpp CONFIG REQUIRED)         # prometheus-cpp::core
find_package(Boost 1.74 REQUIRED COMPONENTS system)  # Boost::headers (Beast, Asio)
find_package(OpenSSL REQUIRED)                       # OpenSSL::SSL OpenSSL::Crypto (TLS, SHA-256)
find_package(CURL 7.75 REQUIRED)                     # CURL::libcurl: the S3 client, with its SigV4 signing
find_package(simdjson 3 CONFIG REQUIRED)             # simdjson::simdjson: decoding
find_package(RapidJSON CONFIG REQUIRED)              # header-only writer: rendering
find_package(yaml-cpp 0.7 CONFIG REQUIRED)           # yaml-cpp: kubeconfig, scenario files
find_package(CLI11 2.1 CONFIG REQUIRED)              # CLI11::CLI11
find_package(spdlog 1.10 CONFIG REQUIRED)            # spdlog::spdlog: klog-format logging
find_package(fmt 9 CONFIG REQUIRED)                  # fmt::fmt
find_package(GTest 1.12 CONFIG REQUIRED)             # GTest::gtest GTest::gmock
find_package(rapidcheck CONFIG REQUIRED)             # rapidcheck rapidcheck_gtest
if(KOORDQ_BENCH)
  find_package(benchmark 1.7 CONFIG REQUIRED)        # benchmark::benchmark
endif()

add_library(koordq_rapidjson INTERFACE)
target_include_directories(koordq_rapidjson SYSTEM INTERFACE ${RAPIDJSON_INCLUDE_DIRS})
target_compile_definitions(koordq_rapidjson INTERFACE RAPIDJSON_HAS_STDSTRING=1)

# koordq_allocator: jemalloc (Debian's libjemalloc-dev) where KOORDQ_JEMALLOC is on and no sanitizer
# replaces malloc, with the options of base/allocator/jemalloc_options.cpp; nothing otherwise. Linked into
# executables only.
add_library(koordq_allocator INTERFACE)
if(KOORDQ_JEMALLOC AND NOT KOORDQ_SANITIZE)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(JEMALLOC REQUIRED IMPORTED_TARGET jemalloc)
  target_link_libraries(koordq_allocator INTERFACE PkgConfig::JEMALLOC)
  target_sources(koordq_allocator INTERFACE ${PROJECT_SOURCE_DIR}/base/allocator/jemalloc_options.cpp)
endif()
