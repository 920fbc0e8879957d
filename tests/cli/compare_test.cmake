# `trainmem compare` behaviour a user sees, run by ctest with -DCLI=<trainmem> -DSOURCE_DIR=<repo>.
cmake_minimum_required(VERSION 3.20)

function(run_cli expected_rc out_var)
  execute_process(COMMAND ${CLI} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL expected_rc)
    message(FATAL_ERROR "trainmem ${ARGN}: exit ${rc}, expected ${expected_rc}\nstdout: ${out}\nstderr: ${err}")
  endif()
  set(${out_var} "${out}${err}" PARENT_SCOPE)
endfunction()

function(expect_contains text needle what)
  string(FIND "${text}" "${needle}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "${what}: expected to find '${needle}' in:\n${text}")
  endif()
endfunction()

set(D ${SOURCE_DIR}/tests/data/compare)

# Megatron, one line per rank: max allocated is rank 0's 40211.52 MiB = 42164834796 B
# (40211.52 × 2^20 = 42164834795.52), compared with stage 0 (rank 0 / (8 / 4)).
run_cli(0 out compare ${D}/megatron_tp2_pp4.json ${D}/megatron_tp2_pp4.log --json)
string(JSON schema GET "${out}" schema)
if(NOT schema STREQUAL "trainmem.compare/v1")
  message(FATAL_ERROR "schema: ${schema}")
endif()
string(JSON metric GET "${out}" measured 1 metric)
string(JSON peak GET "${out}" measured 1 peak_bytes)
string(JSON rank GET "${out}" measured 1 rank)
string(JSON stage GET "${out}" measured 1 stage)
string(JSON ranks LENGTH "${out}" measured 1 per_rank)
if(NOT metric STREQUAL "max_allocated" OR NOT peak EQUAL 42164834796 OR NOT rank EQUAL 0
   OR NOT stage EQUAL 0 OR NOT ranks EQUAL 4)
  message(FATAL_ERROR "megatron: ${metric} ${peak} rank ${rank} stage ${stage} ranks ${ranks}")
endif()
string(JSON stage6 GET "${out}" measured 1 per_rank 3 stage)
if(NOT stage6 EQUAL 3)
  message(FATAL_ERROR "rank 6 should be stage 3, got ${stage6}")
endif()

# torchtitan: the largest step line, 72.82 GiB = 78189879624 B; the cut last line is reported.
run_cli(0 out compare ${D}/llama3_8b_fsdp8.json ${D}/torchtitan_llama3_8b.log)
expect_contains("${out}" "72.82 GiB" "torchtitan text")
expect_contains("${out}" "reserved" "torchtitan text")
expect_contains("${out}" "measured" "torchtitan sentence")
run_cli(0 out compare ${D}/llama3_8b_fsdp8.json ${D}/torchtitan_llama3_8b.log --json)
string(JSON peak GET "${out}" measured 0 peak_bytes)
string(JSON skipped GET "${out}" skipped_count)
if(NOT peak EQUAL 78189879624)
  message(FATAL_ERROR "torchtitan peak ${peak}")
endif()

# A profile gives components: activations at the timeline's peak are 20 GiB + 128 KiB input.
run_cli(0 out compare ${D}/llama3_8b_fsdp8.json ${D}/memory_timeline.json --json)
string(JSON name GET "${out}" components 3 component)
string(JSON act GET "${out}" components 3 measured_bytes)
if(NOT name STREQUAL "activations" OR NOT act EQUAL 21474967552)
  message(FATAL_ERROR "timeline activations: ${name} ${act}")
endif()

# The allocator snapshot: reserved 22 MiB; a pickle that would run code is refused, by name.
run_cli(0 out compare ${D}/llama3_8b_fsdp8.json ${D}/snapshot_p4.pickle --json)
string(JSON reserved GET "${out}" snapshot reserved_bytes)
if(NOT reserved EQUAL 23068672)
  message(FATAL_ERROR "snapshot reserved ${reserved}")
endif()
run_cli(2 out compare ${D}/llama3_8b_fsdp8.json ${D}/refused_reduce.pickle)
expect_contains("${out}" "STACK_GLOBAL at byte 45" "refused pickle")

# Inputs that hold no figure, and missing arguments, are errors naming the file.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/compare_empty.log "nothing to see\n")
run_cli(2 out compare ${D}/llama3_8b_fsdp8.json ${CMAKE_CURRENT_BINARY_DIR}/compare_empty.log)
expect_contains("${out}" "compare_empty.log" "no figure")
expect_contains("${out}" "no memory figure found" "no figure")
run_cli(2 out compare ${D}/llama3_8b_fsdp8.json)
expect_contains("${out}" "at least one log" "no log")

# --append writes one calibration row (the format of tests/data/calibration.jsonl).
set(CAL ${CMAKE_CURRENT_BINARY_DIR}/compare_calibration.jsonl)
file(REMOVE ${CAL})
run_cli(0 out compare ${D}/llama3_8b_fsdp8.json ${D}/torchtitan_llama3_8b.log --append ${CAL} --id my-run)
run_cli(0 out compare ${D}/megatron_tp2_pp4.json ${D}/megatron_tp2_pp4.log --append ${CAL})
# One row per line; semicolons inside the JSON strings would split a CMake list, so they are
# swapped for commas before the rows become list items.
file(READ ${CAL} text)
string(REPLACE ";" "," text "${text}")
string(STRIP "${text}" text)
string(REPLACE "\n" ";" rows "${text}")
list(LENGTH rows n)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "expected 2 calibration rows, got ${n}")
endif()
list(GET rows 0 row)
string(JSON id GET "${row}" id)
string(JSON metric GET "${row}" measured metric)
string(JSON gib GET "${row}" measured peak_gib)
string(JSON bytes GET "${row}" measured peak_bytes)
# CMake's JSON reader prints 72.82 as 72.819999…: compare the leading digits.
string(REGEX MATCH "^72\\.8(2|19)" gib "${gib}")
string(JSON model GET "${row}" config model)
if(NOT id STREQUAL "my-run" OR NOT metric STREQUAL "reserved" OR gib STREQUAL ""
   OR NOT bytes EQUAL 78189879624
   OR NOT model STREQUAL "llama3-8b")
  message(FATAL_ERROR "calibration row (${id} ${metric} ${gib} ${model}): ${row}")
endif()
list(GET rows 1 row)
string(JSON id GET "${row}" id)
if(NOT id STREQUAL "compare-megatron_tp2_pp4")
  message(FATAL_ERROR "default id: ${id}")
endif()
# The appended config reproduces the estimate it was compared with.
string(JSON config GET "${row}" config)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/compare_row_config.json "${config}")
run_cli(0 out estimate ${CMAKE_CURRENT_BINARY_DIR}/compare_row_config.json --json)
