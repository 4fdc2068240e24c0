"""A schedule's directives as Vitis `set_directive_*` lines, both ways (VITIS_FACTS.md section 1).

A loop is located `function/LABEL` (the C++ label, unique within its function), a function by its
name, an array or FIFO by its function and its name (`set_directive_array_partition -type complete
-dim 2 "mm" A`). Loop transformations have no Vitis directive: `to_tcl` leaves them out (the C++ the
schedule exports carries them) and says so in a comment.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

from hls.customize.names import resolve_loop, resolve_storage
from hls.customize.records import TRANSFORMS, Record, ScheduleError, make_record, signature_of
from hls.errors import HLSError, Loc
from hls.ir import Module
from hls.project.directives import FLAGS, TclSyntaxError, tcl_commands

LOOP_OPS = ("pipeline", "unroll", "loop_tripcount", "loop_flatten")
STORAGE_OPS = ("array_partition", "bind_storage", "interface", "stream")
TCL_NAMES = {"ii": "II"}


def directive_line(op: str, given: dict[str, Any], where: list[str]) -> str:
    """`set_directive_<op> -option value ... location [variable]`: the options as given (None left out)."""
    options = []
    if op == "array_partition":  # a partition's type and dim always written: their defaults vary by release
        given = {key: {"type": "complete", "dim": 1, **given}.get(key) for key in ("type", "factor", "dim")}
    for key, value in given.items():
        if value is None:
            continue
        if key in FLAGS:
            options.append(f"-{key}" if value else "")
        else:
            options.append(f"-{TCL_NAMES.get(key, key)} {value}")
    return " ".join(["set_directive_" + op, *filter(None, options), *where])


def record_tcl(module: Module, record: Record) -> str:
    """One record as a `set_directive_*` line, its location read from `module` (the IR it applies to)."""
    target = record.targets[0] if record.targets else None
    if record.op in LOOP_OPS and not (target is None or target in module.functions):
        ref = resolve_loop(module, target, record.loc)
        where = [f'"{ref.func.name}/{ref.op.label}"']
    elif record.op in STORAGE_OPS:
        func, value = resolve_storage(module, target, record.loc)
        where = [f'"{func.name}"', value.name]
    else:
        where = [f'"{target or module.top}"']
    return directive_line(record.op, record.opts, where)


def directive_options(directive: Any) -> dict[str, Any]:
    """A placed directive's options as a record keeps them: the required ones and those off their default."""
    params = signature_of(directive.name).parameters
    return {key: value for key, value in directive.options().items()
            if key not in params or params[key].default is inspect.Parameter.empty or value != params[key].default}


def schedule_tcl(records: list[Record], lines: list[str], kept: tuple[str, ...] = ()) -> str:
    """A directives.tcl: a header, what stays in the C++ (the transformations, and the `kept` directives),
    then the `set_directive_*` lines."""
    head = ["# Vitis HLS directives written by hls (hls.customize); `source directives.tcl` in a solution."]
    moved = [str(r) for r in records if r.op in TRANSFORMS]
    if moved:
        head.append(MOVED_HEADER + "; ".join(moved))
    inline = [str(r) for r in records if r.op in kept]
    if inline:
        head.append("# In the C++ as pragmas (a region, FIFO depths and port protocols): " + "; ".join(inline))
    return "\n".join(head + lines) + "\n"


def _value(text: str) -> Any:
    return int(text) if re.fullmatch(r"-?\d+", text) else {"true": True, "false": False}.get(text.lower(), text)


SUPPORTED = LOOP_OPS + STORAGE_OPS + ("dataflow", "inline")
TARGET_PARAMS = ("loop", "array", "function", "fifo")


def _options_of(op: str) -> dict[str, bool]:
    """The Tcl options of `op` (lower case), each True when it is a flag (`-off`), False when it takes a value."""
    if op == "stream":  # set_directive_stream -type fifo -depth N: a FIFO's depth; PIPO and shared are not read
        return {"depth": False, "type": False}
    params = signature_of(op).parameters.values()
    return {p.name: isinstance(p.default, bool) for p in params if p.name not in TARGET_PARAMS}


def parse_line(words: list[str], loc: Loc) -> Record:
    """One `set_directive_<name> [-option value | -flag]... location [variable]` command as a record."""
    op = words[0].removeprefix("set_directive_")
    if not words[0].startswith("set_directive_"):
        raise ScheduleError(f"a directives file holds set_directive_* lines, not {words[0]!r}", loc)
    if op not in SUPPORTED:
        raise ScheduleError(f"set_directive_{op} is not a directive hls.customize applies; the supported ones are "
                            + ", ".join("set_directive_" + n for n in SUPPORTED), loc)
    known = _options_of(op)
    options: dict[str, Any] = {}
    positional: list[str] = []
    index = 1
    while index < len(words):
        word = words[index]
        if word.startswith("-") and not re.fullmatch(r"-\d+", word):
            key = word[1:].lower()
            if key not in known:
                have = ", ".join("-" + TCL_NAMES.get(k, k) for k in known)
                raise ScheduleError(f"{words[0]}: option {word} is not one hls.customize reads; "
                                    + (f"the options are {have}" if have else "it takes none"), loc)
            if known[key] and (index + 1 >= len(words) or words[index + 1].lower() not in ("true", "false")):
                options[key] = True
            else:
                index += 1
                if index >= len(words):
                    raise ScheduleError(f"{words[0]}: option {word} needs a value", loc)
                options[key] = _value(words[index])
        else:
            positional.append(word)
        index += 1
    return _record(op, options, positional, loc)


def _record(op: str, options: dict[str, Any], positional: list[str], loc: Loc) -> Record:
    want = 2 if op in STORAGE_OPS else 1
    if len(positional) != want:
        raise ScheduleError(f"set_directive_{op} takes {'a location and a variable' if want == 2 else 'a location'}"
                            f", got {' '.join(positional) or 'none'}", loc)
    location = positional[0].strip("/")
    if op in STORAGE_OPS:
        target = f"{location.split('/')[0]}/{positional[1]}"
    else:
        target = location
    if op == "stream":
        if options.pop("type", "fifo") != "fifo":
            raise ScheduleError("set_directive_stream: hls.customize sets the depth of a FIFO (-type fifo); a "
                                "ping-pong or shared channel is not one", loc)
        if "depth" not in options:
            raise ScheduleError("set_directive_stream: give the FIFO's -depth", loc)
    try:
        return make_record(op, (target,), options, loc)
    except HLSError as exc:
        raise ScheduleError(exc.message, loc) from None


MOVED_HEADER = "# Loop transformations are in the C++ already: "


def read_tcl(text_or_path: str | Path) -> tuple[list[Record], str, str | None]:
    """The records of a directives file (text, or a path to one), the name used in messages, and the
    transformations its header says it was written after (`to_tcl` of a schedule that made some)."""
    name = "<tcl>"
    if isinstance(text_or_path, Path) or looks_like_path(text_or_path, ".tcl"):
        name, text_or_path = str(text_or_path), read_schedule_file(text_or_path, "directives")
    text_or_path = text_or_path.removeprefix("\ufeff")  # a byte-order mark an editor on Windows wrote
    moved = next((line.strip()[len(MOVED_HEADER):] for line in text_or_path.splitlines()
                  if line.strip().startswith(MOVED_HEADER)), None)
    try:
        commands = tcl_commands(text_or_path)
    except TclSyntaxError as exc:
        raise ScheduleError(f"cannot read this Tcl ({exc})", Loc(name, exc.line)) from None
    return [parse_line(words, Loc(name, number)) for number, words in commands], name, moved


def _is_file(text: str) -> bool:
    try:
        return Path(text).is_file()
    except (OSError, ValueError):  # a long line of text is no file name
        return False


def looks_like_path(text: str, suffix: str) -> bool:
    """A one-line argument that names a file: an existing one, or one ending in `suffix` (a mistyped path
    is then 'no such file', not a parse error of its name)."""
    return "\n" not in text and (_is_file(text) or text.strip().endswith(suffix))


def read_schedule_file(path: str | Path, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ScheduleError(f"cannot read the {what} file {str(path)!r}: {exc.strerror or exc}") from None
