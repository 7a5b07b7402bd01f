"""What `docker build` would see and copy, worked out without a Docker engine.

The build context is the repository less what `.dockerignore` excludes (Docker's
rules: the last matching pattern wins, `!` re-includes, a pattern matching a folder
covers everything in it). The image gets the context's files that its `COPY`
instructions name, at the places they name, relative to the `WORKDIR` in force.
"""

from __future__ import annotations

import fnmatch
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
# What the image's first stage installs to compile the package (mypyc) and how it
# builds the wheel: tests/deploy/test_install.py does the same.
COMPILE_TOOLS = ("mypy==2.4.1", "setuptools==84.0.0", "wheel==0.46.3")
COMPILE_WHEEL = "pip wheel --no-cache-dir --no-build-isolation --no-deps --wheel-dir"


@dataclass(frozen=True)
class Instruction:
    keyword: str  # upper case
    args: str  # the rest, continuation lines joined


def instructions(path: Path = DOCKERFILE) -> list[Instruction]:
    found: list[Instruction] = []
    pending = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        keyword, _, args = line.partition(" ")
        found.append(Instruction(keyword.upper(), args.strip()))
    return found


def ignore_patterns(path: Path = DOCKERIGNORE) -> list[tuple[bool, str]]:
    """(excludes, pattern) in file order; a leading `!` re-includes."""
    patterns = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        include = line.startswith("!")
        pattern = str(PurePosixPath(line.lstrip("!").strip().strip("/")))
        patterns.append((not include, pattern))
    return patterns


def _matches(pattern: str, path: str) -> bool:
    """Docker's match: the path itself or any folder above it, `**` spanning folders."""
    parts = path.split("/")
    for end in range(1, len(parts) + 1):
        candidate = "/".join(parts[:end])
        if pattern.startswith("**/"):
            tail = pattern[3:]
            if any(fnmatch.fnmatchcase("/".join(parts[start:end]), tail)
                   for start in range(end)):
                return True
        elif fnmatch.fnmatchcase(candidate, pattern) and candidate.count("/") == pattern.count(
                "/"):
            return True
    return False


def excluded(relative: str, patterns: list[tuple[bool, str]]) -> bool:
    verdict = False
    for excludes, pattern in patterns:
        if _matches(pattern, relative):
            verdict = excludes
    return verdict


def context_files(root: Path = ROOT) -> list[str]:
    """Every file of the build context, as paths relative to `root`."""
    patterns = ignore_patterns()
    files = []
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if path.is_file() and not excluded(relative, patterns):
            files.append(relative)
    return files


def copies() -> list[tuple[list[str], str, str]]:
    """(sources, destination, workdir) of each COPY from the build context, in order, in
    every stage (a COPY --from copies what an earlier stage built, not the context)."""
    result = []
    workdir = "/"
    for ins in instructions():
        if ins.keyword == "FROM":
            workdir = "/"
        elif ins.keyword == "WORKDIR":
            workdir = str(PurePosixPath(workdir, ins.args))
        elif ins.keyword == "COPY":
            words = shlex.split(ins.args)
            if any(w.startswith("--from") for w in words):
                continue
            words = [w for w in words if not w.startswith("--")]
            result.append((words[:-1], words[-1], workdir))
    return result


def stage(into: Path, root: Path = ROOT) -> dict[str, list[str]]:
    """Lay out the files the image's COPY instructions put in place, under `into`.

    Returns the files copied per COPY source; a source that copies nothing (missing,
    or excluded from the context) is an error, as it is for `docker build`.
    """
    context = context_files(root)
    copied: dict[str, list[str]] = {}
    for sources, dest, workdir in copies():
        target = PurePosixPath(workdir, dest)
        for source in sources:
            clean = str(PurePosixPath(source))
            taken = [f for f in context if f == clean or f.startswith(clean + "/")]
            if not taken:
                raise FileNotFoundError(f"COPY {source}: not in the build context")
            for name in taken:
                inside = name[len(clean):].lstrip("/")
                if inside:  # a folder's contents go under the destination
                    out = target / inside
                elif dest.endswith("/"):
                    out = target / PurePosixPath(name).name
                else:
                    out = target
                path = into / str(out).lstrip("/")
                path.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(root / name, path)
            copied[source] = taken
    return copied
