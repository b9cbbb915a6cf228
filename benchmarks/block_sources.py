"""Write every compiled block source the paired workloads and ``verify`` make, to compare
two trees' generated code (what a change to ops.py's bodies does to the blocks).

Run: UNIVAC_TTT_NO_CACHE=1 python3 benchmarks/block_sources.py OUT   (then diff two OUTs)

Each workload of paired.py runs 3 million instructions, then ``verify`` runs in process;
the sources (compiled.CODE's keys) are written sorted, with their count and size.
"""

from __future__ import annotations

import argparse
import os
import sys

from paired import workloads

from univac_ttt.cli.main import main
from univac_ttt.machine import compiled


def run() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="file to write the sources to")
    args = parser.parse_args()
    os.environ["UNIVAC_TTT_NO_CACHE"] = "1"  # every block made here, none from a cache
    for name, workload in workloads().items():
        if not name.startswith(("py65", "minimal")):
            workload(3_000_000)
    main(["verify"])
    sources = sorted(compiled.CODE)
    with open(args.out, "w", encoding="utf-8") as out:
        out.writelines(source + "\n#----\n" for source in sources)
    print(f"{len(sources)} sources, {sum(map(len, sources)):,} characters", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(run())
