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

# Sources from Debian source packages, for libraries Debian ships no build of that the WASM
# build can link (no system apt changes: private lists). See third_party/README.md.
#   fetch_source PACKAGE=VERSION ORIG_TARBALL SHA256 DIR_IN_TARBALL TARGET_DIR
fetch_source() {
  local pkg=$1 orig=$2 sum=$3 from=$4 to=$5
  [ -d "third_party/$to" ] && return 0
  local A=$PWD/third_party/.apt
  if [ ! -f "$A/.updated" ]; then
    mkdir -p "$A/sources.list.d" "$A/lists/partial"
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
      sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$A/sources.list.d/src.sources"
    else
      grep -h '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' > "$A/sources.list.d/src.list"
    fi
    apt-get "${APT[@]}" update -qq
    touch "$A/.updated"
  fi
  [ -f "third_party/$orig" ] ||
    (cd third_party && apt-get "${APT[@]}" source --download-only "$pkg" 2>&1 | grep -v unsandboxed || true)
  echo "$sum  third_party/$orig" | sha256sum -c --quiet
  rm -rf "third_party/.unpack" && mkdir -p "third_party/.unpack"
  tar -xf "third_party/$orig" -C third_party/.unpack
  mv "third_party/.unpack/$from" "third_party/$to"
  rm -rf third_party/.unpack
}
A=$PWD/third_party/.apt
APT=(-o Dir::Etc::SourceParts="$A/sources.list.d" -o Dir::Etc::SourceList=/dev/null -o Dir::State::Lists="$A/lists")
# Dear ImGui 1.86 (the page's interface).
fetch_source imgui=1.86+ds-1 imgui_1.86+ds.orig.tar.xz \
  0dace0e8e57d298eb6e93af12dc19420cb96330832f6495c733b90aeeef11f64 imgui-1.86 imgui-1.86
# yaml-cpp 0.7.0 (MindSpeed-LLM's FSDP2 YAML job files; Debian's libyaml-cpp-dev is native only).
fetch_source yaml-cpp=0.7.0+dfsg-8 yaml-cpp_0.7.0+dfsg.orig.tar.xz \
  dc63708605404e0b963e0ca3a9619d1c8270eda2839603e6fa0384e5e51e5312 yaml-cpp-yaml-cpp-0.7.0 yaml-cpp-0.7.0

# playwright-core (no browser download: it drives /usr/bin/chromium).
if [ ! -d tests/e2e/node_modules/playwright-core ]; then
  (cd tests/e2e && npm ci --no-audit --no-fund --silent 2>/dev/null || npm install --no-audit --no-fund --silent)
fi
echo "setup: ok"
