"""csim build and run speed, each against a baseline measured in the same run.

- cold build: `k.csim`'s library build of a never-seen kernel (the precompiled header already
  built) against a bare `g++ -O2 -shared -fPIC` of the same generated kernel .cpp with the same
  headers and no PCH; compiler CPU seconds (steady on a shared machine), wall time in the note.
- first build of a new cache: the library compiles without the PCH, which builds beside it, against the
  same bare g++ (wall time: what a new user waits for).
- run: the generated kernel against a hand-written C++ loop of the same computation, both compiled
  in one translation unit with the csim flags and timed inside C over many calls; and `k.csim`
  called from Python (argument checks, cffi) against the same hand-written loop.
- warm call overhead: `k.csim` of a tiny kernel against a raw cffi call of its library.

hls4ml's C simulation is not compared: building it needs a Keras or PyTorch model converted by
hls4ml, i.e. TensorFlow or PyTorch installed (GBs), which this bench does not pull in.
"""

from __future__ import annotations

import dataclasses
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from benchlib import cpu_and_wall, example, median_of, medians, private_cache, row, thread_cpu_of, wall_of

import hls
from hls.sim.build import MANIFEST, build_shared_library, load_library
from hls.sim.csim import CompiledKernel
from hls.sim.pch import wait_for_background
from hls.sim.toolchain import ap_include_dir, compiler, compiler_env


@hls.kernel
def gemm16(A: hls.int16[16, 16], B: hls.int16[16, 16], C: hls.int32[16, 16]):
    for i in range(16):
        for j in range(16):
            acc = hls.int32(0)
            for k in range(16):
                acc += A[i, k] * B[k, j]
            C[i, j] = acc


@hls.kernel
def add1(a: hls.int32) -> hls.int32:
    return a + 1


def fresh(design, n: int):
    """The design with a never-seen kernel source: a new cache key, same PCH."""
    return dataclasses.replace(design, kernel_cpp=design.kernel_cpp + f"// bench {time.time_ns()} {n}\n")


def bare_gxx(design, out: Path) -> list[str]:
    """argv of the baseline: the generated kernel .cpp alone, g++ -O2 -shared -fPIC, no PCH."""
    for name, text in design.sources.items():
        (out / name).write_text(text)
    return [*compiler(), "-std=c++14", "-O2", "-shared", "-fPIC", "-ffp-contract=off", "-fno-fast-math",
            "-Wno-unknown-pragmas", f"-I{ap_include_dir()}", f"-I{out}", str(out / f"{design.top}.cpp"),
            "-o", str(out / "bare.so")]


def pch_really_used(lib: Path) -> bool:
    """Re-run the library's compile with -H -fsyntax-only: g++ marks a used PCH with a leading '!'."""
    import json

    argv = json.loads((lib.parent / MANIFEST).read_text())["argv"]
    argv = argv[: argv.index("-o")] + ["-H", "-fsyntax-only"]
    proc = subprocess.run(argv, capture_output=True, text=True, env=compiler_env(), check=False)
    return proc.returncode == 0 and proc.stderr.startswith("! ") and "hls_pch.h.gch" in proc.stderr.splitlines()[0]


def build_rows(kernel, label: str, reps: int, first: bool) -> list[dict]:
    design = kernel.compile().design
    rows = []
    with tempfile.TemporaryDirectory(prefix="hls-bench-bare-") as tmp:
        argv = bare_gxx(design, Path(tmp))
        bare_cpu, bare_wall = medians(reps, lambda: cpu_and_wall(
            lambda: subprocess.run(argv, check=True, env=compiler_env())))
    if first:
        rows.append(first_build_row(design, label, bare_wall, reps))
    CompiledKernel(fresh(design, -100))  # the PCH of this cache, built beside a first library
    wait_for_background()
    counter = iter(range(10_000))
    cold_cpu, cold_wall = medians(reps, lambda: cpu_and_wall(lambda: CompiledKernel(fresh(design, next(counter)))))
    used = pch_really_used(CompiledKernel(fresh(design, next(counter))).path)
    rows.append(row(f"csim cold build {label}", cold_cpu, bare_cpu, "cpu s",
                    f"one TU on the PCH ({'used, checked with -H' if used else 'NOT USED'}); wall "
                    f"{cold_wall:.3f} s vs {bare_wall:.3f} s bare (ratio {cold_wall / bare_wall:.2f}); "
                    f"median of {reps}; hls4ml C-sim not compared (needs TensorFlow/PyTorch)",
                    target="<= 0.5"))
    return rows


def first_build_row(design, label: str, bare_wall: float, reps: int) -> dict:
    """A new user's first k.csim: a fresh cache each time, so the library compiles without the PCH while the
    PCH builds beside it (its CPU is counted separately; the next measurement waits for it)."""
    walls, pch_cpus = [], []
    for n in range(reps):
        with private_cache():
            walls.append(wall_of(lambda n=n: CompiledKernel(fresh(design, -1 - n))))
            pch_cpus.append(cpu_and_wall(wait_for_background)[0])
    first = statistics.median(walls)
    return row("csim first build, new cache", first, bare_wall, "s",
               f"{label}: wall time of the first library build in a fresh cache (the precompiled header builds "
               f"beside it at nice 10, {statistics.median(pch_cpus):.2f} cpu s more after it) vs a bare g++ -O2 "
               f"-shared of the same kernel .cpp; median of {reps}", target="<= 1.5")


GEMM_HAND = """
__attribute__((noinline)) static void hand(float A[64][64], float B[64][64], float C[64][64]) {
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++) {
            float acc = 0.0f;
            for (int k = 0; k < 64; k++) acc += A[i][k] * B[k][j];
            C[i][j] = acc;
        }
}
__attribute__((noinline)) static void generated(float A[64][64], float B[64][64], float C[64][64]) {
    gemm(A, B, C);
}
static float A[64][64], B[64][64], C[64][64];
static void init() {
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++) {
            A[i][j] = (float)((i * 7 + j) % 13 - 6);
            B[i][j] = (float)((i + 3 * j) % 5 - 2);
        }
}
#define CALL(f) f(A, B, C)
"""

CONV_HAND = """
__attribute__((noinline)) static void hand(int8_t img[18][18], int8_t w[3][3], int32_t out[16][16]) {
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) {
            int32_t acc = 0;
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) acc += img[r + i][c + j] * w[i][j];
            out[r][c] = acc;
        }
}
__attribute__((noinline)) static void generated(int8_t img[18][18], int8_t w[3][3], int32_t out[16][16]) {
    conv2d(img, w, out);
}
static int8_t A[18][18], B[3][3];
static int32_t C[16][16];
static void init() {
    for (int i = 0; i < 18; i++) for (int j = 0; j < 18; j++) A[i][j] = (int8_t)((i * 31 + j * 7) % 256 - 128);
    for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) B[i][j] = (int8_t)(i * 3 + j - 4);
}
#define CALL(f) f(A, B, C)
"""

TIMER = """
#include <time.h>
// Thread CPU time: other processes on a shared machine do not inflate it.
static double now() { timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
template <typename F> static double per_call(F f, int reps) {
    init();
    f();
    double t0 = now();
    for (int r = 0; r < reps; r++) { f(); __asm__ __volatile__("" ::: "memory"); }
    return (now() - t0) / reps;
}
extern "C" double time_generated(int reps) { return per_call([] { CALL(generated); }, reps); }
extern "C" double time_hand(int reps) { return per_call([] { CALL(hand); }, reps); }
"""


def run_rows(kernel, hand: str, label: str, reps: int) -> list[dict]:
    """Generated vs hand-written, one TU, csim flags; per-call seconds timed inside C."""
    design = kernel.compile().design
    harness = f'#include "{design.header_name}"\n#include <stdint.h>\n{hand}{TIMER}'
    lib = build_shared_library({f"{design.top}.cpp": design.kernel_cpp, design.header_name: design.header,
                                "harness.cpp": harness}, tag="bench")
    _, native = load_library(lib, "double time_generated(int reps); double time_hand(int reps);")
    calls = max(200, int(0.02 / max(native.time_hand(20), 1e-9)))  # about 20 ms of work per sample
    generated = median_of(reps, lambda: native.time_generated(calls))
    handmade = median_of(reps, lambda: native.time_hand(calls))
    args = kernel.random_inputs(0)
    kernel.csim(*args)
    python_call = median_of(reps * 20, lambda: thread_cpu_of(lambda: kernel.csim(*args)))
    return [
        row(f"csim kernel run {label} (in C)", generated * 1e6, handmade * 1e6, "us",
            f"generated C++ vs a hand-written loop, same TU and flags, thread CPU time in C over {calls} "
            f"calls (median of {reps})", target="<= 1.2"),
        row(f"k.csim call {label} (from Python)", python_call * 1e6, handmade * 1e6, "us",
            "k.csim per call (thread CPU time) incl. argument checks and cffi, vs the hand-written loop in C"),
    ]


def warm_rows(reps: int) -> list[dict]:
    add1.csim(1)
    compiled = add1._library(())  # the CompiledKernel k.csim uses
    ret = compiled.ffi.new("int32_t *")
    raw = median_of(reps, lambda: min(wall_of(lambda: compiled.lib.hls_bridge(5, ret)) for _ in range(200)))
    call = median_of(reps, lambda: min(wall_of(lambda: add1.csim(5)) for _ in range(200)))
    return [row("k.csim warm call overhead (tiny kernel)", call * 1e6, raw * 1e6, "us",
                "a repeated k.csim(5) of a scalar kernel vs the raw cffi call of its library (best of 200, "
                f"median of {reps})", target="< 1000 us")]


def run(quick: bool = False) -> list[dict]:
    reps = 3 if quick else 5
    with private_cache():
        rows = build_rows(gemm16, "gemm 16x16 int16", reps, first=True)
        rows += build_rows(example("matvec_fixed"), "matvec 8x8 ap_fixed", reps, first=False)
        rows += run_rows(example("gemm"), GEMM_HAND, "gemm 64x64 float32", reps)
        rows += run_rows(example("conv2d"), CONV_HAND, "conv2d 16x16 int8", reps)
        rows += warm_rows(reps)
    return rows


if __name__ == "__main__":
    for r in run(quick=True):
        print(r)
