"""Differential fuzzing of the whole pipeline: random kernels, golden model vs C simulation."""
