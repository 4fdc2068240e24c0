"""AXI-stream packet kernels that must be rejected. `# E` marks the line each error must point at."""

from __future__ import annotations

import hls

Word = hls.axis[hls.int32]


@hls.kernel
def absent_user(inp: hls.stream[Word]) -> hls.uint8:
    p = inp.read()
    return p.user  # E absent_user


@hls.kernel
def absent_dest_write(inp: hls.stream[Word], out: hls.stream[Word]):
    p = inp.read()
    p.dest = 3  # E absent_dest_write
    out.write(p)


@hls.kernel
def absent_id_built(out: hls.stream[Word]):
    out.write(Word(data=1, id=2))  # E absent_id_built


@hls.kernel
def packet_argument(p: Word) -> hls.int32:  # E packet_argument
    return p.data


@hls.kernel
def packet_result(inp: hls.stream[Word]) -> Word:  # E packet_result
    return inp.read()


@hls.kernel
def packet_array(inp: hls.stream[Word]) -> hls.int32:
    buf = hls.zeros((4,), Word)  # E packet_array
    return buf[0].data


@hls.kernel
def wrong_packet_write(out: hls.stream[Word]):
    out.write(hls.axis[hls.int16](data=1, last=1))  # E wrong_packet_write


@hls.kernel
def array_data(inp: hls.stream[hls.axis[hls.int8[4]]]) -> hls.int8:  # E array_data
    return inp.read().data
