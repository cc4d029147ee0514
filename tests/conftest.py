"""Shared by every test folder: ``tests/`` itself is on ``sys.path``.

The test folders are not packages (except ``server`` and ``bots``): pytest puts each test
file's folder on ``sys.path`` (its default "prepend" import mode), so ``tests/rules`` imports
``cc_position`` and ``tests/railroad`` imports ``rr_position`` as top-level modules.  What the
two canasta games' tests share lives one level up, in ``tests/canasta_position.py`` (position
builders and rules-test assertions) and ``tests/canasta_helpers.py`` (property-test checks);
this conftest, the one pytest loads for every test below ``tests/``, puts ``tests/`` on the
path so that those modules import the same way from every folder, whichever tests are run.
"""

from __future__ import annotations

import sys
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)
