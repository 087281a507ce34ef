"""Back Alley engine tests run without Django: ``python -m pytest -p no:django tests/games/backalley``.

The shared helpers live in ``backalley_support.py`` next to this file; with ``--import-mode=importlib``
a test directory is not on ``sys.path``, so it is put there for the test modules to import from.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
