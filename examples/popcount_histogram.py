"""How many set bits each word has, counted into a histogram (0..32 set bits)."""

import hls


@hls.kernel
def popcount_histogram(words: hls.uint32[256], hist: hls.int32[33]):
    for b in range(33):
        hist[b] = 0
    for i in range(256):
        hist[words[i].bit_count()] += 1


KERNEL = popcount_histogram
