"""An optional compiled engine; the default install stays pure Python.

`pip install .` reads everything from pyproject.toml and builds no extension, so it
needs neither mypy nor a C compiler. `CARCA_COMPILE=1 pip install --no-build-isolation .`
(with mypy and a C compiler at hand; see CONTRIBUTING.md) compiles the engine's
modules with mypyc into C extensions, which Python imports in place of the .py files
beside them: the same code, the same imports, the same results.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup

ENGINE = Path("carca_bot") / "engine"
# Engine modules left as Python even in the compiled build, with the reason.
PURE: dict[str, str] = {
    "__init__.py": "package markers: nothing to run",
    # mypyc types an `except ... as exc` name by its first handler, and the replay
    # functions reuse one name for RecordError and IllegalMove (TypeError at run time);
    # reading records is not on the hot path.
    "record.py": "one exception name for two exception types",
    # Split out of record.py and left as it was: read_record_file binds one exception
    # name to OSError and then UnicodeDecodeError, and neither is on the hot path.
    "record_text.py": "one exception name for two exception types",
    "record_checks.py": "a record's shape checks: not on the hot path, Python as before",
}


# Modules outside the engine worth compiling too: the AI search's leaf evaluations are
# about 40% of a strong decision's time in pure Python (a third less CPU compiled).
EXTRA = ("carca_bot/ai/closing.py", "carca_bot/ai/estimate.py", "carca_bot/ai/evaluate.py")


def compiled_sources() -> list[str]:
    """What mypyc compiles: the engine's modules but `PURE`, then `EXTRA`; a stable order."""
    engine = sorted(str(path) for path in ENGINE.rglob("*.py") if path.name not in PURE)
    return [*engine, *EXTRA]


def wanted() -> bool:
    return os.environ.get("CARCA_COMPILE", "").strip().lower() in ("1", "true", "yes")


def extensions() -> list[object]:
    """The mypyc extensions when CARCA_COMPILE=1, else none (a pure-Python install)."""
    if not wanted():
        return []
    from mypyc.build import mypycify  # only the opt-in build needs mypy

    return list(mypycify(compiled_sources(), opt_level="3", group_name="carca_bot_engine"))


if __name__ == "__main__":  # how both `python setup.py` and pip's build backend run it
    setup(ext_modules=extensions())
