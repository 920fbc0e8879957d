#!/usr/bin/env bash
# Installs everything trainmem needs to build and test on Debian 12, from Debian's apt and npm only.
# Idempotent: re-running skips what is already there. Dear ImGui comes from the Debian source
# package (see third_party/README.md); playwright-core from npm drives Debian's chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

apt_packages=(cmake g++ make emscripten libgtest-dev googletest libbenchmark-dev nlohmann-json3-dev
              chromium brotli xz-utils ca-certificates python3 clang-format
              fonts-droid-fallback python3-fonttools libtomlplusplus-dev libcli11-dev libfmt-dev
              clang)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Dear ImGui 1.86 sources from Debian's source package (no system apt changes: private lists).
IMGUI_DIR=third_party/imgui-1.86
if [ ! -f "$IMGUI_DIR/imgui.cpp" ]; then
  A=$PWD/third_party/.apt
  mkdir -p "$A/sources.list.d" "$A/lists/partial"
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$A/sources.list.d/src.sources"
  else
    grep -h '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' > "$A/sources.list.d/src.list"
  fi
  APT=(-o Dir::Etc::SourceParts="$A/sources.list.d" -o Dir::Etc::SourceList=/dev/null -o Dir::State::Lists="$A/lists")
  apt-get "${APT[@]}" update -qq
  (cd third_party && apt-get "${APT[@]}" source --download-only imgui=1.86+ds-1 2>&1 | grep -v unsandboxed || true)
  echo "0dace0e8e57d298eb6e93af12dc19420cb96330832f6495c733b90aeeef11f64  third_party/imgui_1.86+ds.orig.tar.xz" | sha256sum -c --quiet
  tar -xf third_party/imgui_1.86+ds.orig.tar.xz -C third_party
fi

# playwright-core (no browser download: it drives /usr/bin/chromium).
if [ ! -d tests/e2e/node_modules/playwright-core ]; then
  (cd tests/e2e && npm ci --no-audit --no-fund --silent 2>/dev/null || npm install --no-audit --no-fund --silent)
fi
echo "setup: ok"
