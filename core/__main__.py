"""Entry point for ``python -m core``."""
import sys

from .cli import main

sys.exit(main())
