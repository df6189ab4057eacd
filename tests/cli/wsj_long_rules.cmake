# gwb parse with a WSJ grammar of ../shared whose longest rules have 90 symbols (issue 13: a
# 32-bit mask once broke every rule longer than 32, and UBSan fired on these grammars), on
# sentences of the WSJ treebank that such a rule spans whole. Each sentence must parse with a
# finite log probability; under ASan + UBSan (CI stage 2) any memory or undefined-behaviour
# error fails the test. The sentences are the yields of trees of the shared treebank, made here
# at test time (shared data never enters the repository).
#   cmake -DGWB=... -DGRAMMAR=... -DTREEBANK=... -DTREES=97,423 -DWORK=... -P wsj_long_rules.cmake
#   (TREES: 0-based line numbers of the treebank, one tree a line)
foreach(var GWB GRAMMAR TREEBANK TREES WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "wsj_long_rules.cmake: -D${var}= is missing")
  endif()
endforeach()

string(REPLACE "," ";" TREES "${TREES}")
# One tree a line; the sentence is its leaves, without the empty elements (-NONE-).
file(STRINGS "${TREEBANK}" trees)
set(sentences "")
foreach(index IN LISTS TREES)
  list(GET trees ${index} tree)
  # A ';' (a word of the treebank) would split CMake's lists: it travels as <semicolon>.
  string(REPLACE ";" "<semicolon>" tree "${tree}")
  string(REGEX MATCHALL "\\([^() ]+ [^() ]+\\)" leaves "${tree}")
  set(sentence "")
  foreach(leaf IN LISTS leaves)
    string(REGEX REPLACE "^\\(([^() ]+) ([^() ]+)\\)$" "\\1" tag "${leaf}")
    string(REGEX REPLACE "^\\(([^() ]+) ([^() ]+)\\)$" "\\2" word "${leaf}")
    if(NOT tag STREQUAL "-NONE-")
      string(APPEND sentence " ${word}")
    endif()
  endforeach()
  string(STRIP "${sentence}" sentence)
  string(APPEND sentences "${sentence}\n")
endforeach()
string(REPLACE "<semicolon>" ";" sentences "${sentences}")
file(MAKE_DIRECTORY "${WORK}")
set(input "${WORK}/wsj-long-rules.txt")
file(WRITE "${input}" "${sentences}")

execute_process(COMMAND "${GWB}" parse -g "${GRAMMAR}" --root ROOT -i "${input}" -q
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "gwb parse exited ${status}")
endif()
# One row a sentence: index, words, log prob, ..., "ok"; a failed parse says "no parse".
list(LENGTH TREES expected)
string(REGEX MATCHALL "\n[0-9]+\t[0-9]+\t-[0-9][^\n]*\tok" parsed "\n${out}")
list(LENGTH parsed count)
if(NOT count EQUAL expected OR out MATCHES "inf|nan|no parse")
  message(FATAL_ERROR "expected ${expected} sentence(s) parsed with a finite log probability")
endif()
message("wsj long rules: ${count} sentence(s) parsed")
