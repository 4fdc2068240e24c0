"""IR snapshots of three examples after the default passes. Each line was checked by hand against
the typing rules of docs/semantics.md (e.g. int16 * int16 -> int32, int32 + int32 -> int33, a positive
literal n needs bit_length(n) + 1 bits, the loop counter of range(15, 0, -1) holds 0..15 in int5)."""

import textwrap

from tests.conftest import ROOT, load_example

EXPECTED = {
    "dot": """
        func @dot(%a: int16[128], %b: int16[128]) -> int32 {
          %v = hls.const 0 : int1
          %acc = hls.const 0 : int32
          %v_1 = hls.const 128 : int9
          %v_2 = hls.const 1 : int2
          %acc_1 = hls.for %i in range(%v, %v_1, %v_2) iter_args(%acc_2 = %acc) {label="loop_i", pipeline={ii=1}} {
            %v_3 = hls.load %a, %i : int16
            %v_4 = hls.load %b, %i : int16
            %v_5 = hls.binary {kind="mul"} %v_3, %v_4 : int32
            %v_6 = hls.binary {kind="add"} %acc_2, %v_5 : int33
            %acc_3 = hls.cast %v_6 : int32
            hls.yield %acc_3
          }
          hls.return %acc_1
        }
    """,
    "histogram": """
        func @histogram(%data: uint8[512], %hist: int32[16]) {
          %v = hls.const 16 : int6
          %v_1 = hls.const 0 : int1
          %v_2 = hls.const 1 : int2
          %v_3 = hls.const 512 : int11
          %v_4 = hls.const 0 : int32
          %v_5 = hls.const 4 : int4
          hls.for %b in range(%v_1, %v, %v_2) {label="loop_b"} {
            hls.store %v_4, %hist, %b
            hls.yield
          }
          hls.for %i in range(%v_1, %v_3, %v_2) {label="loop_i"} {
            %v_6 = hls.load %data, %i : uint8
            %bucket = hls.binary {kind="shr"} %v_6, %v_5 : uint8
            %v_7 = hls.load %hist, %bucket : int32
            %v_8 = hls.binary {kind="add"} %v_7, %v_2 : int33
            %v_9 = hls.cast %v_8 : int32
            hls.store %v_9, %hist, %bucket
            hls.yield
          }
          hls.return
        }
    """,
    "fir": """
        func @fir(%x: float32[256], %y: float32[256]) {
          %v = hls.const 256 : int10
          %v_1 = hls.const 0 : int1
          %v_2 = hls.const 1 : int2
          %v_3 = hls.const 15 : int5
          %v_4 = hls.const -1 : int1
          %acc = hls.const 0.0 : float32
          %v_5 = hls.const 16 : int6
          %TAPS = hls.rom <float32[16]> : float32[16]
          %shift = hls.alloc : float32[16]
          hls.directive {kind="array_partition", options={dim=1, type="complete"}} %shift
          hls.for %n in range(%v_1, %v, %v_2) {label="loop_n", pipeline={ii=1}} {
            hls.for %k in range(%v_3, %v_1, %v_4) {label="loop_k"} {
              %v_6 = hls.binary {kind="sub"} %k, %v_2 : int6
              %v_7 = hls.load %shift, %v_6 : float32
              hls.store %v_7, %shift, %k
              hls.yield
            }
            %v_8 = hls.load %x, %n : float32
            hls.store %v_8, %shift, %v_1
            %acc_1 = hls.for %t in range(%v_1, %v_5, %v_2) iter_args(%acc_2 = %acc) {label="loop_t"} {
              %v_9 = hls.load %shift, %t : float32
              %v_10 = hls.load %TAPS, %t : float32
              %v_11 = hls.binary {kind="mul"} %v_9, %v_10 : float32
              %acc_3 = hls.binary {kind="add"} %acc_2, %v_11 : float32
              hls.yield %acc_3
            }
            hls.store %acc_1, %y, %n
            hls.yield
          }
          hls.return
        }
    """,
}


def test_ir_snapshots():
    for name, expected in EXPECTED.items():
        kernel = load_example(ROOT / "examples" / f"{name}.py").KERNEL
        assert kernel.ir == textwrap.dedent(expected).strip() + "\n", name
