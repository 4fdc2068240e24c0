"""Python names that are C++ keywords, reserved names or names the generator uses itself."""

import hls


@hls.kernel
def new(char: hls.int32[8], delete: hls.int32[8], std: hls.int32):
    for int in range(8):  # noqa: A001
        auto = char[int] // std if std != 0 else 0
        double = auto % 3
        ap_int = double + 1
        hls_floordiv = ap_int * 2
        __x = hls_floordiv - 1
        _Y = __x + 1
        main = _Y
        v = main
        v_1 = v + 1
        delete[int] = v_1 - 1


@hls.kernel
def class_(register: hls.int16[4], volatile: hls.int16[4]) -> hls.int32:
    NULL = hls.int32(0)
    for errno in range(4):
        volatile[errno] = register[errno]
        NULL += register[errno]
    return NULL


@hls.kernel
def main(a: hls.int16[4], b: hls.int16[4]) -> hls.int32:
    return class_(a, b)
