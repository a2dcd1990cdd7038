#!/usr/bin/env python3
"""Compares the IDAT size of RGBA8 PNG files with zlib level 6 and the best single filter.

For each file: the pixels are decoded by ffmpeg (an independent decoder), every row is filtered
with each of the five PNG filters in turn (None, Sub, Up, Average, Paeth: the same filter on
every row), the filtered rows are compressed with zlib level 6, and the smallest of the five is
the baseline. Prints one line per file and the totals: the file's IDAT bytes, the baseline's,
and their ratio.

Usage: scripts/png-baseline.py FILE.png...   (needs numpy and ffmpeg on PATH)
"""
import struct
import subprocess
import sys
import zlib

import numpy as np


def idat_size(path):
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', path
    pos, size, ihdr = 8, 0, None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        if kind == b'IHDR':
            ihdr = struct.unpack('>IIBBBBB', data[pos + 8:pos + 8 + n])
        if kind in (b'IDAT', b'fdAT'):
            size += n
        pos += 12 + n
    return ihdr[0], ihdr[1], size


def pixels(path, w, h):
    raw = subprocess.run(
        ['ffmpeg', '-v', 'error', '-i', path, '-f', 'rawvideo', '-pix_fmt', 'rgba', '-'],
        check=True, capture_output=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(h, 4 * w).astype(np.int16)


def filtered(x, kind):
    a = np.zeros_like(x); a[:, 4:] = x[:, :-4]
    b = np.zeros_like(x); b[1:, :] = x[:-1, :]
    c = np.zeros_like(x); c[1:, 4:] = x[:-1, :-4]
    if kind == 0: pred = np.zeros_like(x)
    elif kind == 1: pred = a
    elif kind == 2: pred = b
    elif kind == 3: pred = (a + b) // 2
    else:
        p = a + b - c
        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
        pred = np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))
    rows = ((x - pred) & 255).astype(np.uint8)
    tags = np.full((x.shape[0], 1), kind, np.uint8)
    return np.hstack([tags, rows]).tobytes()


total_ours = total_base = 0
for path in sys.argv[1:]:
    w, h, ours = idat_size(path)
    x = pixels(path, w, h)
    base = min(len(zlib.compress(filtered(x, k), 6)) for k in range(5))
    total_ours += ours
    total_base += base
    print(f'{path}: {w}x{h} IDAT {ours} B, zlib -6 best single filter {base} B, ratio {ours / base:.3f}')
print(f'total: IDAT {total_ours} B, baseline {total_base} B, ratio {total_ours / total_base:.3f}')
