# The main window under Xvfb with each view populated: renders one PNG per view into OUT_DIR
# and checks that each was written at 1280x800. Skipped (SKIPPED: ...) without xvfb-run.
#   cmake -DGUI=path/to/grammar-workbench -DSAMPLES=samples -DOUT_DIR=dir -P screenshots.cmake
# Look at the images: this test proves they were made, not that they read well.
find_program(XVFB_RUN xvfb-run)
if(NOT XVFB_RUN)
  message("SKIPPED: xvfb-run not found (Debian package xvfb)")
  return()
endif()
file(REMOVE_RECURSE "${OUT_DIR}")
file(MAKE_DIRECTORY "${OUT_DIR}")

# name|arguments for grammar-workbench, separated by commas (no file: the default workspace)
set(cases
  "stepper|--select,2:1"
  "tree|${SAMPLES}/pp-attachment.cfg,--view,tree"
  "grammar|${SAMPLES}/optional-words.cfg"
  "corpus|${SAMPLES}/pp-attachment.cfg,${SAMPLES}/pp-attachment.txt"
  "stepper-end|${SAMPLES}/pp-attachment.cfg,--view,stepper,--step,end,--select,7:4"
  "agenda|${SAMPLES}/pp-attachment.cfg,--view,stepper,--agenda,30,--agenda-strategy,complete-first"
  "ccg|--view,ccg,--ccg-lexicon,${SAMPLES}/ccg/geography.flex,--ccg-sentence,what are the major cities in ohio,--ccg-step,cell:2-5"
  "fubl|--view,fubl,--fubl-passes,3,--fubl-model,${OUT_DIR}/geography.ccgmodel,--run,--fubl-page,lexicon"
  "help|--view,help"
  "shortcuts|--view,shortcuts")
set(failures "")
foreach(case IN LISTS cases)
  string(FIND "${case}" "|" bar)
  string(SUBSTRING "${case}" 0 ${bar} name)
  math(EXPR start "${bar} + 1")
  string(SUBSTRING "${case}" ${start} -1 arguments)
  string(REPLACE "," ";" parts "${arguments}")
  set(out "${OUT_DIR}/${name}.png")
  file(REMOVE "${out}")
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=xcb
            ${XVFB_RUN} -a -s "-screen 0 1280x800x24" "${GUI}" --screenshot "${out}" ${parts}
    RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output TIMEOUT 180)
  if(NOT status EQUAL 0 OR NOT EXISTS "${out}")
    string(APPEND failures "${name}: grammar-workbench exited with ${status}: ${output}\n")
    continue()
  endif()
  # PNG: 8-byte signature, then the IHDR chunk with width and height (big-endian).
  file(READ "${out}" header LIMIT 24 HEX)
  string(SUBSTRING "${header}" 0 16 signature)
  string(SUBSTRING "${header}" 32 16 size)
  if(NOT signature STREQUAL "89504e470d0a1a0a")
    string(APPEND failures "${name}: ${out} is not a PNG\n")
  elseif(NOT size STREQUAL "0000050000000320")
    string(APPEND failures "${name}: ${out} is not 1280x800 (IHDR size ${size})\n")
  else()
    message(STATUS "${name}: ${out}")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "${failures}")
endif()
