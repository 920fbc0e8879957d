#!/usr/bin/python3
"""Builds the page's CJK font subsets from Debian's fonts-droid-fallback (TOOLCHAIN §7).

  make_cjk_subset.py FONT OUT_UI OUT_SWITCH SOURCE...

OUT_UI holds every character outside the Latin font (assets/fonts/make_subset.sh) that the
Chinese strings in SOURCE files use (string literals, C escapes decoded); the site serves it and
the page fetches it only when Chinese is shown. OUT_SWITCH holds only the language switch's
"中文", small enough to embed, so an English page can draw that label. Run by the build
(src/app/CMakeLists.txt) with Debian's python3-fonttools: /usr/bin/python3.
"""
import re
import sys

from fontTools import subset

# The Latin subset's ranges (assets/fonts/make_subset.sh): characters it already draws.
LATIN = [(0x20, 0x7E), (0xA0, 0xFF), (0x2013, 0x2014), (0x2022, 0x2022), (0x2026, 0x2026),
         (0x2190, 0x2193), (0x2197, 0x2197), (0x2212, 0x2212), (0x2248, 0x2248),
         (0x2260, 0x2260), (0x2264, 0x2265), (0x25A0, 0x25A0), (0x25B2, 0x25B2),
         (0x25B6, 0x25B6), (0x25BC, 0x25BC), (0x25C0, 0x25C0), (0x25CB, 0x25CB),
         (0x25CF, 0x25CF), (0x26A0, 0x26A0), (0x2713, 0x2713), (0x2717, 0x2717)]

LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def decode(literal):
    """A C string literal's bytes (\\xNN, \\n, \\", \\\\) as text."""
    out = bytearray()
    i = 0
    while i < len(literal):
        c = literal[i]
        if c == '\\' and i + 1 < len(literal):
            n = literal[i + 1]
            if n == 'x':
                out.append(int(literal[i + 2:i + 4], 16))
                i += 4
                continue
            out += {'n': b'\n', 't': b'\t'}.get(n, n.encode())
            i += 2
            continue
        out += c.encode('utf-8')
        i += 1
    return out.decode('utf-8', errors='ignore')


def needs_cjk(ch):
    code = ord(ch)
    return code >= 0x80 and not any(lo <= code <= hi for lo, hi in LATIN)


def build(font, chars, output):
    options = subset.Options()
    options.hinting = False
    options.layout_features = []
    options.drop_tables += ['GSUB', 'GPOS', 'GDEF', 'vhea', 'vmtx', 'name']
    loaded = subset.load_font(font, options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=''.join(sorted(chars)))
    subsetter.subset(loaded)
    subset.save_font(loaded, output, options)


def main():
    font, out_ui, out_switch = sys.argv[1:4]
    chars = set()
    for source in sys.argv[4:]:
        with open(source, encoding='utf-8') as f:
            for literal in LITERAL.findall(f.read()):
                chars.update(ch for ch in decode(literal) if needs_cjk(ch))
    build(font, chars, out_ui)
    build(font, set('中文'), out_switch)
    print(f'CJK subset: {len(chars)} characters -> {out_ui}')


if __name__ == '__main__':
    main()
