"""The operator library: latency (cycles), combinational delay (ns) and cost (DSP, FF, LUT) per core.

Two kinds of operators, as in Vitis:

* pipelined cores (floating point, DSP multipliers, dividers, memories) have a latency in cycles
  that grows as the clock period shrinks. Their numbers come from cores named in committed Vitis
  projects (`<op>_<widths>_<STAGES>_<impl>`, latency = STAGES - 1), listed in OBSERVATIONS with the
  part, clock and file. A query scales the nearest observation by clock and fabric:
  latency ~ observed_latency * observed_period / period * fabric_factor ratio (a fixed total delay cut
  into more stages at a faster clock). Cores no project showed at a usable clock have a REFERENCE
  value at UltraScale+ -2, 3.333 ns, marked inferred with its reasoning;
* fabric operators (adders, comparators, logic, multiplexers) have latency 0 and a delay in ns;
  the scheduler chains them inside one clock period minus the 27% clock uncertainty.

docs/oplib.md is the human-readable table; tests derive their expected II and latencies from here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from hls.defaults import CLOCK_UNCERTAINTY, DEFAULT_CLOCK_NS, DEFAULT_PART
from hls.schedule.parts import FpgaPart, detect_part, usable_period_ns

REFERENCE_CLOCK_NS = 3.333
REFERENCE_PART = "xcu250-figd2104-2L-e"


@dataclass(frozen=True)
class Observation:
    """Latencies (cycles) of cores in one committed Vitis project at one part and clock."""

    part: str
    clock_ns: float
    latencies: tuple[tuple[str, int], ...]
    source: str


OBSERVATIONS = (
    Observation("xcu250-figd2104-2L-e", 3.333, (("fadd", 6), ("fsub", 6), ("fmul", 3), ("fcmp", 1)),
                "bavlyshehata/ADMM_BP:alveo/_x.hw.xilinx_u250_gen3x16_xdma_4_1_202210_1/admm/krnl_bp/krnl_bp/"
                "solution/.autopilot/db/autopilot.rtl.models.tcl (Vitis 2022.2)"),
    Observation("xcu280-fsvh2892-2L-e", 3.333, (("fsqrt", 11), ("dadd", 7), ("dsub", 7), ("fpext", 1),
                                                ("fptrunc", 1), ("dcmp", 1)),
                "bavlyshehata/ADMM_BP:alveo/_x.hw_emu.xilinx_u280_gen3x16_xdma_1_202211_1/admm/krnl_bp/krnl_bp/"
                "solution/.autopilot/db/krnl_bp.compgen.tcl"),
    Observation("xcvu11p-flgb2104-1-e", 10.0, (("fadd", 2), ("fmul", 1)),
                "kangaroo-0000/systolic-array-hls:solution1/impl/misc/*_ip.tcl (VITIS_FACTS.md section 4)"),
    Observation("xcvu9p-flga2104-2-e", 5.0, (("fadd", 4),),
                "atlarge-research/FPGA_tutorials:101/02_fp_addition/README.md (VITIS_FACTS.md section 4)"),
    Observation("xcu280-fsvh2892-2L-e", 2.5, (("fmul", 5),),
                "cornell-zhang/allo-pldi24-artifact:polybench/allo/pnr/atax/out/solution1 (VITIS_FACTS.md 4)"),
    Observation("xazu7ev-fbvb900-1-i", 10.0, (("dadd", 4), ("dmul", 5), ("ddiv", 21), ("dcmp", 1),
                                              ("sitodp", 3)),
                "burakotlu/pFFT:PositFFT/hls/.autopilot/db/autopilot.rtl.models.tcl (VITIS_FACTS.md 4)"),
    Observation("xc7z020clg400-1", 10.0, (("fadd", 4), ("fmul", 3), ("fdiv", 15), ("fcmp", 1)),
                "xiongxiongz/hls_cluster_nms:solution1/.autopilot/db/nms_Pipeline_VITIS_LOOP_65_7.compgen.tcl"),
    Observation("xc7z020clg400-1", 10.0, (("fsin", 26), ("fcos", 26)),
                "level2fast/wes237c-hardware-for-embedded-systems:project-3/dft_256_baseline/dft_csynth.xml "
                "(instance sin_or_cos_float_s, latency 20 ~ 26: the worst case taken)"),
    Observation("xc7z020clg400-1", 5.0, (("fadd", 9), ("fmul", 7)),
                "b07901049/1111HLS_labC_DFT:DFT/opt1_pipeline/.autopilot/db/autopilot.rtl.models.tcl"),
    Observation("xc7vx690tffg1761-2", 10.0, (("fadd", 3), ("fmul", 2), ("dadd", 8), ("dmul", 7), ("fcmp", 1)),
                "LoreFiaschi/ArithmeticNonStandarNumbersLibrary:fpga/hls/ban_s3/solution1 (VITIS_FACTS.md 4)"),
    Observation("xc7k160t-fbg676-2", 4.0, (("mul_1dsp", 3),),
                "enzobelline/ELEN226:Assignment2/InnerProduct/solution2/.autopilot/db/inner_product.verbose.sched.rpt"),
    Observation("xcvu9p-flga2104-2-i", 4.0, (("mul_1dsp", 3),),
                "enzobelline/ELEN226:Perfect/proj_loop_perfect/solution1/syn/report/loop_perfect_csynth.rpt "
                "(mac_muladd_5ns_5s_12s_12_4_1, mul_mul_12s_13ns_26_4_1)"),
    Observation("xc7a200t-fbg484-2", 6.0, (("mul_ndsp", 2),),
                "Stepaka/Xilinx_lab:KP_502_7_v3/kp_502_7/sol2 (32x32 multiply; VITIS_FACTS.md 4)"),
)

# Latency at the reference point (UltraScale+ -2, 3.333 ns) of cores no observation covers nearby.
# Each is inferred from ratios between cores that one project shows at one clock, applied to a core
# observed at the reference point; docs/oplib.md gives each derivation.
REFERENCE = {
    "fdiv": 16,     # fdiv/fadd 8/3 (jichengzh/fpt_LLM) .. 15/4 (hls_cluster_nms) x fadd 6; low end (fsqrt is 11)
    "fexp": 14,     # fexp/fadd 7/3 in jichengzh/fpt_LLM baseline_f32 models file, x fadd 6
    "flog": 14,     # as fexp: BIND_OP gives flog and fexp the same latency ranges (VITIS_FACTS.md 1)
    "dmul": 9,      # dmul/dadd 5/4 (pFFT, xazu7ev at 10 ns) x dadd 7
    "ddiv": 37,     # ddiv/dadd 21/4 (pFFT) x dadd 7
    "dsqrt": 37,    # as ddiv (same digit-recurrence core family as fsqrt/fdiv)
    "sitofp": 5,    # sitodp/dadd 3/4 (pFFT) x dadd 7
    "fptosi": 5,    # as sitofp (same conversion core)
    "sitodp": 5,
    "dptosi": 5,
    "mul_1dsp": 2,  # 3 at 4 ns on xc7k160t-2: 3*4 / (3.333*1.74) = 2.07
    "mul_ndsp": 2,  # 2 at 6 ns on xc7a200t-2 (32x32): 2*6 / (3.333*1.74) = 2.07
}
# No project shows these at any clock: estimates without a source, listed as such in docs/oplib.md.
UNSOURCED = {"dexp": 28, "dlog": 28, "fsin": 24, "fcos": 24, "ftanh": 30, "dsin": 40, "dcos": 40, "dtanh": 50,
             "ffloor": 2, "dfloor": 2, "fpow": 30, "dpow": 60}

# Subtraction takes the adder's latency (fadd and fsub are both 6 at xcu250 in bavlyshehata/ADMM_BP,
# which even binds them to one faddfsub core); cosine is taken as the sine core (inferred).
SAME_CORE = {"fsub": "fadd", "dsub": "dadd", "fcos": "fsin", "dcos": "dsin"}

# DSP, FF, LUT per core. DSP counts of fadd (full_dsp) 2 and fmul (max_dsp) 3 are in the Bind Op Report
# of bavlyshehata/ADMM_BP (xcu250, csynth.rpt); the FF/LUT of fadd/fsub/faddfsub (205, 390) and fmul (143,
# 321) are the Instance rows of fadd_32ns_32ns_32_5_full_dsp_1 and fmul_32ns_32ns_32_4_max_dsp_1 in aahwu/
# AAHLS_labB (Vitis 2022.1) and level2fast DFT-256 (2023.1), both xc7z020 at 10 ns, taken for every part;
# the rest are estimates without a source (docs/oplib.md).
CORE_AREA = {
    "fadd": (2, 205, 390), "fsub": (2, 205, 390), "fmul": (3, 143, 321), "fdiv": (0, 800, 750),
    "fsqrt": (0, 500, 450), "fexp": (7, 500, 900), "flog": (4, 600, 1000), "fcmp": (0, 70, 70),
    "dadd": (3, 700, 700), "dsub": (3, 700, 700), "dmul": (10, 300, 200), "ddiv": (0, 3200, 3200),
    "dsqrt": (0, 1800, 1700), "dexp": (20, 1500, 3000), "dlog": (14, 1700, 3300), "dcmp": (0, 130, 130),
    "fpext": (0, 100, 50), "fptrunc": (0, 120, 130), "sitofp": (0, 250, 300), "fptosi": (0, 150, 250),
    "sitodp": (0, 300, 350), "dptosi": (0, 200, 300), "fsin": (10, 2000, 3000), "fcos": (10, 2000, 3000),
    "ftanh": (12, 2500, 4000), "dsin": (30, 5000, 8000), "dcos": (30, 5000, 8000), "dtanh": (40, 7000, 11000),
    "ffloor": (0, 60, 150), "dfloor": (0, 100, 300), "fpow": (15, 2500, 4500), "dpow": (40, 7000, 12000),
}
# Combinational delays on UltraScale+ -2 (ns), inferred: VITIS_FACTS.md section 4 reports 0.9-1.5 ns for
# 32-bit adds and compares in 7-series schedule reports; divided by the 7-series factor 1.74 this is
# about 0.7 ns on UltraScale+ for 32 bits, modelled as a carry chain growing with the width.
ADDER_BASE_NS, ADDER_PER_BIT_NS = 0.3, 0.0125
LUT_LEVEL_NS = 0.25
# Vitis's own delays in the verbose schedule reports (Vitis 2022.1): a RAM read's data arrives 0.66 ns into
# the next state on xcvu9p-2, 1.14 ns on xc7k160t-2 (ratio 1.73, the 7-series factor); a DSP48 multiply's
# first stage needs 0.99 ns (xcvu9p-2) and 1.54 ns (xc7k160t-2, /1.74 = 0.89) of its state. Sources:
# enzobelline/ELEN226 Perfect/.../solution1 and Assignment2/InnerProduct/solution3,4 *.verbose.sched.rpt.
MEMORY_READ_NS = 0.66
DSP_INPUT_NS = 0.89
# A multiply-accumulate on one DSP48 (Vitis's mac_muladd_*: A/B, M and P registers, p = m + c): the product
# reaches the post-adder from the M register one state before the core's last, and the post-adder with its
# C operand takes 0.645 ns of that state on xcvu9p-2 (1.49 ns on xc7k160t-2) before the P register.
# ELEN226 verbose.sched.rpt: `mul [3/3]..[1/3]` grouped with `add [2/2]..[1/2]` (root node of the DSP).
POST_ADD_NS = 0.645
# On 7-series and Zynq-7000 (DSP48E1), Vitis 2022.1 schedules no consumer of a DSP48's result in the DSP's
# last state except the register of a loop-carried value: a mul_mul_* result reaches an adder, a MAC's C port
# or a store one state later (ELEN226 xc7k160t/xc7k70t reports: InnerProduct solution3/4/5, mmul solution1-3,
# ImperfectLoop), where on xcvu9p the same cores feed the fabric in that state (Perfect solution1/2).
DSP48E1_OUTPUT_STATES = 1
# Area as Vitis's csynth report counts it (the Expression, Multiplexer and Register tables of the
# per-module csynth.rpt; docs/oplib.md section 8 names the reports): an adder of w bits w + 7 LUT, an
# integer compare w/2 + 7, a 2-input select w, one-bit logic 2; a multiplexer in front of a register
# 9 LUT for 2 inputs plus 4 per further input, whatever its width.
ADDER_LUT_EXTRA = 7
COMPARE_LUT_EXTRA = 7
MUX2_LUT, MUX_LUT_PER_INPUT = 9, 4
SCALE_TOLERANCE = 0.1
DSP48_MAX_LATENCY = 3
# A multiplier over several DSP48 tiles is an instance of Vitis's mul_<a>_<b>_<w>_2_1 module: 165 FF, 50 LUT
# in the Instance table (ShantonuM/wes237c_fa2026:proj1/fir128/q3_b/fir_csynth.rpt, mul_6s_32s_32_2_1, 2 DSP)
MULTI_DSP_FF, MULTI_DSP_LUT = 165, 50  # a scaled latency within 10% above an integer rounds down to it


@dataclass(frozen=True)
class OpCost:
    """One operator instance: timing for the scheduler, area for the estimate."""

    name: str
    latency: int
    delay_ns: float = 0.0
    dsp: int = 0
    ff: int = 0
    lut: int = 0
    shareable: bool = False  # a unit Vitis reuses across cycles (pipelined cores), not wiring
    # a pipelined operator's combinational part in its edge cycles: the delay its operands need before the
    # first register (a DSP48's input stage), or after which a memory's read data is there (clock-to-out)
    input_ns: float = 0.0
    output_ns: float = 0.0
    # states after the result before fabric logic may use it (a loop-carried register takes it at once)
    output_states: int = 0


def scale_latency(latency: int, from_clock: float, from_factor: float, to_clock: float, to_factor: float) -> int:
    """The same total delay cut into stages of another period on another fabric."""
    if latency <= 0:
        return 0
    stages = latency * (from_clock / from_factor) * (to_factor / to_clock)
    return max(1, math.ceil(stages - SCALE_TOLERANCE))


class OpLib:
    """Costs of operators for one part at one clock (27% of the period kept for clock uncertainty)."""

    def __init__(self, clock_ns: float = DEFAULT_CLOCK_NS, part: str = DEFAULT_PART,
                 uncertainty: float = CLOCK_UNCERTAINTY):
        self.clock_ns = float(clock_ns)
        self.part: FpgaPart = detect_part(part)
        self.uncertainty = uncertainty
        self.usable_ns = usable_period_ns(self.clock_ns, uncertainty)
        self._cache: dict[tuple, OpCost] = {}

    # ---- pipelined cores --------------------------------------------------------------------------

    def core_latency(self, name: str) -> int:
        """Latency of a named core ('fadd', 'dmul', 'mul_1dsp', ...) at this part and clock."""
        name = SAME_CORE.get(name, name)
        observation = self._nearby_observation(name)
        if observation is not None:
            latency, clock, factor = observation
        elif name in REFERENCE or name in UNSOURCED or _observed_at_reference(name) is not None:
            latency = _observed_at_reference(name) or REFERENCE.get(name) or UNSOURCED[name]
            clock, factor = REFERENCE_CLOCK_NS, detect_part(REFERENCE_PART).delay_factor
        else:
            raise KeyError(f"no latency known for core {name!r}")
        return scale_latency(latency, clock, factor, self.clock_ns, self.part.delay_factor)

    def _nearby_observation(self, name: str) -> tuple[int, float, float] | None:
        """An observation of `name` on this fabric within a factor 1.5 of this clock, nearest first."""
        best = None
        for obs in OBSERVATIONS:
            latency = dict(obs.latencies).get(name)
            if latency is None or detect_part(obs.part).fabric != self.part.fabric:
                continue
            distance = abs(math.log(obs.clock_ns / self.clock_ns))
            if distance <= math.log(1.5) and (best is None or distance < best[0]):
                best = (distance, latency, obs.clock_ns, detect_part(obs.part).delay_factor)
        return None if best is None else best[1:]

    def core(self, name: str) -> OpCost:
        key = ("core", name)
        if key not in self._cache:
            dsp, ff, lut = CORE_AREA.get(name, (0, 100, 100))
            self._cache[key] = OpCost(name, self.core_latency(name), 0.0, dsp, ff, lut, shareable=True)
        return self._cache[key]

    # ---- fabric operators -------------------------------------------------------------------------

    def _chained(self, name: str, delay_ns: float, ff: int, lut: int) -> OpCost:
        """A combinational operator; one longer than the usable period is registered into stages."""
        delay = delay_ns * self.part.delay_factor
        if delay <= self.usable_ns:
            return OpCost(name, 0, delay, 0, ff, lut)
        stages = math.ceil(delay / self.usable_ns)
        return OpCost(name, stages, 0.0, 0, ff + stages * 8, lut)

    def adder(self, width: int, name: str = "add", lut_width: int | None = None) -> OpCost:
        """`lut_width`: the bits the adder is built with when fewer than its type's (demanded bits);
        0 when a DSP48 post-adder absorbs it."""
        lut = width if lut_width is None else lut_width
        return self._chained(name, ADDER_BASE_NS + ADDER_PER_BIT_NS * width, 0, lut + ADDER_LUT_EXTRA if lut else 0)

    def comparator(self, width: int) -> OpCost:
        return self._chained("icmp", ADDER_BASE_NS + ADDER_PER_BIT_NS * width, 0, width // 2 + COMPARE_LUT_EXTRA)

    def logic(self, width: int, name: str = "logic") -> OpCost:
        return self._chained(name, LUT_LEVEL_NS, 0, max(2, width))

    def mux(self, width: int, inputs: int = 2) -> OpCost:
        levels = max(1, math.ceil(math.log(max(inputs, 2), 4)))
        lut = width if inputs <= 2 else width * (inputs - 1) // 2 + 1
        return self._chained("mux", LUT_LEVEL_NS * levels, 0, lut)

    def shifter(self, width: int) -> OpCost:
        levels = max(1, math.ceil(math.log2(max(width, 2)) / 2))
        return self._chained("shift", LUT_LEVEL_NS * levels, 0, width * levels)

    def scaled_ns(self, delay_ns: float) -> float:
        """A delay given on UltraScale+ -2, on this part."""
        return delay_ns * self.part.delay_factor

    def memory_read_ns(self) -> float:
        """When, into the cycle after a block-RAM read, its data is there."""
        return self.scaled_ns(MEMORY_READ_NS)

    def wire(self, name: str = "wire") -> OpCost:
        return OpCost(name, 0, 0.0)

    def multiplier(self, width_a: int, width_b: int, accumulated: bool = False, grouped: bool = False,
                   out_width: int | None = None) -> OpCost:
        """Small products in LUTs (both operands up to 8 bits, inferred), the rest on DSP48 tiles of 27x18
        (UltraScale+, Versal) or 25x18 (7-series, UltraScale): ceil(a/27) * ceil(b/18) tiles (a tiling
        estimate: Vitis may save a tile on truncated products or spend more on wide signed ones).
        `grouped`: the multiply of a one-tile MAC, whose last stage is its post-adder (`post_adder`).
        `out_width`: the product bits the design uses (`dsp_tiles`: a truncated product drops tiles)."""
        if out_width is not None:  # the low w bits of a product need only the low w bits of each operand
            width_a, width_b = min(width_a, out_width), min(width_b, out_width)
        wide, narrow = max(width_a, width_b), min(width_a, width_b)
        if wide <= 8 and not accumulated:  # accumulated: a MAC on one DSP48 tile (opcost._feeds_adder)
            return self._chained("mul", 0.4 + 0.1 * (wide + narrow), 0, wide * narrow)
        port_a = 27 if self.part.fabric in ("usplus", "versal") else 25
        tiles = dsp_tiles(wide, narrow, port_a, out_width)
        if tiles == 1:  # a DSP48 has three pipeline registers at most (A/B, M, P: UG479, UG579)
            latency = min(DSP48_MAX_LATENCY, self.core_latency("mul_1dsp"))
        else:
            latency = self.core_latency("mul_ndsp") + (1 if tiles > 4 else 0)
        if tiles == 1 and grouped and latency > 1:  # the P register belongs to the post-adder
            return OpCost("mul", latency - 1, 0.0, 1, 0, 0, shareable=True, input_ns=self.scaled_ns(DSP_INPUT_NS))
        if tiles == 1:  # registers inside the DSP48: the report's DSP row has no FF or LUT
            return OpCost("mul", latency, 0.0, 1, 0, 0, shareable=True, input_ns=self.scaled_ns(DSP_INPUT_NS),
                          output_states=self.dsp_output_states())
        if self.part.fabric != "versal":  # the csynth Instance row of a multi-DSP mul_*_2_1 module
            return OpCost("mul", latency, 0.0, tiles, MULTI_DSP_FF, MULTI_DSP_LUT, shareable=True)
        return OpCost("mul", latency, 0.0, tiles, 20 * tiles + wide, 10 * tiles, shareable=True)

    def post_adder(self, name: str = "add") -> OpCost:
        """The add or sub of a one-tile MAC: the DSP48's last stage, its C operand chained into it."""
        return OpCost(name, 1, 0.0, 0, 0, 0, input_ns=self.scaled_ns(POST_ADD_NS),
                      output_states=self.dsp_output_states())

    def dsp_output_states(self) -> int:
        return DSP48E1_OUTPUT_STATES if self.part.fabric == "7series" else 0

    def divider(self, width: int) -> OpCost:
        """Integer divide/remainder: a radix-2 core of width + 3 cycles (35 for 32 bits at 6 ns on
        xc7a200t-2, VITIS_FACTS.md section 4); one stage per bit, so not clock-scaled."""
        return OpCost("div", width + 3, 0.0, 0, width * (width + 3) // 2, width * width // 2 + 20, shareable=True)


_REFERENCE_OBSERVED: dict[str, int] = {}


def _observed_at_reference(name: str) -> int | None:
    """Latency observed on UltraScale+ at the reference clock (the ADMM_BP projects), if any."""
    if not _REFERENCE_OBSERVED:
        for obs in OBSERVATIONS:
            if obs.clock_ns == REFERENCE_CLOCK_NS and detect_part(obs.part).fabric == "usplus":
                _REFERENCE_OBSERVED.update(dict(obs.latencies))
    return _REFERENCE_OBSERVED.get(name)


def latency(name: str, *, clock_ns: float = DEFAULT_CLOCK_NS, part: str = DEFAULT_PART) -> int:
    """Latency in cycles of a named core at a clock and part: `latency("fadd")` is 6 at the defaults."""
    return OpLib(clock_ns, part).core_latency(name)


def mux_lut(inputs: int) -> int:
    """LUTs of a multiplexer in front of a register (a loop variable, the FSM's next state), as the
    Multiplexer table of a Vitis csynth report counts them."""
    return 0 if inputs < 2 else MUX2_LUT + MUX_LUT_PER_INPUT * (inputs - 2)


def dsp_tiles(wide: int, narrow: int, port_a: int, out_width: int | None = None) -> int:
    """DSP tiles of a wide x narrow multiply: ceil(a / port_a) * ceil(b / 18) for the whole product.
    When only the low `out_width` bits are used (`int32 = a * b`: LLVM's demanded bits), the operands
    split into unsigned chunks of port_a - 1 and 17 bits and a partial product whose shift is at or past
    out_width is never built (UG579 "wide multiplier" cascades; Vitis binds a 32x32 product kept at 32
    bits to 3 DSP48s, not 4: rhsuanwang loop-reorder mmult, 32 products on 105 DSPs)."""
    full = math.ceil(wide / port_a) * math.ceil(narrow / 18)
    if out_width is None or out_width >= wide + narrow or full == 1:
        return full
    chunk_a, chunk_b = port_a - 1, 17
    needed = sum(1 for i in range(math.ceil(wide / chunk_a)) for j in range(math.ceil(narrow / chunk_b))
                 if i * chunk_a + j * chunk_b < out_width)
    return max(1, min(full, needed))
