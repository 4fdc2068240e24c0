"""The MLIR backend: the IR as MLIR text (emit.py; scf, arith and memref dialects, xdsl-verifiable)."""
