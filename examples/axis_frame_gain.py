"""AXI4-Stream packets with side channels: a frame of samples arrives as `hls.axis` packets, TLAST on
its final beat and an 8-bit TUSER tag on each; every beat is scaled and forwarded with its tag and
TLAST, and the frame's sum is returned. The kernel reads until TLAST, as AXI4-Stream frames are
delimited, so one call handles a frame of any length (Vitis: hls::axis<T, 8, 0, 0> ports, ap_axi_sdata.h)."""

import hls

Sample = hls.axis[hls.int16, 8, 0, 0]
Scaled = hls.axis[hls.int32, 8, 0, 0]


@hls.kernel
def axis_frame_gain(inp: hls.stream[Sample], out: hls.stream[Scaled], gain: hls.int16) -> hls.int32:
    total = hls.int32(0)
    last = False
    while not last:
        hls.pipeline(ii=1)
        hls.loop_tripcount(min=1, max=64)
        p = inp.read()
        y = hls.int32(p.data * gain)
        total += y
        out.write(Scaled(data=y, user=p.user, last=p.last))
        last = p.last == 1
    return total


KERNEL = axis_frame_gain
