"""``python -m rtextract``: see rtextract._cli."""

import sys

from rtextract._cli import main

sys.exit(main())
