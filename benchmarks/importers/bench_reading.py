"""How fast `twisty import h5mota` reads a project file: a seeded family of files just under the 4 MiB cap,
of the shapes real towers have (floor maps of numbers, monster tables with bare keys and comments, event
lists of strings, events nested deep, all mixed), each read by twisty's reader (read_object_file: the
regular-file read, the assignment lexer and pyjson5) and by a plain baseline written for the bench alone:
the same value written as strict JSON and read by Python's own C JSON reader. CPU time (time.process_time),
best of three per file. Prints a table (median and worst seconds per shape, items per second, the worst
ratio to the baseline) and writes benchmarks/importers/results.json.

    nice python benchmarks/importers/bench_reading.py [--seed 1] [--files 12]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from twisty.importers.js_literals import MAX_FILE_BYTES, read_object_file  # noqa: E402

HERE = Path(__file__).resolve().parent
SHAPES = ("maps", "monsters", "events", "deep", "mixed")


def make_text(shape: str, rng: random.Random, target: int) -> tuple[str, Any, int]:
    """A project file of about `target` bytes in this shape: its text, its value, and its item count."""
    parts: list[str] = []
    value: dict[str, Any] = {}
    size = 0
    items = 0
    index = 0
    while size < target:
        key = f"k{index}"
        kind = shape if shape != "mixed" else rng.choice(SHAPES[:-1])
        if kind == "maps":
            row = [rng.choice([0, 0, 0, 1, 21, 27, 81, 201, 202]) for _ in range(rng.randint(13, 200))]
            item: Any = [row for _ in range(rng.randint(5, 40))]
            text = "[\n" + ",\n".join("    [" + ",".join(f"{n:3d}" for n in r) + "]" for r in item) + "\n]"
            items += sum(len(r) for r in item)
        elif kind == "monsters":
            item = {
                "name": f"monster {index}",
                "hp": rng.randint(1, 10**6),
                "atk": rng.randint(0, 10**4),
                "def": rng.randint(0, 10**4),
                "money": rng.randint(0, 100),
                "special": [rng.randint(0, 22)],
            }
            text = (
                f"// monster {index}\n{{name: '{item['name']}', hp: {item['hp']}, atk: {item['atk']}, "
                f"def: {item['def']}, money: {item['money']}, special: [{item['special'][0]}],}}"
            )
            items += 7
        elif kind == "events":
            item = [
                {"type": "text", "text": f"line {n}: the hero\\n \\u4e2d{'x' * rng.randint(0, 60)}"}
                for n in range(rng.randint(1, 8))
            ]
            text = json.dumps(item, ensure_ascii=False)
            item = json.loads(text)
            items += 3 * len(item)
        else:  # deep: conditions inside conditions, as in event scripts
            depth = rng.randint(5, 45)
            item = {"type": "setValue", "value": 1}
            for _ in range(depth):
                item = {"type": "if", "condition": "flag:x", "true": [item], "false": []}
            text = json.dumps(item)
            items += 4 * depth
        parts.append(f'"{key}": {text}')
        value[key] = item
        size += len(parts[-1].encode()) + 3
        index += 1
    return "main.floors.MT1 =\n{\n" + ",\n".join(parts) + "\n}\n", value, items


def cpu_seconds(work, repeats: int = 3) -> float:  # noqa: ANN001
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--files", type=int, default=12, help="files per shape")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "file.js"
        for shape in SHAPES:
            for number in range(options.files):
                target = rng.randint(MAX_FILE_BYTES // 8, MAX_FILE_BYTES - 64 * 1024)
                text, value, items = make_text(shape, rng, target)
                data = text.encode()
                if len(data) > MAX_FILE_BYTES:
                    text, value, items = make_text(shape, rng, target - (len(data) - MAX_FILE_BYTES) - 65536)
                    data = text.encode()
                path.write_bytes(data)
                read = read_object_file(path, inside=Path(folder)).value
                assert read == value, f"{shape} {number}: the reader's value differs from the one written"
                plain = json.dumps(value)
                ours = cpu_seconds(lambda: read_object_file(path, inside=Path(folder)))
                baseline = cpu_seconds(lambda: json.loads(plain))  # noqa: B023 (used at once)
                rows.append(
                    {
                        "shape": shape,
                        "bytes": len(data),
                        "items": items,
                        "seconds": ours,
                        "baseline_seconds": baseline,
                        "ratio": ours / max(baseline, 1e-6),
                    }
                )
    table = []
    print(f"load: {os.getloadavg()[0]:.2f} (1 min); CPU seconds, best of 3; baseline: json.loads of the same value")
    columns = [("files", 5), ("MiB max", 7), ("median s", 9), ("worst s", 8)]
    columns += [("items/s (worst)", 16), ("worst ratio", 11)]
    print(f"{'shape':9} " + " ".join(f"{name:>{width}}" for name, width in columns))
    for shape in (*SHAPES, "all"):
        chosen = [row for row in rows if shape in ("all", row["shape"])]
        worst = max(chosen, key=lambda row: row["seconds"])
        line = {
            "shape": shape,
            "files": len(chosen),
            "largest_mib": max(row["bytes"] for row in chosen) / 2**20,
            "median_seconds": statistics.median(row["seconds"] for row in chosen),
            "worst_seconds": worst["seconds"],
            "items_per_second_at_worst": worst["items"] / max(worst["seconds"], 1e-6),
            "worst_ratio": max(row["ratio"] for row in chosen),
        }
        table.append(line)
        print(
            f"{shape:9} {line['files']:5d} {line['largest_mib']:7.2f} {line['median_seconds']:9.3f} "
            f"{line['worst_seconds']:8.3f} {line['items_per_second_at_worst']:16,.0f} {line['worst_ratio']:11.2f}"
        )
    results = {"seed": options.seed, "load": os.getloadavg()[0], "table": table, "files": rows}
    (HERE / "results.json").write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
