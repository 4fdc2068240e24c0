"""Kernels on `@hls.struct` records (tests/frontend/test_structs.py)."""

from __future__ import annotations

import hls


@hls.struct
class Pixel:
    r: hls.uint5
    g: hls.uint6
    b: hls.uint5


@hls.struct
class Sample:
    tag: hls.int3
    wide: hls.ap_uint[100]
    gain: hls.ap_fixed[12, 4]
    taps: hls.int16[4]
    ok: hls.bool_


@hls.kernel
def unpack565(packed: hls.uint16[8], out: Pixel[8]):
    for i in range(8):
        v = packed[i]
        out[i].r = v[11:16]
        out[i].g = v[5:11]
        out[i].b = v[0:5]


@hls.kernel
def brightest(px: Pixel[8]) -> Pixel:
    best = Pixel(0, 0, 0)
    for i in range(8):
        if px[i].g > best.g:
            best = px[i]
    return best


@hls.kernel
def mix(s: Sample, xs: Sample[4]) -> hls.int32:
    """Struct argument, array fields, field arithmetic, a struct local copied and changed."""
    acc = hls.int32(0)
    local = s
    local.tag = local.tag + 5  # wraps in int3
    for i in range(4):
        xs[i].taps[i] = s.taps[i] * 3
        xs[i].tag = local.tag
        xs[i].ok = xs[i].wide[99]
        acc += xs[i].taps[3 - i] + local.taps[i]
    xs[0] = local
    xs[1].gain = s.gain * 2
    xs[2].wide += 1
    return acc


@hls.kernel
def swap_channels(px: Pixel[8]):
    tmp = hls.zeros((8,), Pixel)
    for i in range(8):
        tmp[i] = Pixel(b=px[i].r, r=px[i].b, g=px[i].g + 63)  # g wraps in 6 bits
    for i in range(8):
        px[i] = tmp[7 - i]


@hls.kernel
def brighten(inp: hls.stream[Pixel], out: hls.stream[Pixel], n: hls.int16):
    for _i in range(n):
        p = inp.read()
        p.g = min(p.g + 8, 63)
        out.write(p)


@hls.kernel
def to_stream(px: Pixel[8], out: hls.stream[Pixel]):
    for i in range(8):
        out.write(px[i])


@hls.kernel
def from_stream(inp: hls.stream[Pixel], px: Pixel[8]):
    for i in range(8):
        px[i] = inp.read()


@hls.kernel
def luma(p: Pixel) -> hls.uint8:
    return p.r * 2 + p.g + p.b * 2


@hls.kernel
def pixel_pipeline(px: Pixel[8], lum: hls.uint8[8]):
    """A dataflow region passing structs through FIFOs, and a sub-kernel taking a struct."""
    hls.dataflow()
    s1 = hls.stream(Pixel, depth=2)
    s2 = hls.stream(Pixel, depth=2)
    to_stream(px, s1)
    brighten(s1, s2, 8)
    from_stream(s2, px)
    for i in range(8):
        lum[i] = luma(px[i])


@hls.struct
class Frame:
    tag: hls.int3
    gain: hls.ap_fixed[12, 4]
    taps: hls.int16[2, 2]
    ok: hls.bool_
    level: hls.float32


@hls.struct
class Wide:
    big: hls.ap_uint[100]
    small: hls.int7


@hls.kernel
def frames(f: Frame, xs: Frame[4]) -> Frame:
    """A struct argument, array fields (2-D), fixed point, float and bool fields, a local struct with a
    100-bit field, struct copies and a struct result."""
    w = Wide()
    w.big = f.taps[0, 1]
    w.big = (w.big << 80) | xs[1].tag
    acc = f
    for i in range(4):
        xs[i].taps[i % 2, 1] += f.taps[1, i // 2] * 3
        xs[i].tag = acc.tag + i
        xs[i].ok = w.big[80 + i]
        acc.gain = acc.gain + xs[i].gain
        acc.level = acc.level * xs[i].level
        w.small += xs[i].taps[1, 0]
    xs[3] = acc
    acc.taps[1, 1] = w.small
    acc.ok = w.big[99]
    return acc


@hls.kernel
def packed_ports(px: Pixel[8], p: Pixel) -> hls.uint8:
    hls.aggregate(px, compact="bit")
    hls.disaggregate(p)
    total = hls.uint8(0)
    for i in range(8):
        total += px[i].r + p.b
    return total


@hls.struct
class Keywords:
    """Field names C++ reserves (`new`, `delete`, `int`) next to ones it allows (`class_`)."""

    new: hls.int16
    delete: hls.uint8
    class_: hls.int8
    int: hls.int16[2]


@hls.kernel
def keyword_fields(p: Keywords[4], out: Keywords[4]) -> Keywords:
    for i in range(4):
        cur = p[i]
        out[i].new = cur.new + 1
        out[i].delete = cur.delete
        out[i].class_ = cur.class_
        out[i].int[0] = cur.int[1]
        out[i].int[1] = cur.int[0]
    r = Keywords(new=p[0].new, delete=1, class_=2)
    r.int[0] = 3
    return r
