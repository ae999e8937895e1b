"""Helpers shared by the generators of tests/optest (docs/optest.md
"Generated data"): a generator runs with the case's data directory as
its working directory and writes its inputs and goldens there.
"""
import os
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def rng_for(*parts):
    """A generator seeded by the case's parameters: the same data on every
    build, different data for different cases."""
    return np.random.default_rng(zlib.crc32('/'.join(str(p) for p in parts).encode()))


def save(name, array):
    np.save(name, np.ascontiguousarray(array), allow_pickle=False)


def save_params(values, name='params.npy'):
    """Kernel parameters: int64 values the program reads with ldi from the
    symbol `params` (8 bytes each)."""
    save(name, np.array([int(v) - (1 << 64) if int(v) >= 1 << 63 else int(v) for v in values],
                        dtype=np.int64))


def random_bytes(rng, n):
    return rng.integers(0, 256, size=n, dtype=np.uint8)
