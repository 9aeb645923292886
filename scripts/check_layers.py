#!/usr/bin/env python3
"""Checks that bsx's headers depend one way: a header includes only headers of its own
layer or of a lower one (doc/design.md, "Layout: one folder per layer").

Usage: check_layers.py [include/bsx]. Prints every upward include and exits 1 if
there is one; a header in a folder without a layer is an error too.
"""
import pathlib
import re
import sys

# Layer of each folder (or top-level header), lowest first.
LAYERS = {
    "config.hpp": 0,
    "fwd.hpp": 0,
    "version.hpp": 0,
    "detail": 1,
    "shape": 2,
    "expr": 3,
    "view": 4,
    "eval": 5,
    "reduce": 6,
    "array.hpp": 7,
    "factories.hpp": 7,
    "creation.hpp": 7,
    "random.hpp": 7,
    "fixed_array.hpp": 7,
    "compare.hpp": 7,
    "scans.hpp": 7,
    "gather.hpp": 7,
    "masks.hpp": 7,
    "assembly.hpp": 7,
    "io": 8,
    "algorithm": 8,  # eager algorithms on arrays: sorting and sets
    "bsx.hpp": 9,
    "dist": 10,  # the optional MPI module, above everything it distributes
    "dist.hpp": 11,
}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def layer_of(root, header):
    """The layer name and rank of a header under root, or None if it has none."""
    name = header.relative_to(root).parts[0]
    return name, LAYERS.get(name)


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "include/bsx").resolve()
    errors = []
    headers = sorted(root.rglob("*.hpp"))
    if not headers:
        errors.append(f"no headers under {root}")
    for header in headers:
        name, rank = layer_of(root, header)
        if rank is None:
            errors.append(f"{header.relative_to(root)}: '{name}' has no layer in check_layers.py")
            continue
        for number, line in enumerate(header.read_text().splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target = (header.parent / match.group(1)).resolve()
            if root not in target.parents:
                errors.append(f"{header.relative_to(root)}:{number}: includes {match.group(1)}, outside bsx")
                continue
            target_name, target_rank = layer_of(root, target)
            if target_rank is None or target_rank > rank:
                errors.append(f"{header.relative_to(root)}:{number}: {name} (layer {rank}) includes "
                              f"{target.relative_to(root)} ({target_name}, layer {target_rank}): an upward arrow")
    for error in errors:
        print(error)
    print(f"checked {len(headers)} headers: {len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
