"""`python -m hls.cli ...` runs the `hls` command."""

import sys

from hls.cli.main import main

sys.exit(main())
