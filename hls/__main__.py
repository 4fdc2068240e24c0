"""`python -m hls ...`: the same command as the installed `hls` script (hls/cli/main.py)."""

import sys

from hls.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
