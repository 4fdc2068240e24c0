"""The `hls` command: `main.py` parses and runs the sub-commands, `export.py` adds `hls export` and
`hls report`, `target.py` finds what a command names (FILE.py:kernel)."""
