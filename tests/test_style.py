"""Style gates that a green run must not hide: ruff over the code, the .lp file headers."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_clean() -> None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed (it is in the test extra)")
    done = subprocess.run([ruff, "check", str(ROOT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("lp", sorted((ROOT / "rules_asp").rglob("*.lp")),
                         ids=lambda p: p.relative_to(ROOT / "rules_asp").as_posix())
def test_every_encoding_opens_with_purpose_input_output(lp: Path) -> None:
    head = "\n".join(lp.read_text(encoding="utf-8").splitlines()[:40]).lower()
    for part in ("purpose", "input", "output"):
        assert part in head, f"{lp.name} lacks its {part} header"
