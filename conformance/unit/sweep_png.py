#!/usr/bin/python3
"""Check that a PNG screenshot is not trivial (conformance/unit/sweep_screenshot.sh).

  sweep_png.py FILE WIDTH HEIGHT [R,G,B]

Decodes the PNG with the standard library (zlib, the five scanline filters) and requires the
given size, at least 3% of pixels that are not background white, at least 50 colours, and
with R,G,B at least 20 pixels of about that colour (a chart's line colour: the charts were
drawn, not broken-image icons). A blank or error page fails. Prints what it measured."""

import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, ihdr = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    width, height, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG (depth {depth}, colour type {ctype}, interlace "
                         f"{interlace})")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    path, want_w, want_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    want_rgb = tuple(int(v) for v in sys.argv[4].split(",")) if len(sys.argv) > 4 else None
    w, h, bpp, rows = decode(path)
    near = 0
    colours = set()
    ink = 0
    total = 0
    for y in range(0, h, 2):
        line = rows[y]
        for x in range(0, w, 2):
            px = line[x * bpp:x * bpp + 3]
            colours.add(px)
            total += 1
            if px != b"\xff\xff\xff":
                ink += 1
            if want_rgb and sum(abs(px[i] - want_rgb[i]) for i in range(3)) < 60:
                near += 1
    share = ink / total
    print(f"{path}: {w}x{h}, {len(colours)} colours, {share * 100:.1f}% of pixels not white"
          + (f", {near} sampled pixels of about {want_rgb}" if want_rgb else ""))
    ok = (w, h) == (want_w, want_h) and share >= 0.03 and len(colours) >= 50
    if want_rgb and near < 20:
        ok = False
    if not ok:
        print("the screenshot looks blank or has the wrong size")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
