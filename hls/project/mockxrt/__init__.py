"""This project's own mock of XRT (package data, copied into every Vitis-flow export under host/sim/).

`xrt/xrt_device.h`, `xrt/xrt_kernel.h`, `xrt/xrt_bo.h`: header-only C++17 with the names of XRT's native
API that the generated host program uses; `pyxrt.py`: the same for the Python host. A kernel name resolves,
through the mock "xclbin" (a text file `make host-sim` writes), to the csim build of that kernel (a shared
library holding the kernel and its cffi bridge), and `run` calls it in process. Nothing here is Xilinx code.
"""
