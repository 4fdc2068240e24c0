"""The C++ backend: the IR written as the Vitis HLS C++ a reader expects (render.py ties it together)."""
