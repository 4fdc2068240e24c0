"""The DSL's public names, as the frontend recognises them: directives (`directives.py`), the bit
intrinsics and their width facts (`bits.py`), `zeros`/`static`/`stream` (`storage.py`).

Nothing here runs a kernel: Python-mode behaviour is the golden runtime's (hls/golden), which provides
the implementations these names call. So the frontend imports this package and never the runtime.
"""
