"""Allow ``python -m havoc``."""

import sys

from havoc.cli import main

sys.exit(main())
