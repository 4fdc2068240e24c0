"""Struct kernels that must be rejected. `# E` marks the line each error must point at."""

from __future__ import annotations

import hls
from tests.kernels.struct_kernels import Pixel


@hls.struct
class Gray:
    y: hls.uint8


@hls.kernel
def unknown_field_read(px: Pixel[4]) -> hls.uint8:
    return px[0].alpha  # E unknown_field_read


@hls.kernel
def unknown_field_write(px: Pixel[4]):
    for i in range(4):
        px[i].alpha = 1  # E unknown_field_write


@hls.kernel
def unknown_constructor_field(px: Pixel[4]):
    px[0] = Pixel(r=1, alpha=2)  # E unknown_constructor_field


@hls.kernel
def wrong_struct_store(px: Pixel[4], gray: Gray[4]):
    px[0] = gray[0]  # E wrong_struct_store


@hls.kernel
def wrong_struct_rebind(px: Pixel[4]):
    p = px[0]
    p = Gray(3)  # E wrong_struct_rebind
    px[1] = p


@hls.kernel
def scalar_into_struct(px: Pixel[4]):
    px[0] = 7  # E scalar_into_struct


@hls.kernel
def struct_arithmetic(px: Pixel[4]):
    p = px[0]
    px[1].r = p + 1  # E struct_arithmetic


@hls.kernel
def struct_element_arithmetic(px: Pixel[4]) -> hls.int32:
    return px[0] * 2  # E struct_element_arithmetic


@hls.kernel
def struct_compare(px: Pixel[4]) -> hls.bool_:
    return px[0] == px[1]  # E struct_compare


@hls.kernel
def wrong_struct_return(gray: Gray[4]) -> Pixel:
    return gray[0]  # E wrong_struct_return


@hls.kernel
def aggregate_scalar(a: hls.int32[4]):
    hls.aggregate(a)  # E aggregate_scalar
