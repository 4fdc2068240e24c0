"""Kernels with while, break, continue and early return (tests/frontend/test_control.py)."""

import hls

LIMIT = 4


@hls.kernel
def find_first(a: hls.int16[32], key: hls.int16) -> hls.int32:
    found = hls.int32(-1)
    for i in range(32):
        if a[i] == key:
            found = i
            break
    return found


@hls.kernel
def find_return(a: hls.int16[32], key: hls.int16) -> hls.int32:
    for i in range(32):
        hls.pipeline(ii=1)
        if a[i] == key:
            return i
    return -1


@hls.kernel
def collatz(n: hls.uint16) -> hls.int32:
    x = hls.uint32(n)
    steps = hls.int32(0)
    while x > 1:
        hls.loop_tripcount(min=0, max=350)
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        steps += 1
    return steps


@hls.kernel
def gcd(a: hls.uint16, b: hls.uint16) -> hls.uint16:
    if a == 0:
        return b
    while b != 0:
        hls.loop_tripcount(min=1, max=65535)
        if a > b:
            a = a - b
        else:
            b = b - a
    return a


@hls.kernel
def sum_skipping(a: hls.int16[32]) -> hls.int32:
    total = hls.int32(0)
    for i in range(32):
        if a[i] < 0:
            continue
        if a[i] > 1000:
            continue
        total += a[i]
    return total


@hls.kernel
def magnitude(x: hls.int16) -> hls.int32:
    if x < 0:
        return -hls.int32(x)
    y = hls.int32(x) * 2
    return y


@hls.kernel
def row_lengths(a: hls.int8[4, 8], out: hls.int32[4]):
    for i in range(4):
        n = hls.int32(0)
        for j in range(8):
            if a[i, j] == 0:
                break
            n += 1
        out[i] = n


@hls.kernel
def bounded_scan(a: hls.int16[16], key: hls.int16) -> hls.int32:
    i = hls.int32(0)
    while i < 16 and a[i] != key:
        i += 1
    return i


@hls.kernel
def copy_until_negative(a: hls.int16[16], b: hls.int16[16]):
    for i in range(16):
        b[i] = 0
    for i in range(16):
        if a[i] < 0:
            return
        b[i] = a[i]


@hls.kernel
def while_break_continue(a: hls.int16[16]) -> hls.int32:
    i = hls.int32(0)
    total = hls.int32(0)
    while i < 16:
        hls.pipeline(ii=1)
        v = a[i]
        i += 1
        if v == 0:
            continue
        if v < -1000:
            break
        total += v
    return total


@hls.kernel
def unrolled_outer(a: hls.int8[4, 8], out: hls.int32[4]):
    for i in range(4):
        hls.unroll()
        n = hls.int32(0)
        for j in range(8):
            n += 1
            if a[i, j] < 0:
                break
        out[i] = n


@hls.kernel
def partial_unroll_break(a: hls.int16[32]) -> hls.int32:
    s = hls.int32(0)
    for i in range(32):
        hls.unroll(factor=4)
        if a[i] == 7:
            break
        s += a[i]
    return s


@hls.kernel
def store_after_break(a: hls.int16[8], b: hls.int16[8]):
    for i in range(8):
        b[i] = 1
        break
    for i in range(8):
        if i == 3:
            break
        b[7 - i] = a[i]


@hls.kernel
def counted_while(a: hls.int16[8]) -> hls.int32:
    i = hls.int32(1)
    s = hls.int32(0)
    while i <= 7:
        s += a[i]
        i += 2
    return s


@hls.kernel
def never_entered(a: hls.int16[8], n: hls.int32) -> hls.int32:
    s = hls.int32(a[0])
    while n > 100000:
        hls.loop_tripcount(min=0, max=4)
        n = n - 1
        s += 1
    return s


@hls.kernel
def uses_sub(a: hls.int16[32], key: hls.int16) -> hls.int32:
    at = find_first(a, key)
    if at < 0:
        return 0
    return at + 1


@hls.kernel
def find_2d(a: hls.int8[4, 4], key: hls.int8) -> hls.int32:
    for i in range(4):
        for j in range(4):
            if a[i, j] == key:
                return i * 4 + j
    return -1


@hls.kernel
def exit_folds_away(a: hls.int16[8]) -> hls.int32:
    s = hls.int32(0)
    for i in range(8):
        if LIMIT > 100:  # a module constant: the exit folds away
            break
        s += a[i]
    return s


@hls.kernel
def copy_until_large(a: hls.float32[64], b: hls.float32[64]):
    for i in range(64):
        hls.pipeline(ii=1)
        if a[i] * 2.0 > 100.0:
            break
        b[i] = a[i]



@hls.kernel
def log2_floor(x: hls.uint32) -> hls.int32:
    n = hls.int32(0)
    while x > 1:
        x = x // 2
        n += 1
    return n
