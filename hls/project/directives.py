"""A directives.tcl as the unified flow's config keys: each `set_directive_<name> [-opt value | -flag]...
<location> [variable]` line becomes `syn.directive.<name>=[opt=value | flag]... <location> [variable]`
(UG1399 "HLS Optimization Directives", the syn.directive.* pages: options first, `key=value`, a bare
keyword for a flag, `off=true` for off), so hls_config.cfg carries the same schedule run_hls.tcl sources.
"""

from __future__ import annotations

FLAGS = ("off", "rewind", "skip_exit_check", "recursive")  # options with no value: `-off` in Tcl


class TclSyntaxError(ValueError):
    """A directives file this reader cannot split into words (the caller locates it)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "{": "{", "}": "}", "[": "[", "]": "]", "$": "$", ";": ";"}


def tcl_commands(text: str) -> list[tuple[int, list[str]]]:
    """(line number, words) of each command of a Tcl file, as the Tcl parser splits them: commands end at a
    newline or `;`, `#` opens a comment where a command starts, a backslash-newline is a space, a word is
    bare, `"quoted"` or `{braced}` (kept literally). `$` and `[` substitutions are refused: a directives
    file is data, and a silently literal `$F` would become a wrong option."""
    out: list[tuple[int, list[str]]] = []
    words: list[str] = []
    text = text.replace("\r\n", "\n")
    line, start, i, n = 1, 1, 0, len(text)

    def end_command() -> None:
        nonlocal words
        if words:
            out.append((start, words))
        words = []

    while i < n:
        c = text[i]
        if c == "\\" and text.startswith("\\\n", i):  # a continuation between words
            i, line = i + 2, line + 1
        elif c in " \t":
            i += 1
        elif c in "\n;":
            end_command()
            line += c == "\n"
            i += 1
        elif c == "#" and not words:
            while i < n and text[i] != "\n":
                if text.startswith("\\\n", i):
                    line += 1
                    i += 1
                i += 1
        else:
            if not words:
                start = line
            word, i, line = _word(text, i, line)
            words.append(word)
    end_command()
    return out


def _word(text: str, i: int, line: int) -> tuple[str, int, int]:
    """One word from `text[i]`: its value, the index after it, the line there."""
    n, out, first = len(text), [], line
    if text[i] == "{":
        depth, i = 1, i + 1
        while i < n:
            c = text[i]
            if c == "\\" and i + 1 < n:
                out.append(text[i:i + 2])
                line += text[i + 1] == "\n"
                i += 2
                continue
            depth += (c == "{") - (c == "}")
            if depth == 0:
                return "".join(out), _after_word(text, i + 1, line), line
            line += c == "\n"
            out.append(c)
            i += 1
        raise TclSyntaxError("missing close-brace", first)
    quoted = text[i] == '"'
    i += quoted
    while i < n:
        c = text[i]
        if quoted and c == '"':
            return "".join(out), _after_word(text, i + 1, line), line
        if not quoted and c in " \t\n;":
            return "".join(out), i, line
        if c in "$[":
            raise TclSyntaxError(f"Tcl substitution ({c}...) is not read in a directives file; write the value", line)
        if c == "\\" and i + 1 < n:
            if text[i + 1] == "\n":
                out.append(" ")
                line += 1
            else:
                out.append(_ESCAPES.get(text[i + 1], text[i + 1]))
            i += 2
            continue
        line += c == "\n"
        out.append(c)
        i += 1
    if quoted:
        raise TclSyntaxError("missing close-quote", first)
    return "".join(out), i, line


def _after_word(text: str, i: int, line: int) -> int:
    if i < len(text) and text[i] not in " \t\n;\\":
        raise TclSyntaxError(f"extra characters after a quoted or braced word: {text[i:i + 10]!r}", line)
    return i


def cfg_directive(words: list[str]) -> str:
    """One `set_directive_*` command (its words) as a `syn.directive.*` config line."""
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
    return [cfg_directive(words) for _, words in tcl_commands(tcl) if words[0].startswith("set_directive_")]
