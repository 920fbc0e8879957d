# trainmem_embed_files(<output.cpp> <Symbol> <comment> <file>...)
# Generates <output.cpp> defining `std::vector<std::pair<std::string, std::string>> Symbol()`
# with (path relative to the source root, contents) for each file, via embed_files.cmake.
function(trainmem_embed_files output symbol comment)
  set(files ${ARGN})
  string(REPLACE ";" "|" file_list "${files}")  # one argument for cmake -P
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DROOT=${CMAKE_SOURCE_DIR}
            "-DFILES=${file_list}" -DSYMBOL=${symbol}
            -P ${CMAKE_SOURCE_DIR}/cmake/embed_files.cmake
    DEPENDS ${files} ${CMAKE_SOURCE_DIR}/cmake/embed_files.cmake
    COMMENT "${comment}" VERBATIM)
endfunction()
