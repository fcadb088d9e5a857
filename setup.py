"""Build of the Cython search.

``solver/`` is installed as the package ``kosolve``.  Cython finds ``.pxd``
files by module name (``kosolve/engine/_tt.pxd``), not by folder, so the build hands
Cython an include directory in which ``kosolve`` is a link to ``solver/``.
Set ``KOSOLVE_DEBUG=1`` to build with bounds checks and C assertions on.
On an x86-64 machine the build uses the popcount and BMI2 bit gather/scatter
instructions that the CPU has (the search counts cards, groups equal cards
and makes table keys with them), except BMI2 on AMD processors before Zen 3;
``KOSOLVE_PORTABLE=1`` builds plain C instead.
"""

import os
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
DEBUG = os.environ.get("KOSOLVE_DEBUG", "") not in ("", "0")
PORTABLE = os.environ.get("KOSOLVE_PORTABLE", "") not in ("", "0")


def cpu_fields() -> dict[str, str]:
    """The first processor's fields in /proc/cpuinfo (none elsewhere)."""
    fields: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if not line.strip():
                    break
                name, _, value = line.partition(":")
                fields[name.strip()] = value.strip()
    except OSError:
        pass
    return fields


def cpu_flags() -> set[str]:
    """The instruction-set flags the build may use.  AMD processors before
    Zen 3 (family 25) have BMI2, but their bit gather and scatter run in
    microcode, a step per bit of the mask, no faster than the plain-C loops
    (by published instruction tables; not measured here)."""
    fields = cpu_fields()
    flags = set(fields.get("flags", "").split())
    family = fields.get("cpu family", "")
    if fields.get("vendor_id") == "AuthenticAMD" and family.isdigit() and int(family) < 25:
        flags.discard("bmi2")
    return flags


def cython_include_dir() -> str:
    include = HERE / "build" / "cython-include"
    link = include / "kosolve"
    include.mkdir(parents=True, exist_ok=True)
    if not link.exists():
        link.symlink_to(HERE / "solver", target_is_directory=True)
    return str(include)


DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "nonecheck": DEBUG,
}

if sys.platform == "win32":
    compile_args = ["/O2"]
else:
    # -pthread: the searches of one position may run on several threads (_threads.pxd).
    compile_args = ["-O3", "-pthread"] + ([] if not DEBUG else ["-UNDEBUG", "-O1", "-g"])
    if not PORTABLE:
        compile_args += [f"-m{flag}" for flag in ("popcnt", "bmi2") if flag in cpu_flags()]
link_args = [] if sys.platform == "win32" else ["-pthread"]

extensions = [
    Extension(
        f"kosolve.engine.{name}",
        [f"solver/engine/{name}.pyx"],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
    )
    # _testing: the tests' views of the C pieces, kept out of the production extensions.
    for name in ("_table", "_search", "_score", "_testing")
]
SUBPACKAGES = (
    "model",
    "schemas",
    "dealing",
    "engine",
    "analysis",
    "sampling",
    "review",
    "render",
    "tools",
    "batch",
    "play",
    "env",
    "web",
    "stats",
)

setup(
    package_dir={"kosolve": "solver", "kosolve.cli": "cli"},
    packages=["kosolve", *(f"kosolve.{name}" for name in SUBPACKAGES), "kosolve.cli"],
    package_data={
        "kosolve": ["py.typed"],
        "kosolve.engine": ["*.pxd", "*.pyx", "*.pyi"],
        "kosolve.web": ["static/*.html", "static/*.css", "static/*.js"],
        "kosolve.schemas": ["*.schema.json"],
    },
    ext_modules=cythonize(
        extensions,
        include_path=[cython_include_dir()],
        compiler_directives=DIRECTIVES,
        annotate=False,
    ),
)
