"""The two-editor check (`scripts/check_two_editors.py`) passes from outside the suite: its own
scratch database, the app's own commands and a real server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from django.conf import settings


def test_the_two_editor_check_passes() -> None:
    script = Path(settings.BASE_DIR) / "scripts" / "check_two_editors.py"
    done = subprocess.run(  # noqa: S603 - our own script
        [sys.executable, str(script)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FAIL" not in done.stdout
    assert "two overrides recorded" in done.stdout
    assert "Two editors, one truth: passed." in done.stdout
