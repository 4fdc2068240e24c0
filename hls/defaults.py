"""Defaults every stage shares, written once: the target part and clock, Vitis's clock uncertainty,
the `config_compile -pipeline_loops` threshold, and the tolerances float outputs are compared with.

The estimate (hls/schedule), the kernel object, the project export and the CLI import them from
here; the part and clock are what `Kernel.report()`, `Kernel.export()` and `hls report`/`hls export`
use when none is given.
"""

DEFAULT_PART = "xcu250-figd2104-2L-e"
DEFAULT_CLOCK_NS = 3.33
CLOCK_UNCERTAINTY = 0.27  # Vitis default for both flows (VITIS_FACTS.md section 2, default-config table)
PIPELINE_LOOPS = 64  # config_compile -pipeline_loops: loops with more iterations are pipelined (0 = off)
DEFAULT_RTOL = 1e-5  # float outputs: |csim - golden| <= atol + rtol * |golden| (verify and the testbench)
DEFAULT_ATOL = 1e-6
