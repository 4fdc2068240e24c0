"""Write a Vitis HLS project (DESIGN.md, "Exported project") from plain data: the emitted design,
the golden vectors and the estimate. This stage never calls the kernel; `Kernel.export` runs the
golden model and the estimate and passes their results here.

The project is self-contained and relocatable: the kernel sources, a self-checking C++ testbench
with its input and golden vectors as text files, `run_hls.tcl` (classic flow), `hls_config.cfg`
(unified flow), a Makefile whose `make csim` needs only g++ and the ap_types headers, and a README.
Nothing written names a path of the machine it was generated on.

Security (PITFALLS.md): the only values substituted into Tcl, the cfg, the Makefile and C++ are
validated C identifiers, numbers, a part name matching `[A-Za-z0-9-]+` and the fixed compiler flags;
files are only written below the target directory, never through a symbolic link, and an existing
non-empty directory is only touched when it holds a previous hls export (its manifest) or with
`overwrite=True` -- and then only the files this exporter writes are replaced (files listed in the
previous export's manifest that are no longer produced are removed; every other file is kept).
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from hls.backend.cpp.render import render_template
from hls.defaults import DEFAULT_ATOL, DEFAULT_PART, DEFAULT_RTOL
from hls.errors import HLSError
from hls.project.directives import cfg_directives
from hls.project.export_structs import struct_files, struct_port_data, struct_return_data, struct_stream_data
from hls.project.host import host_unsupported, render_driver, render_host
from hls.project.movers import Mover, movers_unsupported, render_mover_host
from hls.sim.toolchain import CSIM_CXXFLAGS, own_headers, own_include_dir
from hls.types import ArrayType, ScalarType, StreamType, StructType, TupleType, TypeFamily

MANIFEST = "hls_export.json"
MANIFEST_FORMAT = "hls-export/1"
HLS_PROJECT = "hls_prj"  # open_project name (Tcl flow)
SOLUTION = "solution1"
WORK_DIR = "hls_component"  # --work_dir of the unified (v++ / vitis-run) flow
DATA_DIR = "tb/data"
CSIM_INCLUDE = "csim_include"
# flow target -> export format: an .xo kernel for the Vitis flow, IP for the Vivado IP flow
EXPORT_FORMATS = {"vitis": "xo", "vivado": "ip_catalog"}

_IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PART_RE = re.compile(r"[A-Za-z0-9-]{1,64}")
# Characters that are inert in Tcl double quotes, make, the cfg format, sh and C string literals.
_FLAG_RE = re.compile(r"-[A-Za-z0-9=+_.,-]+")
# Relative paths this exporter can have written (used to validate an old manifest before deleting).
_OWN_PATH_RE = re.compile(r"(?:(?:src|tb|tb/data|csim_include|host|host/sim|host/sim/xrt)/)?[A-Za-z0-9_][A-Za-z0-9_.]*")
_TEXT_RE = re.compile(r"[A-Za-z0-9_ ,\[\]]+")


@dataclass(frozen=True)
class ExportSettings:
    """What an export is asked for, validated when it is made: a part name, numbers and a flow are
    the only user values that reach Tcl, make and the cfg (`clock_text` is the clock as they read it)."""

    part: str
    clock_ns: float
    flow: str
    seed: int = 0
    rtol: float = DEFAULT_RTOL
    atol: float = DEFAULT_ATOL
    overwrite: bool = False  # write into a non-empty folder that holds no previous hls export

    def __post_init__(self) -> None:
        if not isinstance(self.part, str) or not _PART_RE.fullmatch(self.part):
            raise HLSError(f"part {self.part!r} must be a device name of letters, digits and '-' "
                           f"(e.g. {DEFAULT_PART})")
        if self.flow not in EXPORT_FORMATS:
            raise HLSError(f"flow {self.flow!r} must be one of {', '.join(EXPORT_FORMATS)}")
        clock = _number("clock_ns", self.clock_ns)
        if not 0.01 <= clock <= 1000.0:
            raise HLSError(f"clock_ns {self.clock_ns!r} must be a clock period in ns between 0.01 and 1000")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool) or self.seed < 0:
            raise HLSError(f"seed {self.seed!r} must be a non-negative integer")
        tolerances = [_number(n, v) for n, v in (("rtol", self.rtol), ("atol", self.atol))]
        if any(t < 0 for t in tolerances):
            raise HLSError("rtol and atol must be non-negative")
        for name, value in (("clock_ns", clock), ("rtol", tolerances[0]), ("atol", tolerances[1])):
            object.__setattr__(self, name, value)  # as plain floats, however they were given

    @property
    def clock_text(self) -> str:
        return np.format_float_positional(self.clock_ns, trim="-", precision=6)

    @property
    def export_format(self) -> str:
        return EXPORT_FORMATS[self.flow]


class CompiledDesign(Protocol):
    """What this stage reads of a compiled kernel (hls.compilation.Compiled): its emitted design."""

    design: Any


@dataclass(frozen=True)
class GoldenVectors:
    """The golden run the testbench checks against, as data (hls/golden_runs.py runs it): per argument its
    value as written to tb/data (a stream: the items fed) and after the run (a stream: what is left
    in it), and the return value."""

    before: list[Any]
    after: list[Any]
    ret: Any
    given: bool = False  # the caller gave the inputs (else they were drawn from the seed)


def export_project(compiled: CompiledDesign, vectors: GoldenVectors, report: Any, settings: ExportSettings,
                   path: str | os.PathLike[str], directives: str | None = None,
                   movers: list[tuple[Mover, Any]] | None = None) -> Path:
    """Write the project of `compiled.design` into `path` and return the directory.

    `report` is the schedule's Report for the manifest, or a string saying why there is none;
    `directives`, a directives.tcl that run_hls.tcl sources (a schedule's, hls/customize); `movers`, the
    data movers of the stream arguments with their designs (hls/project/movers.py) for the host program.
    Everything is computed before the first file is written, so a failure leaves the target untouched.
    """
    root = Path(path)
    previous = check_target(compiled, settings, root)
    estimate, error = (None, report) if isinstance(report, str) else (report, None)
    files = render_project(compiled.design, settings, vectors, estimate, error, directives, movers or [])
    write_files(root, files, previous)
    return root


# ---- validation --------------------------------------------------------------------------------


def check_target(compiled: CompiledDesign, settings: ExportSettings, path: str | os.PathLike[str]) -> set[str]:
    """Refuse what cannot be exported (a port csim cannot carry, a non-empty folder that is not a
    previous export) before anything is run; the files a previous export listed (candidates for
    removal) otherwise. `Kernel.export` asks before its golden run, `export_project` again."""
    check_design(compiled.design)
    return prepare_root(Path(path), settings.overwrite)


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise HLSError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(float(value)):
        raise HLSError(f"{name} must be finite, got {value!r}")
    return float(value)


def check_design(design: Any) -> None:
    """The backend promises C identifiers; check anyway, since they become file names and Tcl words."""
    design.check_boundary()
    names = [design.top] + [p.c_name for p in design.ports]
    for name in names:
        if not isinstance(name, str) or not _IDENT_RE.fullmatch(name):
            raise HLSError(f"internal: {name!r} is not a C identifier; refusing to export")
    if design.header_name != f"{design.top}.h":
        raise HLSError(f"internal: header {design.header_name!r} is not named after the top function")
    for port in design.ports:
        elem = port.type.elem if port.is_array or port.stream else port.type
        if not isinstance(port.type, (ArrayType, ScalarType, StreamType, StructType)) \
                or not isinstance(elem, (ScalarType, StructType)):
            raise HLSError(f"argument {port.name!r} of type {port.type}: export supports arrays and scalars only")
    for flag in CSIM_CXXFLAGS:
        if not _FLAG_RE.fullmatch(flag):
            raise HLSError(f"internal: compiler flag {flag!r} cannot be written into project files safely")


# ---- files ---------------------------------------------------------------------------------------


def _display(name: str, fallback: str) -> str:
    return name if isinstance(name, str) and _IDENT_RE.fullmatch(name) else fallback


def _type_text(t: Any, fallback: str) -> str:
    text = str(t)
    return text if _TEXT_RE.fullmatch(text) else fallback


def stream_port_data(port: Any, count_in: int, count_out: int) -> dict[str, Any]:
    """A stream argument: fed from <arg>.dat, then compared with <arg>.golden.dat, which holds what the
    golden model left in it (an output's items, an input's unread ones)."""
    codec = port.codec
    if codec.family is TypeFamily.STRUCT:
        return struct_stream_data(port, _display(port.name, port.c_name), _type_text(port.type, codec.c_type),
                                  count_in, count_out)
    var = f"arg_{port.c_name}"
    return {
        "name": _display(port.name, port.c_name), "var": var, "c_name": port.c_name, "is_array": False,
        "is_stream": True, "output_only": False, "c_type": f"hls::stream<{codec.c_type} >",
        "elem_type": codec.c_type, "dims": "",
        "shape": [count_out], "ndim": 1, "size": count_in, "golden_size": count_out,
        "file": f"{port.c_name}.dat", "golden_file": f"{port.c_name}.golden.dat", "file_type": codec.dat_type,
        "load": f"{var}.write({codec.dat_in('value')});", "readback": codec.dat_out("item"),
        "exact": codec.exact, "type_text": _type_text(port.type, codec.c_type),
    }


def port_data(port: Any) -> dict[str, Any]:
    """Plain data describing one argument for tb.cpp.j2 (declaration, loading, read-back, compare)."""
    codec = port.codec
    if codec.family is TypeFamily.STRUCT:
        return struct_port_data(port, _display(port.name, port.c_name), _type_text(port.type, codec.c_type))
    var = f"arg_{port.c_name}"
    dims = list(port.shape)
    subscript = "".join(f"[i{d}]" for d in range(len(dims)))
    element = var + subscript
    loops = " ".join(f"for (size_t i{d} = 0; i{d} < {n}; i{d}++)" for d, n in enumerate(dims))
    source = "values[n++]" if port.is_array else "values[0]"
    return {
        "name": _display(port.name, port.c_name), "var": var, "c_name": port.c_name,
        "is_array": port.is_array, "is_stream": False, "output_only": port.output_only,
        "dims": "".join(f"[{n}]" for n in dims), "shape": dims, "ndim": len(dims), "size": math.prod(dims),
        "c_type": codec.c_type, "file": None if port.output_only else f"{port.c_name}.dat",
        "golden_file": f"{port.c_name}.golden.dat" if port.is_array else None,
        "file_type": codec.dat_type, "loops": loops,
        "load": f"{element} = {codec.dat_in(source)};", "readback": codec.dat_out(element),
        "exact": codec.exact, "type_text": _type_text(port.type, codec.c_type),
    }


def return_data(design: Any) -> list[dict[str, Any]]:
    """One entry per returned scalar: the return value, or each element of a tuple return."""
    several = len(design.results) > 1 or isinstance(design.return_type, TupleType)
    rets = []
    for i, r in enumerate(design.results):
        codec = r.codec
        rets.append({"name": f"return value {i}" if several else "return value", "c_type": codec.c_type,
                     "var": f"ret_value{i}", "file": f"return{i}.golden.dat" if several else "return.golden.dat",
                     "file_type": codec.dat_type, "readback": codec.dat_out(f"ret_value{i}"),
                     "exact": codec.exact, "type_text": _type_text(r.type, codec.c_type), "codec": codec})
    return rets


def flag_groups() -> dict[str, str]:
    """CSIM_CXXFLAGS split by who needs them.

    Language and diagnostic flags (-std, -W) also matter to the synthesis front end; the numeric
    ones (-O, -ffp-contract, -fno-fast-math) only to simulation, so they go to -csimflags /
    syn.csimflags and synthesis never sees an optimisation level. Together they are exactly the
    flags csim uses; the testbench is never synthesized and gets them all.
    """
    syn = [f for f in CSIM_CXXFLAGS if f.startswith(("-std=", "-W"))]
    sim = [f for f in CSIM_CXXFLAGS if f not in syn]
    return {"all": " ".join(CSIM_CXXFLAGS), "syn": " ".join(syn), "sim": " ".join(sim)}


def data_files(design: Any, ports: list[dict[str, Any]], rets: list[dict[str, Any]],
               vectors: GoldenVectors) -> dict[str, str]:
    """{file name: text} of tb/data: every input, and the golden value of every output."""
    data: dict[str, str] = {}
    given_in, given_out = iter(vectors.before), iter(vectors.after)
    for port, info in zip(design.ports, ports, strict=True):
        if "fields" in info:  # a struct port: one file per field (hls/project/export_structs.py)
            data.update(struct_files(port.codec, next(given_in), info["fields"], False))
            value_out = next(given_out)
            if port.is_array or port.stream:
                data.update(struct_files(port.codec, value_out, info.get("golden_fields", info["fields"]), True))
            continue
        if port.output_only:  # a returned array: the golden model's result, no input
            data[info["golden_file"]] = port.codec.format_dat(vectors.ret)
            continue
        data[info["file"]] = port.codec.format_dat(next(given_in))
        value_out = next(given_out)
        if port.is_array or port.stream:
            data[info["golden_file"]] = port.codec.format_dat(value_out)
    values = vectors.ret if isinstance(design.return_type, TupleType) else (vectors.ret,)
    struct_ret = bool(rets) and "fields" in rets[0]
    if struct_ret:
        data.update(struct_files(rets[0]["codec"], vectors.ret, rets[0]["fields"], True))
    for info, value in zip(rets if not struct_ret else [], values, strict=False):
        data[info["file"]] = info["codec"].format_dat(info["codec"].elem.convert(value))
    return data


def kernel_data(design: Any, vectors: GoldenVectors) -> tuple[list[dict[str, Any]], list[dict[str, Any]],
                                                                dict[str, str]]:
    """Per argument and per returned value the testbench's plain data, and the tb/data files."""
    inputs = [p for p in design.ports if not p.output_only]
    counts = {id(p): (len(b), len(a)) for p, b, a in zip(inputs, vectors.before, vectors.after, strict=True)
              if p.stream}
    ports = [stream_port_data(p, *counts[id(p)]) if p.stream else port_data(p) for p in design.ports]
    struct_ret = bool(design.results) and design.results[0].codec.family is TypeFamily.STRUCT
    rets = [struct_return_data(design.results[0].codec)] if struct_ret else return_data(design)
    return ports, rets, data_files(design, ports, rets, vectors)


def render_project(design: Any, settings: ExportSettings, vectors: GoldenVectors, estimate: Any = None,
                   estimate_error: str | None = None, directives: str | None = None,
                   movers: list[tuple[Mover, Any]] = ()) -> dict[str, str]:
    """Every file of the project as {relative path: text}; nothing is written here."""
    top = design.top
    ports, rets, data = kernel_data(design, vectors)
    ret_info = rets[0] if rets else None
    flags = flag_groups()
    common = {"top": top, "header": design.header_name, "part": settings.part, "clock": settings.clock_text,
              "flow": settings.flow, "export_format": settings.export_format, "project": HLS_PROJECT,
              "solution": SOLUTION, "work_dir": WORK_DIR, "data_dir": DATA_DIR, "flags": flags,
              "data_files": sorted(data), "ports": ports, "ret": ret_info, "rets": rets,
              "tuple_return": isinstance(design.return_type, TupleType),
              "inputs_given": vectors.given, "streams": design.streams, "directives": directives is not None,
              "free_running": design.free_running,
              "config_directives": cfg_directives(directives) if directives is not None else []}
    note = host_unsupported(design) or movers_unsupported(design, vectors) if settings.flow == "vitis" else None
    host_files, make = host_side(design, settings, common, [] if note else list(movers))
    common.update(host=settings.flow == "vitis" and bool(host_files), kernels=[top], xclbin_name=top,
                  connections=[], free_kernels=[], driver="driver.py" in host_files, host_note=note)
    common.update(make)
    files = {
        f"src/{top}.cpp": design.kernel_cpp,
        f"src/{design.header_name}": design.header,
        f"tb/{top}_tb.cpp": render_template("tb.cpp.j2", rtol=repr(settings.rtol), atol=repr(settings.atol),
                                           **common),
        "run_hls.tcl": render_template("run_hls.tcl.j2", **common),
        "hls_config.cfg": render_template("hls_config.cfg.j2", **common),
        "Makefile": render_template("project.mk.j2", **common),
        "README.md": render_template("project_README.md.j2", seed=settings.seed, rtol=repr(settings.rtol),
                                     atol=repr(settings.atol), **common),
    }
    files.update({f"{DATA_DIR}/{name}": text for name, text in data.items()})
    files.update(host_files)
    if directives is not None:
        files["directives.tcl"] = directives
    if design.streams:  # the project's own csim headers (hls_stream.h, hls_csim.h), used when Vitis is absent
        for name in own_headers():
            files[f"{CSIM_INCLUDE}/{name}"] = (own_include_dir() / name).read_text()
    estimated = _relative_paths(estimate.to_dict()) if estimate is not None else None
    files[MANIFEST] = manifest_text(design, settings, ports, rets, sorted(files) + [MANIFEST], vectors.given,
                                    estimated, estimate_error)
    return files


def host_side(design: Any, settings: ExportSettings, common: dict[str, Any],
              movers: list[tuple[Mover, Any]]) -> tuple[dict[str, str], dict[str, Any]]:
    """The Vitis kernel flow's host program, link.cfg and mock-XRT entry (hls/project/host.py), with a data
    mover per stream argument (hls/project/movers.py), when XRT can drive every argument of the design;
    for the Vivado IP flow the PYNQ driver.py of an AXI IP without stream or struct ports. Also what the Makefile's
    host targets need beyond the kernel itself."""
    streams = any(p.stream for p in design.ports)
    if host_unsupported(design) is not None or (streams and not movers and settings.flow == "vitis"):
        return {}, {}
    if settings.flow == "vivado":
        plain = not any(p.stream or p.codec.family is TypeFamily.STRUCT for p in design.ports)  # driver.py's
        return (render_driver(design, common, repr(settings.rtol), repr(settings.atol))
                if design.axi_lite and plain else {}), {}
    if streams:
        return render_mover_host(design, movers, common, repr(settings.rtol), repr(settings.atol))
    return render_host(design, common, repr(settings.rtol), repr(settings.atol)), {}


def manifest_text(design: Any, settings: ExportSettings, ports: list[dict[str, Any]], rets: list[dict[str, Any]],
                  files: list[str], inputs_given: bool, estimate: Any, error: str | None) -> str:
    """What `hls report DIR` and a later `--force` export need: settings, file list, the estimate."""
    manifest = {
        "format": MANIFEST_FORMAT, "top": design.top, "part": settings.part, "clock_ns": settings.clock_ns,
        "flow": settings.flow, "export_format": settings.export_format,
        "inputs": "given" if inputs_given else "random", "seed": settings.seed,
        "rtol": settings.rtol, "atol": settings.atol, "hls_project": HLS_PROJECT, "solution": SOLUTION,
        "work_dir": WORK_DIR,
        "csynth_xml": [f"{HLS_PROJECT}/{SOLUTION}/syn/report/{design.top}_csynth.xml",
                       f"{WORK_DIR}/hls/syn/report/{design.top}_csynth.xml"],
        "ports": [{"name": p["name"], "c_name": p["c_name"], "type": p["type_text"], "file": p["file"],
                   "golden": p["golden_file"]} for p in ports],
        "return": None if not rets else {"type": rets[0]["type_text"], "golden": rets[0]["file"],
                                         "name": rets[0]["name"]},
        "returns": [{"name": r["name"], "type": r["type_text"], "golden": r["file"]} for r in rets],
        "files": files, "estimate": estimate, "estimate_error": error,
    }
    return json.dumps(manifest, indent=2, sort_keys=False) + "\n"


def _relative_paths(value: Any) -> Any:
    """Absolute paths (a loop's source file) would tie the project to this machine: keep the name."""
    if isinstance(value, dict):
        return {k: _relative_paths(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_relative_paths(v) for v in value]
    if isinstance(value, str) and (os.path.isabs(value) or re.match(r"[A-Za-z]:[\\/]|~", value)):
        return os.path.basename(value.replace("\\", "/"))
    return value


# ---- writing -----------------------------------------------------------------------------------


def prepare_root(root: Path, overwrite: bool) -> set[str]:
    """Check the target; return the files a previous export listed (candidates for removal).

    A folder holding an hls export manifest is hls's own and is updated in place, so a script that
    exports twice runs twice; any other non-empty folder needs `overwrite=True`. Either way only the
    files this exporter writes (or listed as written) are replaced or removed; other files are kept."""
    if root.exists() and not root.is_dir():
        raise HLSError(f"{root} exists and is not a directory")
    if not root.exists() or not any(root.iterdir()):
        return set()
    listed = _previous_files(root)
    if listed is None and not overwrite:
        raise HLSError(f"{root} is not empty and holds no hls export ({MANIFEST}); pass overwrite=True "
                       "(hls export --force) to write the project there (other files are kept)")
    return {f for f in listed or [] if isinstance(f, str) and _OWN_PATH_RE.fullmatch(f) and ".." not in f}


def _previous_files(root: Path) -> list[Any] | None:
    """The files listed by the hls export manifest in `root`, or None when there is no valid one."""
    manifest = root / MANIFEST
    if manifest.is_symlink() or not manifest.is_file():
        return None
    try:
        old = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(old, dict) or old.get("format") != MANIFEST_FORMAT or not isinstance(old.get("files"), list):
        return None
    return old["files"]


def write_files(root: Path, files: Mapping[str, str], previous: set[str]) -> None:
    """Write each file atomically below `root`; refuse symlinked directories on the way."""
    root.mkdir(parents=True, exist_ok=True)
    base = root.resolve()
    for rel in files:
        _safe_target(base, rel)
    for rel, text in files.items():
        target = _safe_target(base, rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        _safe_target(base, rel)  # the directory just created must still be ours
        _write_atomic(target, text)
    for rel in sorted(previous - set(files)):
        target = _safe_target(base, rel)
        if target.is_file() and not target.is_symlink():
            target.unlink()


def _safe_target(base: Path, rel: str) -> Path:
    """`base / rel`, provided no existing component below `base` is a symlink or a non-directory."""
    parts = Path(rel).parts
    if Path(rel).is_absolute() or ".." in parts or not parts:
        raise HLSError(f"internal: refusing to write {rel!r} outside the project")
    current = base
    for part in parts[:-1]:
        current = current / part
        if current.is_symlink() or (current.exists() and not current.is_dir()):
            raise HLSError(f"{current} is a symbolic link or not a directory; refusing to write through it")
    target = current / parts[-1]
    if target.is_dir() and not target.is_symlink():
        raise HLSError(f"{target} is a directory; cannot write a file there")
    return target


def _write_atomic(target: Path, text: str) -> None:
    """Temp file in the same directory, then os.replace: readers never see half a file, and a
    symlink at `target` is replaced itself instead of redirecting the write."""
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def read_manifest(project_dir: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of an exported project, for `hls report DIR`; HLSError when it is not one."""
    path = Path(project_dir) / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except OSError:
        raise HLSError(f"{project_dir} is not a project exported by hls (no {MANIFEST})") from None
    except ValueError as exc:
        raise HLSError(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT:
        raise HLSError(f"{path} is not an hls export manifest ({MANIFEST_FORMAT})")
    return manifest
