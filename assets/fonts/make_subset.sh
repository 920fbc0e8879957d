#!/usr/bin/env bash
# Regenerates the UI font subsets from Debian's fonts-dejavu-core (needs python3-fonttools).
# Only the glyphs the UI uses are kept: Latin-1 plus a few symbols (→ × ≤ ≈ ✓ ✗ ▲ ▼ ⚠ …),
# so each subset is about 18 kB instead of 760 kB. Keep the ranges in sync with
# kGlyphRanges in src/app/fonts.cpp. Chinese will be a separate subset merged in (TOOLCHAIN §7).
set -euo pipefail
cd "$(dirname "$0")"
ranges="U+0020-007E,U+00A0-00FF,U+2013-2014,U+2022,U+2026,U+2190-2193,U+2197,U+2212,U+2248,U+2260,U+2264-2265,U+25A0,U+25B2,U+25B6,U+25BC,U+25C0,U+25CB,U+25CF,U+26A0,U+2713,U+2717"
for weight in "" "-Bold"; do
  /usr/bin/python3 -m fontTools.subset "/usr/share/fonts/truetype/dejavu/DejaVuSans${weight}.ttf" \
    --unicodes="$ranges" --output-file="DejaVuSans${weight}-ui.ttf" \
    --no-hinting --layout-features='' --drop-tables+=GSUB,GPOS,GDEF,vhea,vmtx
done
