"""Histogram: the store address depends on the data (a read-modify-write on one memory)."""

import hls


@hls.kernel
def histogram(data: hls.uint8[512], hist: hls.int32[16]):
    for b in range(16):
        hist[b] = 0
    for i in range(512):
        bucket = data[i] >> 4
        hist[bucket] += 1


KERNEL = histogram
