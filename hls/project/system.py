"""The files of an hls.System export (issue 26): every kernel's sources and mock-XRT entry, one link.cfg,
one host program driving them all, the golden vectors per kernel (tb/data/<kernel>/), one Makefile."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from hls.backend.cpp.render import render_template
from hls.project.export import (
    CSIM_INCLUDE,
    DATA_DIR,
    ExportSettings,
    GoldenVectors,
    flag_groups,
    kernel_data,
    prepare_root,
    write_files,
)
from hls.project.host import host_data, kernel_files, mock_files
from hls.sim.toolchain import own_headers, own_include_dir


def render_system(name: str, designs: dict[str, Any], vectors: dict[str, GoldenVectors], free: list[str],
                  link_cfg: str, links: list[Any], settings: ExportSettings) -> dict[str, str]:
    files: dict[str, str] = {}
    kernels = []
    for top, design in designs.items():
        ports, rets, data = kernel_data(design, vectors[top])
        common = {"top": top, "rets": rets, "streams": design.streams}
        files.update({f"src/{top}.cpp": design.kernel_cpp, f"src/{design.header_name}": design.header})
        files.update({f"{DATA_DIR}/{top}/{n}": text for n, text in data.items()})
        files.update(kernel_files(design, common))
        info = host_data(design, rets)
        kernels.append({"top": top, "prefix": f"{top}/", "label": f"{top}.", "free": top in free,
                        "host_ports": info["host_ports"], "host_rets": info["host_rets"]})
    streams = any(d.streams for d in designs.values())
    common = {"top": name, "data_dir": DATA_DIR, "rtol": repr(settings.rtol), "atol": repr(settings.atol),
              "host_kernels": kernels, "kernels": list(designs), "xclbin_name": name, "streams": streams,
              "connections": [(f"{lk.producer}.{lk.out}", f"{lk.consumer}.{lk.inp}") for lk in links],
              "free_kernels": free, "flags": flag_groups(),
              "host_ports": [p for k in kernels for p in k["host_ports"]],
              "host_rets": [r for k in kernels for r in k["host_rets"]]}
    files["host/host.cpp"] = render_template("host.cpp.j2", **common)
    files["host/host.py"] = render_template("host.py.j2", kernels_py=repr(kernels), **common)
    files["link.cfg"] = link_cfg
    files["Makefile"] = render_template("system.mk.j2", **common)
    files.update(mock_files())
    if streams:
        for header in own_headers():  # all of them: a kernel's tasks, split/merge and blocks need theirs
            files[f"{CSIM_INCLUDE}/{header}"] = (own_include_dir() / header).read_text()
    return files


def write_system(files: dict[str, str], path: str | os.PathLike[str], overwrite: bool) -> Path:
    root = Path(path)
    previous = prepare_root(root, overwrite)
    write_files(root, files, previous)
    return root
