"""RGB565 <-> RGB888: packed 16-bit pixels unpacked into an array of structs and packed back.

`unpack` widens each 5- or 6-bit channel to 8 bits by repeating its top bits (0x1F -> 0xFF, so
white stays white); `pack` keeps each channel's top bits. The round trip gives back the input.
"""

import hls

N = 64


@hls.struct
class Pixel:
    r: hls.uint8
    g: hls.uint8
    b: hls.uint8


@hls.kernel
def unpack(packed: hls.uint16[N], pixels: Pixel[N]):
    for i in range(N):
        hls.pipeline(ii=1)
        word = packed[i]
        pixels[i] = Pixel(r=hls.concat(word[11:16], word[13:16]),
                          g=hls.concat(word[5:11], word[9:11]),
                          b=hls.concat(word[0:5], word[2:5]))


@hls.kernel
def pack(pixels: Pixel[N], packed: hls.uint16[N]):
    for i in range(N):
        hls.pipeline(ii=1)
        p = pixels[i]
        packed[i] = hls.concat(p.r[3:8], p.g[2:8], p.b[3:8])


@hls.kernel
def rgb565(src: hls.uint16[N], pixels: Pixel[N], dst: hls.uint16[N]):
    unpack(src, pixels)
    pack(pixels, dst)


KERNEL = rgb565
