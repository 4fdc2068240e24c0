"""CRC-32 (IEEE 802.3, the polynomial zlib uses) over a byte array, one bit per step with bit access."""

import hls

POLY = 0xEDB88320  # the reflected polynomial


@hls.kernel
def crc32(data: hls.uint8[256]) -> hls.uint32:
    crc: hls.uint32 = 0xFFFFFFFF
    for i in range(256):
        byte = data[i]
        for b in range(8):
            feedback = crc[0] ^ byte[b]  # the next message bit, least significant first
            crc = crc >> 1
            if feedback:
                crc = crc ^ POLY
    return ~crc & 0xFFFFFFFF


KERNEL = crc32
