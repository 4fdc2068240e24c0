"""Our own ap_axi_sdata.h (hls/sim/include), compiled with g++: member widths, absent side channels,
the accessors and the ap_axis/ap_axiu spellings, as UG1399 documents them."""

from __future__ import annotations

import subprocess

import pytest

from hls.sim.toolchain import ap_include_dir, compiler, own_include_dir

PROGRAM = r"""
#include <cstdio>
#include <type_traits>
#include "ap_axi_sdata.h"

typedef hls::axis<ap_int<32>, 0, 0, 0> p32;
typedef hls::axis<ap_uint<64>, 2, 5, 6> p64;
typedef hls::axis<ap_fixed<12, 4>, 0, 0, 0> pfx;
typedef hls::axis<float, 1, 0, 0> pf;
typedef hls::axis<ap_uint<1>, 0, 0, 0> pbit;

static_assert(std::is_same<decltype(p32::keep), ap_uint<4> >::value, "keep: one bit per data byte");
static_assert(std::is_same<decltype(p32::strb), ap_uint<4> >::value, "strb: one bit per data byte");
static_assert(std::is_same<decltype(p64::keep), ap_uint<8> >::value, "64-bit data: 8 mask bits");
static_assert(std::is_same<decltype(pfx::keep), ap_uint<2> >::value, "12 bits round up to 2 bytes");
static_assert(std::is_same<decltype(pf::keep), ap_uint<4> >::value, "float: 4 bytes");
static_assert(std::is_same<decltype(pbit::keep), ap_uint<1> >::value, "1 bit: one byte");
static_assert(std::is_same<decltype(p64::user), ap_uint<2> >::value, "user width U");
static_assert(std::is_same<decltype(p64::id), ap_uint<5> >::value, "id width TI");
static_assert(std::is_same<decltype(p64::dest), ap_uint<6> >::value, "dest width TD");
static_assert(std::is_same<decltype(p32::last), ap_uint<1> >::value, "last: one bit");
static_assert(std::is_empty<decltype(p32::user)>::value, "width 0: absent");
static_assert(std::is_same<ap_axis<32, 0, 0, 0>, p32>::value, "ap_axis is hls::axis of ap_int");
static_assert(std::is_same<ap_axiu<64, 2, 5, 6>, p64>::value, "ap_axiu is hls::axis of ap_uint");

int main() {
    p64 p;
    p.set_data(ap_uint<64>("0xFFFFFFFFFFFFFFFF", 16));
    p.set_keep(-1);
    p.set_strb(0x0F);
    p.set_user(7);  // wraps in 2 bits
    p.set_last(1);
    p.set_id(33);   // wraps in 5 bits
    p.set_dest(63);
    p64 q = p;      // a packet copies as a struct
    std::printf("%llu %d %d %d %d %d %d\n", (unsigned long long)q.get_data().to_uint64(), (int)q.get_keep(),
                (int)q.get_strb(), (int)q.get_user(), (int)q.get_last(), (int)q.get_id(), (int)q.get_dest());
    pfx f;
    f.data = 2.5;
    std::printf("%g\n", f.get_data().to_double());
    return 0;
}
"""


def build(tmp_path, source: str) -> subprocess.CompletedProcess:
    (tmp_path / "t.cpp").write_text(source)
    argv = [*compiler(), "-std=c++14", "-Wall", "-Wextra", "-Werror", "-I", str(own_include_dir()), "-isystem",
            str(ap_include_dir()), str(tmp_path / "t.cpp"), "-o", str(tmp_path / "t")]
    return subprocess.run(argv, capture_output=True, text=True)


def test_header_members_accessors_and_spellings(tmp_path):
    built = build(tmp_path, PROGRAM)
    assert built.returncode == 0, built.stderr
    run = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True)
    assert run.stdout.split("\n")[:2] == ["18446744073709551615 255 15 3 1 1 63", "2.5"]


@pytest.mark.parametrize("use", ["p.user = 1;", "p.id = 1;", "p.set_dest(1);"])
def test_an_absent_side_channel_does_not_compile(tmp_path, use):
    built = build(tmp_path, '#include "ap_axi_sdata.h"\nint main() { hls::axis<ap_int<8>, 0, 0, 0> p; '
                            f"{use} return 0; }}\n")
    assert built.returncode != 0
