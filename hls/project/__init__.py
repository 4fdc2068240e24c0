"""The project stage, after the backend and sim: writes a Vitis HLS project from plain data (the
emitted design, the golden vectors, the estimate); it never calls the kernel (hls/kernel.py does)."""
