# Two rules of core's includes, checked as a CTest test:
#   cmake -DCORE_DIR=<source>/core -P tests/core_include_rules.cmake
# 1. No include loop between core's modules. A module is a concept: gwb/<domain>/<name>.h with
#    its core/src/<domain>/<name>.cpp (and a private core/src/<domain>/<name>.h). Module A uses
#    module B when a file of A includes B's header; a loop is a set of modules that use each other
#    in a circle. The one loop allowed is inherent to Dynamic Syntax: formulas hold record types
#    and record types hold formulas (ds/formula, ds/record_type).
# 2. Eigen is included in one place only, gwb/common/eigen.h, which sets the project's options.
# Fails listing every loop (its modules) and every offending file:line.
cmake_minimum_required(VERSION 3.22)

if(NOT DEFINED CORE_DIR OR NOT IS_DIRECTORY "${CORE_DIR}")
  message(FATAL_ERROR "core_include_rules: pass -DCORE_DIR=<path to core/>")
endif()
set(allowed_loop "ds/formula;ds/record_type")
set(eigen_home "include/gwb/common/eigen.h")

file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE "${CORE_DIR}"
  "${CORE_DIR}/include/*.h" "${CORE_DIR}/src/*.h" "${CORE_DIR}/src/*.cpp")
list(SORT files)

# The module of a file, relative to CORE_DIR.
function(module_of file out)
  string(REGEX REPLACE "^include/gwb/" "" m "${file}")
  string(REGEX REPLACE "^src/" "" m "${m}")
  string(REGEX REPLACE "\\.(h|cpp)$" "" m "${m}")
  set(${out} "${m}" PARENT_SCOPE)
endfunction()

set(modules "")
set(problems "")
foreach(file ${files})
  module_of("${file}" from)
  list(APPEND modules "${from}")
  string(MAKE_C_IDENTIFIER "${from}" fromId)
  file(STRINGS "${CORE_DIR}/${file}" lines REGEX "^[ \t]*#[ \t]*include")
  foreach(line ${lines})
    if(line MATCHES "include[ \t]*\"(gwb/)?([a-z_]+/[a-z0-9_]+)\\.h\"")
      set(to "${CMAKE_MATCH_2}")
      if(NOT to STREQUAL from)
        list(APPEND uses_${fromId} "${to}")
      endif()
    endif()
    if(line MATCHES "include[ \t]*<(Eigen|unsupported/Eigen)/" AND NOT file STREQUAL eigen_home)
      list(APPEND problems "core/${file}: includes Eigen directly: ${line} (include \"gwb/common/eigen.h\")")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES modules)

# The modules reachable from each module (breadth first).
foreach(m ${modules})
  string(MAKE_C_IDENTIFIER "${m}" id)
  set(seen "")
  set(queue ${uses_${id}})
  while(queue)
    list(POP_FRONT queue next)
    if(next IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${next}")
    string(MAKE_C_IDENTIFIER "${next}" nextId)
    list(APPEND queue ${uses_${nextId}})
  endwhile()
  set(reach_${id} "${seen}")
endforeach()

# Loops: the modules that reach a module and are reached from it.
set(reported "")
foreach(m ${modules})
  string(MAKE_C_IDENTIFIER "${m}" id)
  if(NOT m IN_LIST reach_${id} OR m IN_LIST reported)
    continue()
  endif()
  set(loop "${m}")
  foreach(other ${reach_${id}})
    string(MAKE_C_IDENTIFIER "${other}" otherId)
    if(NOT other STREQUAL m AND m IN_LIST reach_${otherId})
      list(APPEND loop "${other}")
    endif()
  endforeach()
  list(SORT loop)
  list(APPEND reported ${loop})
  if(NOT loop STREQUAL allowed_loop)
    string(REPLACE ";" " <-> " text "${loop}")
    list(APPEND problems "include loop between modules: ${text}")
  endif()
endforeach()

if(problems)
  list(LENGTH problems count)
  string(REPLACE ";" "\n" text "${problems}")
  message(FATAL_ERROR "core_include_rules: ${count} problem(s):\n${text}")
endif()
list(LENGTH modules moduleCount)
message(STATUS "core_include_rules: ${moduleCount} modules, no include loop but ${allowed_loop}; Eigen only in ${eigen_home}")
