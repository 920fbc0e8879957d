#!/usr/bin/env bash
# Fails when a C++ file differs from .clang-format (Google style, 100 columns).
# Fix with: clang-format -i $(git ls-files '*.cpp' '*.h' '*.cc')
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files 'src/*.cpp' 'src/*.h' 'tests/*.cpp' 'tests/*.h' 'bench/*.cpp' 'bench/*.cc')
clang-format --dry-run --Werror $files
echo "format: $(echo "$files" | wc -l) files match .clang-format"
