#!/usr/bin/env bash
# Installs what is needed, builds the static site (build/web-release/site) and serves it on
# http://127.0.0.1:${PORT:-8000}/ . Ctrl-C stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
bash scripts/setup.sh
cmake --preset web-release >/dev/null
cmake --build --preset web-release --target trainmem_app
PORT=${PORT:-8000}
echo "trainmem: serving build/web-release/site at http://127.0.0.1:${PORT}/"
exec python3 -m http.server "$PORT" --bind 127.0.0.1 --directory build/web-release/site
