// A reader for launch scripts — never a shell. It follows what a Megatron/MindSpeed launch
// script does to build its argument list: variable assignments (with ${VAR:-default},
// ${VAR:=default}, $((arithmetic)), positional defaults ${1:-x}), arrays (NAME=( … ) over many
// lines with comments inside, NAME+=( … )), double-quoted multi-line strings with
// backslash-newline continuations, `export`/`declare`, `if`/`elif`/`else` on [ … ] / [[ … ]]
// tests (evaluated with the script's own defaults; unset variables are empty, files are assumed
// to exist — the path a plain run takes, and each decision is reported), and `source FILE` of a
// file given alongside. Commands are never run: $( … ) and `…` are left unexpanded, loops and
// function bodies are skipped. Linear in the input, with bounded nesting.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/import/import.h"

namespace trainmem::bash {

struct Word {
  std::string text;
  int line = 0;
  std::string file;
};

struct Note {
  std::string file;
  int line = 0;
  std::string message;
};

struct Variable {
  std::string value;               // scalar (arrays: elements joined by spaces)
  std::vector<std::string> items;  // array elements
  bool is_array = false;
  int line = 0;
  std::string file;
  // In the environment of the commands the script runs: `export NAME[=…]`, `declare -x`, or an
  // assignment before a command on its line (`NPROC_PER_NODE=8 swift sft …`, for that command).
  bool exported = false;
};

struct Script {
  bool found_launch = false;  // a command running a .py file (or a Megatron launcher)
  std::string launcher;       // the words before the script, as one string
  std::string program;        // "pretrain_gpt.py"
  std::vector<Word> args;     // the words after it
  int launch_line = 0;
  std::string launch_file;
  std::map<std::string, Variable> variables;
  // The variables as they stood when the launch line ran: a later command's prefix
  // assignment (`NPROC_PER_NODE=1 swift infer …` after the training) does not change them.
  std::map<std::string, Variable> launch_variables;
  std::vector<Note> notes;  // decisions (if branches, defaults used, skipped blocks)
  std::vector<std::string> missing_sources;  // `source` of files not given
  // Files the script writes from here-documents (`cat > ds_config.json <<EOF`), expanded.
  std::vector<InputFile> written_files;
  std::string error;  // fatal: nesting too deep
};

// Reads `main`; `others` may hold files it sources (matched by base name).
Script ReadScript(const InputFile& main, const std::vector<InputFile>& others);

}  // namespace trainmem::bash
