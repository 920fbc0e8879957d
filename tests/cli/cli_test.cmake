# CLI behaviour a user sees, run by ctest with -DCLI=<trainmem> -DSOURCE_DIR=<repo>.
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

# The issue's "done means": template mode reproduces the seed's 16 / 16 / 64 GB.
run_cli(0 out estimate --model llama3-8b --set mode=template --json)
string(JSON params GET "${out}" per_device_bytes parameters)
string(JSON grads GET "${out}" per_device_bytes gradients)
string(JSON optim GET "${out}" per_device_bytes optimizer_states)
string(JSON schema GET "${out}" schema)
if(NOT params EQUAL 16000000000 OR NOT grads EQUAL 16000000000 OR NOT optim EQUAL 64000000000)
  message(FATAL_ERROR "seed table not reproduced: ${params} ${grads} ${optim}")
endif()
if(NOT schema STREQUAL "trainmem.estimate/v1")
  message(FATAL_ERROR "schema: ${schema}")
endif()

# The --json output echoes the resolved config, and that config reproduces the estimate.
string(JSON resolved GET "${out}" config)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/cli_resolved.json "${resolved}")
run_cli(0 again estimate ${CMAKE_CURRENT_BINARY_DIR}/cli_resolved.json --json)
string(JSON total1 GET "${out}" per_device_bytes total)
string(JSON total2 GET "${again}" per_device_bytes total)
if(NOT total1 EQUAL total2)
  message(FATAL_ERROR "re-estimating the echoed config changed the total: ${total1} vs ${total2}")
endif()

# Text, Markdown and CSV always carry units.
run_cli(0 out estimate --model llama3-8b --device ascend-910b --set tp=8 --set world_size=8)
expect_contains("${out}" "GiB" "text table")
expect_contains("${out}" " GiB usable (" "verdict")
expect_contains("${out}" "expected error: " "error band of the estimate's family")
run_cli(0 out estimate --model llama3-8b --markdown)
expect_contains("${out}" "| component | GiB | GB | share |" "markdown")
run_cli(0 out estimate --model llama3-8b --csv)
expect_contains("${out}" "stage,component,bytes,gib,gb" "csv")

# params: published totals (Llama 3 8B exactly; DeepSeek-V3 with its MTP layer, as on the hub).
run_cli(0 out params --model llama3-8b --json)
string(JSON total GET "${out}" total_params)
if(NOT total EQUAL 8030261248)
  message(FATAL_ERROR "llama3-8b total ${total}")
endif()
run_cli(0 out params --model deepseek-v3 --json)
string(JSON total GET "${out}" total_params)
if(NOT total EQUAL 684489845504)
  message(FATAL_ERROR "deepseek-v3 total ${total}")
endif()

# An HF config.json is a model.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/cli_hf.json [[{"model_type": "llama", "hidden_size": 4096,
  "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
  "intermediate_size": 14336, "vocab_size": 128256, "tie_word_embeddings": false}]])
run_cli(0 out params ${CMAKE_CURRENT_BINARY_DIR}/cli_hf.json --json)
string(JSON total GET "${out}" total_params)
if(NOT total EQUAL 8030261248)
  message(FATAL_ERROR "HF config count ${total}")
endif()

run_cli(0 out presets)
expect_contains("${out}" "llama3-8b" "presets")
expect_contains("${out}" "ascend-910b" "presets")

# Share links from the CLI, short and only non-default keys.
run_cli(0 out link --model llama3-8b --set tp=8 --set world_size=8 --base https://example.test/trainmem/)
expect_contains("${out}" "https://example.test/trainmem/#v1&" "link")
expect_contains("${out}" "tp=8" "link")

# Bad input: exit 2, the key named on stderr.
run_cli(2 out estimate --model llama3-8b --set tp=3 --set world_size=8)
expect_contains("${out}" "world_size 8 is not divisible by tp" "bad tp")
run_cli(2 out estimate --model no-such-model)
expect_contains("${out}" "model" "unknown model")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/cli_broken.json "{\"model\": \"llama3-8b\", ")
run_cli(2 out estimate ${CMAKE_CURRENT_BINARY_DIR}/cli_broken.json)
run_cli(2 out estimate --bogus-flag)
run_cli(2 out frobnicate)
message(STATUS "cli tests passed")

# import: the config on stdout, the report on stderr; --json wraps config + report.
set(IMPORT_DIR ${SOURCE_DIR}/tests/data/import)
execute_process(COMMAND ${CLI} import ${IMPORT_DIR}/megatron_llama_fp8.sh
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "import megatron: exit ${rc}\n${err}")
endif()
string(JSON tp GET "${out}" parallelism tensor_parallel_degree)
if(NOT tp EQUAL 2)
  message(FATAL_ERROR "import megatron: tp ${tp}")
endif()
expect_contains("${err}" "read (" "import report on stderr")
expect_contains("${err}" "ignored (" "import report on stderr")
run_cli(0 out import ${IMPORT_DIR}/tt_recipes_current.py --config llama3_70b_pp --json)
string(JSON lbs GET "${out}" config training local_batch_size)
string(JSON function GET "${out}" function)
if(NOT lbs EQUAL 8 OR NOT function STREQUAL "llama3_70b_pp")
  message(FATAL_ERROR "import --json: ${lbs} ${function}")
endif()
string(JSON nread LENGTH "${out}" read)
if(nread LESS 5)
  message(FATAL_ERROR "import --json: only ${nread} values read")
endif()
run_cli(2 out import ${IMPORT_DIR}/tt_recipes_current.py --config nope)
expect_contains("${out}" "no function 'nope'" "unknown recipe")
# --json prints one JSON object on stdout even when the file is refused.
execute_process(COMMAND ${CLI} import ${IMPORT_DIR}/bridge_bad_override.sh --json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "import --json of a refused file: exit ${rc}")
endif()
string(JSON valid GET "${out}" valid)
string(JSON message GET "${out}" errors 0 message)
if(valid OR NOT message MATCHES "model.tensor_model_parallel_size=abc")
  message(FATAL_ERROR "import --json of a refused file: ${out}")
endif()
# A Megatron-Bridge launch: train.sh with a hardware-named recipe.
run_cli(0 out import ${IMPORT_DIR}/bridge_train_sh_qwen3_30b_a3b.sh --json)
string(JSON ep GET "${out}" config parallelism expert_parallel_degree)
string(JSON ws GET "${out}" config world_size)
if(NOT ep EQUAL 16 OR NOT ws EQUAL 16)
  message(FATAL_ERROR "import train.sh: EP ${ep}, world ${ws}")
endif()

# estimate accepts the job files directly.
run_cli(0 out estimate ${IMPORT_DIR}/mindspeed_moe_A3.sh ${IMPORT_DIR}/model_args_moe.sh)
run_cli(0 out estimate ${IMPORT_DIR}/tt_llama3_8b_job.toml --json)
string(JSON ws GET "${out}" config world_size)
if(NOT ws EQUAL 32)
  message(FATAL_ERROR "estimate TOML: world_size ${ws}")
endif()

# export writes the fragment and says what does not map.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/cli_export.json
     [[{"model": "llama3.1-8b", "world_size": 8, "training": {"loss_chunks": 4}}]])
run_cli(0 out export ${CMAKE_CURRENT_BINARY_DIR}/cli_export.json --format toml)
expect_contains("${out}" "flavor = \"8B\"" "export toml")
expect_contains("${out}" "not mapped: training.loss_chunks" "export unmapped")
run_cli(0 out export ${CMAKE_CURRENT_BINARY_DIR}/cli_export.json --format megatron)
expect_contains("${out}" "--num-layers 32" "export megatron")
run_cli(2 out export ${CMAKE_CURRENT_BINARY_DIR}/cli_export.json --format yaml)

# The command line itself (CLI11): mistakes name the option, exit 2, and point at --help.
run_cli(2 out estimate --bogus-flag)
expect_contains("${out}" "unknown option '--bogus-flag'" "unknown option")
expect_contains("${out}" "trainmem estimate --help" "unknown option points at the help")
run_cli(2 out estimate --model)
expect_contains("${out}" "--model needs a value (ID)" "missing value names the option")
run_cli(2 out estimate --set)
expect_contains("${out}" "--set needs a value (KEY=VALUE)" "missing value names the option")
run_cli(2 out search --model llama3-8b --limit many)
expect_contains("${out}" "--limit takes a whole number, not 'many'" "non-numeric --limit")
run_cli(2 out estimate --model llama3-8b --set tp)
expect_contains("${out}" "--set expects key=value, got 'tp'" "--set without =")
run_cli(2 out estimate --model llama3-8b --json --csv)
expect_contains("${out}" "choose one of --json, --markdown and --csv" "two formats")
run_cli(2 out export ${CMAKE_CURRENT_BINARY_DIR}/cli_export.json extra.json --format toml)
expect_contains("${out}" "unexpected argument 'extra.json'" "export takes one config")
run_cli(2 out frobnicate)
expect_contains("${out}" "unknown command 'frobnicate'" "unknown command")
run_cli(2 out)
expect_contains("${out}" "estimate" "no command: the usage on stderr")

# --help: the commands, and one command's options with what they do.
run_cli(0 out --help)
foreach(command estimate params presets link search compare import export)
  expect_contains("${out}" "  ${command}" "trainmem --help lists ${command}")
endforeach()
run_cli(0 out estimate --help)
foreach(option --model --device --set --json --markdown --csv)
  expect_contains("${out}" "${option}" "trainmem estimate --help lists ${option}")
endforeach()
expect_contains("${out}" "override one config key" "options carry a description")
run_cli(0 out help compare)
expect_contains("${out}" "--append" "trainmem help compare")

# One value per --set: a FILE after it is still the config (world_size 32 from --set, the model
# from the file, whose world_size is 8), and '-' reads the config from standard input.
run_cli(0 out estimate --set world_size=32 ${CMAKE_CURRENT_BINARY_DIR}/cli_export.json --json)
string(JSON ws GET "${out}" config world_size)
string(JSON model GET "${out}" config model)
if(NOT ws EQUAL 32 OR NOT model STREQUAL "llama3.1-8b")
  message(FATAL_ERROR "--set before FILE: world_size ${ws}, model ${model}")
endif()
execute_process(COMMAND ${CLI} estimate - --set ws=16 --json
                INPUT_FILE ${CMAKE_CURRENT_BINARY_DIR}/cli_export.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "estimate - (stdin): exit ${rc}\n${err}")
endif()
string(JSON ws GET "${out}" config world_size)
string(JSON model GET "${out}" config model)
if(NOT ws EQUAL 16 OR NOT model STREQUAL "llama3.1-8b")
  message(FATAL_ERROR "estimate - (stdin): world_size ${ws}, model ${model}")
endif()

# A LLaMA-Factory YAML names its DeepSpeed JSON by a path from the repository root: the CLI finds
# it on disk (from the working directory, or above the YAML) and reads its offload setting.
set(lf ${CMAKE_CURRENT_BINARY_DIR}/cli_named_files)
file(REMOVE_RECURSE ${lf})
file(WRITE ${lf}/examples/deepspeed/ds_z3_offload_config.json
  "{\"zero_optimization\": {\"stage\": 3, \"offload_optimizer\": {\"device\": \"cpu\"}}, \"bf16\": {\"enabled\": \"auto\"}}\n")
file(WRITE ${lf}/examples/train_full/llama3_full_sft.yaml
  "model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct\nstage: sft\ndo_train: true\nfinetuning_type: full\n"
  "deepspeed: examples/deepspeed/ds_z3_offload_config.json\ncutoff_len: 1024\nper_device_train_batch_size: 1\nbf16: true\n")
execute_process(COMMAND ${CLI} import --json ${lf}/examples/train_full/llama3_full_sft.yaml
  RESULT_VARIABLE rc OUTPUT_VARIABLE report ERROR_VARIABLE err)
expect_contains("${err}" "read ${lf}/examples/deepspeed/ds_z3_offload_config.json (named by the job as examples/deepspeed/ds_z3_offload_config.json)" "named DeepSpeed JSON read from disk")
string(JSON stage GET "${report}" config parallelism zero_stage)
string(JSON offload GET "${report}" config optimizer offload)
if(NOT stage EQUAL 3 OR NOT offload STREQUAL "ON")
  message(FATAL_ERROR "the named JSON was not read: zero_stage ${stage}, offload ${offload}\n${out}")
endif()
