"""A linear search with `break`: the index of the first element equal to `key`, -1 when absent.
The loop is pipelined; its trip count runs from 1 to 256 (the report shows min ~ max)."""

import hls


@hls.kernel
def search(data: hls.int16[256], key: hls.int16) -> hls.int32:
    found = hls.int32(-1)
    for i in range(256):
        hls.pipeline(ii=1)
        if data[i] == key:
            found = i
            break
    return found


KERNEL = search
