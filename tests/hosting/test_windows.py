"""Windows (issue 25, item 8): the package imports and migrates a fresh SQLite database
under its file lock (in a fresh data folder) without ``fcntl``, which Windows lacks."""

from __future__ import annotations

import os
import subprocess
import sys

WITHOUT_FCNTL = """
import sys
sys.modules["fcntl"] = None  # importing it now raises ImportError, as on Windows
from pathlib import Path
from scorekeeper import create_app
from scorekeeper.hosting.schema import pending
data = Path(sys.argv[1])
app = create_app({"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{data / 'w.db'}"})
assert not pending(app)
assert app.test_client().get("/rules").status_code == 200
print("migrated without fcntl")
"""


def test_the_app_imports_and_migrates_without_fcntl(tmp_path):
    environment = os.environ | {"SCOREKEEPER_DATA": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_FCNTL, str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        env=environment,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "migrated without fcntl" in done.stdout
