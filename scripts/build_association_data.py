"""Build the association counts the ``eat`` model reads: the Edinburgh Associative Thesaurus.

The EAT (Kiss, Armstrong, Milroy and Piper 1973; about 100 British students answered each of
8,210 cue words with the first word it brought to mind) comes as JSON inside the npm package
``eat-wrapper`` 1.0.1 (Darius Kazemi's port; the data is public sector information under the
Open Government Licence v3.0). This script fetches it with ``npm pack`` (or reads a given
``eat.json``) and writes ``spymaster_ai/data/eat_associations.tsv.gz``: one
``cue<TAB>response<TAB>count`` line per pair, lower case, letters and spaces only, a cue's
echo of itself dropped, sorted, gzipped without a timestamp (the same bytes every build).

    python scripts/build_association_data.py --npm-dir /tmp/eat
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import subprocess
import tarfile
from pathlib import Path

PACKAGE = "eat-wrapper@1.0.1"
OUT = Path(__file__).resolve().parents[1] / "spymaster_ai" / "data" / "eat_associations.tsv.gz"


def fetch(npm_dir: Path) -> dict:
    npm_dir.mkdir(parents=True, exist_ok=True)
    name = subprocess.run(["npm", "pack", PACKAGE], cwd=npm_dir, check=True, capture_output=True,
                          text=True).stdout.strip().splitlines()[-1]
    with tarfile.open(npm_dir / name) as tar:
        member = tar.extractfile("package/eat.json")
        if member is None:
            raise SystemExit(f"{name} has no package/eat.json")
        return json.load(member)


def pairs(eat: dict) -> list[tuple[str, str, int]]:
    out: dict[tuple[str, str], int] = {}
    for cue, responses in eat.items():
        c = " ".join(cue.lower().split())
        if not c.isalpha():
            continue
        for item in responses:
            for response, count in item.items():
                r = " ".join(response.lower().split())
                if not r.replace(" ", "").isalpha() or r == c:
                    continue
                out[(c, r)] = out.get((c, r), 0) + int(count)
    return sorted((c, r, n) for (c, r), n in out.items())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--npm-dir", type=Path, help="fetch eat-wrapper here with npm pack")
    src.add_argument("--eat-json", type=Path, help="an eat.json already fetched")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    eat = fetch(args.npm_dir) if args.npm_dir else json.loads(args.eat_json.read_text(encoding="utf-8"))
    rows = pairs(eat)
    text = "".join(f"{c}\t{r}\t{n}\n" for c, r, n in rows).encode("utf-8")
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as gz:
        gz.write(text)
    args.out.write_bytes(buf.getvalue())
    print(f"{args.out}: {len(rows):,} pairs from {len(eat):,} cues, {len(buf.getvalue()) / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
