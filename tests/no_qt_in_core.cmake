# core/ must not use Qt: gwb_core is plain C++17 so the CLI, tests and benchmarks build without
# it (and CI builds with GWB_BUILD_GUI=OFF). Run as a CTest test:
#   cmake -DCORE_DIR=<source>/core -P tests/no_qt_in_core.cmake
# Fails listing every offending file:line — a Qt include (`#include <QString>`, `"QtCore/..."`),
# Q_OBJECT, QString, `Qt::` — and any Qt package or target named in core's CMake files.
cmake_minimum_required(VERSION 3.22)

if(NOT DEFINED CORE_DIR)
  message(FATAL_ERROR "no_qt_in_core: pass -DCORE_DIR=<path to core/>")
endif()
if(NOT IS_DIRECTORY "${CORE_DIR}")
  message(FATAL_ERROR "no_qt_in_core: CORE_DIR is not a folder: ${CORE_DIR}")
endif()

file(GLOB_RECURSE sources LIST_DIRECTORIES false
  "${CORE_DIR}/*.h" "${CORE_DIR}/*.hh" "${CORE_DIR}/*.hpp" "${CORE_DIR}/*.hxx"
  "${CORE_DIR}/*.cpp" "${CORE_DIR}/*.cc" "${CORE_DIR}/*.cxx" "${CORE_DIR}/*.c"
  "${CORE_DIR}/*.inl" "${CORE_DIR}/*.ipp" "${CORE_DIR}/*.tpp")
file(GLOB_RECURSE cmake_files LIST_DIRECTORIES false
  "${CORE_DIR}/CMakeLists.txt" "${CORE_DIR}/*.cmake")
list(SORT sources)
list(SORT cmake_files)

# Source patterns; `#  include` with spaces counts too.
set(source_patterns
  "^[ \t]*#[ \t]*include[ \t]*[<\"]Q"   # <QString>, <QtCore/QObject>, "QVector"
  "Q_OBJECT|Q_GADGET|Q_PROPERTY|Q_SIGNALS|Q_SLOTS|Q_EMIT|Q_DECLARE_"
  "(^|[^A-Za-z0-9_])QString"
  "(^|[^A-Za-z0-9_])Qt::"
)
# CMake patterns: find_package(Qt...), Qt targets (Qt6::Core, Qt::Core), AUTOMOC & co.
set(cmake_patterns
  "find_package[ \t]*\\([ \t]*Qt"
  "(^|[^A-Za-z0-9_])Qt[0-9]*::"
  "qt[0-9]*_(add|wrap|standard)"
  "AUTOMOC|AUTOUIC|AUTORCC"
)

set(offences "")
set(offence_count 0)

# Appends "file:line: text" to `offences` in the caller for each line of `file` that matches one
# of `patterns`. Lines that are only a comment (`//`, `/*`, ` * ` in sources; `#` in CMake files)
# may talk about Qt and are skipped.
function(_gwb_scan file patterns)
  file(READ "${file}" text)
  # Split into lines by hand: keep empty lines (for the numbering), and hide `\`, `;`, `[` and
  # `]`, which CMake's list splitting would treat as escapes, separators or brackets.
  string(REPLACE "\\" "<gwb:bs>" text "${text}")
  string(REPLACE ";" "<gwb:semi>" text "${text}")
  string(REPLACE "[" "<gwb:lb>" text "${text}")
  string(REPLACE "]" "<gwb:rb>" text "${text}")
  string(REPLACE "\r\n" "\n" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(is_cmake FALSE)
  if(file MATCHES "(CMakeLists\\.txt|\\.cmake)$")
    set(is_cmake TRUE)
  endif()
  set(found "")
  set(count 0)
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    if(is_cmake AND line MATCHES "^[ \t]*#")
      continue()
    endif()
    if(NOT is_cmake AND line MATCHES "^[ \t]*(//|/\\*|\\*)")
      continue()
    endif()
    foreach(pattern IN LISTS patterns)
      if(line MATCHES "${pattern}")
        string(REPLACE "<gwb:bs>" "\\" shown "${line}")
        string(REPLACE "<gwb:semi>" ";" shown "${shown}")
        string(REPLACE "<gwb:lb>" "[" shown "${shown}")
        string(REPLACE "<gwb:rb>" "]" shown "${shown}")
        string(STRIP "${shown}" shown)
        string(APPEND found "  ${file}:${number}: ${shown}\n")
        math(EXPR count "${count} + 1")
        break()
      endif()
    endforeach()
  endforeach()
  set(offences "${offences}${found}" PARENT_SCOPE)
  math(EXPR total "${offence_count} + ${count}")
  set(offence_count ${total} PARENT_SCOPE)
endfunction()

foreach(file IN LISTS sources)
  _gwb_scan("${file}" "${source_patterns}")
endforeach()
foreach(file IN LISTS cmake_files)
  _gwb_scan("${file}" "${cmake_patterns}")
endforeach()

list(LENGTH sources n_sources)
list(LENGTH cmake_files n_cmake)
if(n_sources EQUAL 0)
  # A wrong CORE_DIR must not pass as "no Qt found".
  message(FATAL_ERROR "no_qt_in_core: no C++ sources under ${CORE_DIR}")
endif()
if(offence_count GREATER 0)
  message(FATAL_ERROR
    "core/ must not use Qt (gwb_core is plain C++17; Qt adapters belong in ui/). "
    "${offence_count} offending line(s):\n${offences}")
endif()
message(STATUS "no_qt_in_core: ${n_sources} sources and ${n_cmake} CMake files in ${CORE_DIR}: no Qt")
