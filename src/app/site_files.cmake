# Copies the preset files into the static site and writes presets/index.json listing them.
# Run with cmake -P: -DSITE_DIR=… -DMODEL_FILES=a.json|b.json -DDEVICE_FILES=… ('|'-separated,
# as cmake/embed_files.cmake, so each list stays one shell argument).
# The page fetches index.json, then each listed file (same origin, relative paths only).
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" MODEL_FILES "${MODEL_FILES}")
string(REPLACE "|" ";" DEVICE_FILES "${DEVICE_FILES}")

function(copy_group group files out_var)
  set(entries "")
  file(MAKE_DIRECTORY "${SITE_DIR}/presets/${group}")
  foreach(file IN LISTS files)
    get_filename_component(name "${file}" NAME)
    file(COPY_FILE "${file}" "${SITE_DIR}/presets/${group}/${name}" ONLY_IF_DIFFERENT)
    list(APPEND entries "\"${group}/${name}\"")
  endforeach()
  list(SORT entries)
  list(JOIN entries ",\n    " joined)
  set(${out_var} "${joined}" PARENT_SCOPE)
endfunction()

copy_group(models "${MODEL_FILES}" models_json)
copy_group(devices "${DEVICE_FILES}" devices_json)
file(WRITE "${SITE_DIR}/presets/index.json.tmp"
     "{\n  \"schema\": \"trainmem.presets-index/v1\",\n  \"models\": [\n    ${models_json}\n  ],\n  \"devices\": [\n    ${devices_json}\n  ]\n}\n")
file(COPY_FILE "${SITE_DIR}/presets/index.json.tmp" "${SITE_DIR}/presets/index.json" ONLY_IF_DIFFERENT)
file(REMOVE "${SITE_DIR}/presets/index.json.tmp")
