# One INTERFACE target carries every shared compile setting; each real target links it
# privately instead of relying on global flags.
add_library(gwb_flags INTERFACE)
add_library(gwb::flags ALIAS gwb_flags)
target_compile_features(gwb_flags INTERFACE cxx_std_17)
set(CMAKE_CXX_EXTENSIONS OFF)
target_compile_options(gwb_flags INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                 -Wold-style-cast -Wcast-align -Woverloaded-virtual
                                 -Wimplicit-fallthrough>)
# Qt strictness: no silent conversions from char*, no context-less connects, no foreach.
target_compile_definitions(gwb_flags INTERFACE
  QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_CAST_FROM_BYTEARRAY
  QT_NO_CONTEXTLESS_CONNECT QT_NO_FOREACH QT_NO_URL_CAST_FROM_STRING
  QT_USE_QSTRINGBUILDER QT_NO_NARROWING_CONVERSIONS_IN_CONNECT)
if(GWB_SANITIZE)
  target_compile_options(gwb_flags INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                                             -fno-sanitize-recover=undefined)
  target_link_options(gwb_flags INTERFACE -fsanitize=address,undefined)
endif()
if(GWB_SANITIZE_THREAD)
  if(GWB_SANITIZE)
    message(FATAL_ERROR "GWB_SANITIZE_THREAD and GWB_SANITIZE cannot be combined")
  endif()
  target_compile_options(gwb_flags INTERFACE -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(gwb_flags INTERFACE -fsanitize=thread)
endif()
if(GWB_BUILD_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GWB_BUILD_FUZZ needs Clang (libFuzzer): CXX=clang++ cmake ...")
  endif()
  if(GWB_SANITIZE OR GWB_SANITIZE_THREAD)
    message(FATAL_ERROR "GWB_BUILD_FUZZ brings its own sanitizers; leave GWB_SANITIZE* off")
  endif()
  # The core and the targets get coverage instrumentation and ASan + UBSan; only the fuzz
  # targets link libFuzzer's main (fuzz/CMakeLists.txt).
  target_compile_options(gwb_flags INTERFACE -fsanitize=fuzzer-no-link,address,undefined
                                             -fno-sanitize-recover=undefined
                                             -fno-omit-frame-pointer)
  target_link_options(gwb_flags INTERFACE -fsanitize=address,undefined)
endif()
# Link with lld when the toolchain can (scripts/setup-debian.sh installs it): the test and
# sanitizer executables link several times faster than with GNU ld. GWB_LINKER=default keeps the
# compiler's own.
set(GWB_LINKER "lld" CACHE STRING "Linker for -fuse-ld= (lld, mold, gold, or default)")
if(NOT GWB_LINKER STREQUAL "default")
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=${GWB_LINKER}" GWB_LINKER_WORKS_${GWB_LINKER})
  if(GWB_LINKER_WORKS_${GWB_LINKER})
    target_link_options(gwb_flags INTERFACE "-fuse-ld=${GWB_LINKER}")
  endif()
endif()
