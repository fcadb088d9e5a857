"""How much memory this process may still take.  A table is zeroed when it
is made, so every byte of it is committed at once: one larger than the
memory left would bring the out-of-memory killer, which ends the run
without a word, instead of a refusal that says why."""

from __future__ import annotations

import os
from typing import Final

MEMINFO: Final = "/proc/meminfo"
"""Linux's account of the machine's memory."""
CGROUP: Final = "/sys/fs/cgroup"
"""Where a container's memory limit is (cgroup v2), when there is one."""


def _meminfo_available() -> int | None:
    try:
        with open(MEMINFO) as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _sysconf_available() -> int | None:
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return None


def _cgroup_headroom() -> int | None:
    """What the container's limit leaves, when it sets one."""
    try:
        with open(os.path.join(CGROUP, "memory.max")) as limit, open(os.path.join(CGROUP, "memory.current")) as used:
            maximum, current = limit.read().strip(), used.read().strip()
    except OSError:
        return None
    if not maximum.isdigit() or not current.isdigit():
        return None  # "max": no limit
    return max(0, int(maximum) - int(current))


def available_bytes() -> int | None:
    """The memory this process may still commit: the machine's available
    memory (Linux's MemAvailable, elsewhere the free physical pages), less
    where a container's limit is lower; None when the system does not say.

    >>> available_bytes() is None or available_bytes() > 0
    True
    """
    known = [
        size
        for size in (_meminfo_available() if os.path.exists(MEMINFO) else _sysconf_available(), _cgroup_headroom())
        if size is not None
    ]
    return min(known) if known else None


__all__ = ["CGROUP", "MEMINFO", "available_bytes"]
