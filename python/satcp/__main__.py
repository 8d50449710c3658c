"""``python -m satcp``: the same as the ``satcp`` command."""

import sys

from .cli import main

sys.exit(main())
