"""The golden model: calling a kernel runs it with the exact semantics of its declared types.

Python mode is the user's function rewritten by `rewrite.py` (the frontend's Conversion records
applied) and run on the runtime library: `runtime.py` (arrays, casts, statics), `streams.py` (FIFOs
and the dataflow scheduler), `bits.py` (bit semantics, also the IR's constant folding). The numpy
model runs independent loop nests as whole-array operations (`vplan.py` decides, `vexec.py` and
`vobject.py` execute); the compiled model runs the IR through numba (`jit.py`, `jitops.py`, `jitrun.py`).
This package's modules sit at different import layers (tests/top/test_architecture.py, docs/architecture.md):
keep this file free of imports.
"""
