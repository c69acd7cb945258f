# Compiler settings applied to each of our own targets (never globally, so that
# third-party headers are not held to our warning level).
function(sparts_target_defaults tgt)
  target_compile_features(${tgt} PUBLIC cxx_std_20)
  set_target_properties(${tgt} PROPERTIES CXX_EXTENSIONS OFF)
  target_compile_options(${tgt} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)
  if(SPARTS_WERROR)
    target_compile_options(${tgt} PRIVATE -Werror)
  endif()
  # GCC 12 reports a false -Wrestrict inside std::string's operator+ at -O3
  # (GCC bug 105329, fixed in GCC 13): silence that one warning there only.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${tgt} PRIVATE -Wno-restrict)
  endif()
  if(SPARTS_SANITIZE)
    # Every report is fatal. No vptr check: on a cache miss it reads the object's vtable through
    # IsAccessibleMemoryRange, which opens a pipe, so in a process out of file descriptors (what
    # the EMFILE tests of tests/server/e2e_http_hardening_test.cpp do on purpose) it reports
    # valid objects as "invalid vptr" (Boost.System's error_category, built by the failed accept)
    # and a suppressions file cannot help: a vptr report whose vtable it cannot read has no type
    # to match and is not matched by file. ASan still sees a call on a freed or wrong object.
    target_compile_options(${tgt} PUBLIC -fsanitize=address,undefined -fno-sanitize=vptr -fno-omit-frame-pointer
                                         -fno-sanitize-recover=all)
    # GCC 12's sanitizer instrumentation makes -Wmaybe-uninitialized report
    # false positives inside the standard library (<regex>, <functional>); the
    # plain build keeps the warning, and the sanitizers check the real thing.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${tgt} PUBLIC -Wno-maybe-uninitialized)
    endif()
    target_link_options(${tgt} PUBLIC -fsanitize=address,undefined -fno-sanitize=vptr)
  endif()
  if(SPARTS_FUZZ)
    # Coverage for libFuzzer without its main(): the fuzz targets themselves link
    # with -fsanitize=fuzzer (fuzz/CMakeLists.txt); anything else that links our
    # libraries (the doctest suites) gets the sanitizers' runtimes.
    target_compile_options(${tgt} PRIVATE -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                                          -fno-sanitize-recover=all)
    target_link_options(${tgt} PUBLIC -fsanitize=address,undefined)
  endif()
  # --- SPARTS_TSAN (scripts/tsan.sh): ThreadSanitizer on our targets -------
  if(SPARTS_TSAN)
    # -Wno-tsan: GCC 12 warns (an error under -Werror) at every std::atomic_thread_fence
    # it inlines under TSan, and Boost.Asio runs each completion handler inside one
    # (std_fenced_block). That is the only warning -Wtsan gives. The fence is not what
    # orders a handler after its posting (the scheduler's and strand's mutexes do, and
    # TSan sees those); a fence TSan missed would show as a false report, never hide one.
    target_compile_options(${tgt} PUBLIC -fsanitize=thread -fno-omit-frame-pointer -O1)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${tgt} PUBLIC -g -Wno-tsan)
    else()
      target_compile_options(${tgt} PUBLIC -gline-tables-only)  # clang (scripts/tsan.sh): file and line, quicker
    endif()
    target_link_options(${tgt} PUBLIC -fsanitize=thread)
  endif()
  # --- end SPARTS_TSAN ------------------------------------------------------
  # Card sets count with popcount: without this flag GCC calls a library routine
  # instead of the one instruction every x86-64 CPU since 2008 has.
  if(SPARTS_POPCNT AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
    target_compile_options(${tgt} PUBLIC -mpopcnt)
  endif()
  if(SPARTS_CHECKS)
    target_compile_definitions(${tgt} PUBLIC SPARTS_CHECKS=1)
  endif()
endfunction()

# SPARTS_HOT_OPTIONS (CMakeLists.txt) on a target that games run through. A target that reuses
# another's precompiled header (REUSE_FROM) must get them too: a header compiled at another -O
# level is refused.
# SPARTS_HOT_OPTION_LIST is the same as a list (tests/CMakeLists.txt gives it to single sources).
separate_arguments(SPARTS_HOT_OPTION_LIST UNIX_COMMAND "${SPARTS_HOT_OPTIONS}")
function(sparts_hot_code tgt)
  target_compile_options(${tgt} PRIVATE ${SPARTS_HOT_OPTION_LIST})
endfunction()

# SPARTS_UNITY (CMakeLists.txt): the target's sources compiled four to a unit, which parses the
# headers and instantiates the templates they share once a unit rather than once a file.
function(sparts_unity tgt)
  set_target_properties(${tgt} PROPERTIES UNITY_BUILD ${SPARTS_UNITY} UNITY_BUILD_BATCH_SIZE 4)
endfunction()

# Precompiled headers: the heavy third-party headers (Boost.Asio and Beast,
# nlohmann/json, spdlog and fmt, doctest) are parsed once per family of targets
# instead of once per source file. A family's first target compiles them
# (target_precompile_headers with a list below) and the others of the family, built
# with the same flags and definitions, use its file (REUSE_FROM); GCC refuses a
# precompiled header built with other settings (-Winvalid-pch, an error here), so
# a mismatch shows. Only with -DSPARTS_PCH=ON (CMakeLists.txt says why).
set(SPARTS_PCH_STD "<algorithm>" "<chrono>" "<cstdint>" "<deque>" "<functional>" "<map>" "<memory>" "<mutex>"
                   "<optional>" "<set>" "<sstream>" "<string>" "<string_view>" "<unordered_map>" "<vector>")
set(SPARTS_PCH_JSON ${SPARTS_PCH_STD} "<nlohmann/json.hpp>")
set(SPARTS_PCH_NET "<boost/asio/io_context.hpp>" "<boost/asio/ip/tcp.hpp>" "<boost/asio/steady_timer.hpp>"
                   "<boost/asio/strand.hpp>" "<boost/beast/core.hpp>" "<boost/beast/http.hpp>"
                   "<boost/beast/websocket.hpp>")
set(SPARTS_PCH_SERVER ${SPARTS_PCH_JSON} ${SPARTS_PCH_NET} "<spdlog/spdlog.h>")
