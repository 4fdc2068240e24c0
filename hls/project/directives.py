"""A directives.tcl as the unified flow's config keys: each `set_directive_<name> [-opt value | -flag]...
<location> [variable]` line becomes `syn.directive.<name>=[opt=value | flag]... <location> [variable]`
(UG1399 "HLS Optimization Directives", the syn.directive.* pages: options first, `key=value`, a bare
keyword for a flag, `off=true` for off), so hls_config.cfg carries the same schedule run_hls.tcl sources.
"""

from __future__ import annotations

import shlex

FLAGS = ("off", "rewind", "skip_exit_check", "recursive")  # options with no value: `-off` in Tcl


def tcl_commands(text: str) -> list[tuple[int, str]]:
    """(line number, command) of a Tcl file, comments dropped and backslash continuations joined."""
    out: list[tuple[int, str]] = []
    pending, start = "", 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        out.append((start, pending + line))
        pending = ""
    if pending:
        out.append((start, pending))
    return out


def cfg_directive(command: str) -> str:
    """One `set_directive_*` command as a `syn.directive.*` config line."""
    words = shlex.split(command)
    name = words[0].removeprefix("set_directive_")
    options, where, index = [], [], 1
    while index < len(words):
        word = words[index]
        if word.startswith("-") and word[1:].lower() in FLAGS:
            options.append("off=true" if word[1:].lower() == "off" else word[1:])
        elif word.startswith("-") and index + 1 < len(words):
            index += 1
            options.append(f"{word[1:]}={words[index]}")
        else:
            where.append(word)
        index += 1
    return f"syn.directive.{name}=" + " ".join(options + where)


def cfg_directives(tcl: str) -> list[str]:
    """Every directive of a directives.tcl as a config line, in order."""
    return [cfg_directive(command) for _, command in tcl_commands(tcl) if command.startswith("set_directive_")]
