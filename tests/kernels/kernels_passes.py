"""Small kernels for the pass tests (a module of its own so inspect.getsource finds them)."""

import hls


@hls.kernel
def fold_arith(a: hls.int32) -> hls.int32:
    k = 3 * 4 + 1
    return a + k


@hls.kernel
def fold_float(a: hls.float32) -> hls.float32:
    return a + hls.float32(0.1) * 3.0


@hls.kernel
def fold_branch(a: hls.int16) -> hls.int16:
    y = a
    if a * 0 == 0:  # constant only after folding (a literal `2 > 1` is decided by the frontend)
        y = a * 1 + 0
    else:
        y = a - 1
    return y if a * 0 != 0 else y * 0


@hls.kernel
def fold_keeps(a: hls.int8) -> hls.int64:
    wrapped = hls.int8(200)
    one = 1  # a kernel local: zero only once folded (a divisor zero at compile time is an error at its line)
    return 7 // (one - one) + wrapped + (a << 3) + hls.int32(-2.7)


@hls.kernel
def cse_index(a: hls.int32[16], b: hls.int32[16]):
    for i in range(15):
        b[i] = a[i + 1] + a[i + 1] * 2
        for j in range(2):
            b[i + 1] = b[i + 1] + j


@hls.kernel
def dce_dead(a: hls.int16[8]) -> hls.int32:
    unused = a[0] * 3  # noqa: F841 (dead on purpose)
    acc = hls.int32(0)
    count = hls.int32(0)
    for i in range(8):
        tmp = a[i] + 1
        acc += a[i]
        count += 1
        if tmp > 100:
            pass
    for j in range(0):
        acc += j
    return acc


@hls.kernel
def unroll_full(a: hls.int16[4]) -> hls.int32:
    acc = hls.int32(0)
    for i in range(4):
        hls.unroll()
        acc += a[i]
    return acc


@hls.kernel
def unroll_partial(a: hls.int16[10], b: hls.int32[10]) -> hls.int32:
    acc = hls.int32(0)
    for i in range(10):
        hls.unroll(factor=4)
        b[i] = a[i] + i
        acc += a[i]
    return acc


@hls.kernel
def unroll_nested(a: hls.int16[3, 4], b: hls.int32[3]):
    for i in range(3):
        hls.unroll()
        s = hls.int32(0)
        for j in range(4):
            s += a[i, j]
        b[i] = s


@hls.kernel
def unroll_triangle(a: hls.int32[4, 4]):
    for i in range(4):
        hls.unroll()
        for j in range(i + 1):
            hls.unroll()
            a[i, j] = a[j, i] + 1


@hls.kernel
def unroll_var(a: hls.int32[16], n: hls.uint4):
    for i in range(n):
        hls.unroll(factor=2)
        a[i] = i


@hls.kernel
def unroll_down(a: hls.int16[10]) -> hls.int32:
    acc = hls.int32(0)
    for i in range(9, -1, -2):
        hls.unroll(factor=2)
        if a[i] > 0:
            acc += a[i]
        else:
            acc -= i
    return acc


@hls.kernel
def const_if(a: hls.int16[8], mode: hls.int32) -> hls.int32:
    acc = hls.int32(0)
    for i in range(8):
        hls.unroll()
        if i % 2 == 0:
            acc += a[i]
        elif mode > 0:
            acc -= a[i]
    return acc


@hls.kernel
def fir4(x: hls.int16[32], y: hls.int32[32]):
    taps = hls.zeros((4,), hls.int16)
    for t in range(4):
        hls.unroll()
        taps[t] = t + 1
    for n in range(3, 32):
        acc = hls.int32(0)
        for t in range(4):
            hls.unroll()
            acc += taps[t] * x[n - t]
        y[n] = acc


@hls.kernel
def unroll_small(a: hls.int8[5]) -> hls.int16:
    acc = hls.int16(0)
    for i in range(5):
        hls.unroll(factor=2)
        acc += a[i]
    return acc
