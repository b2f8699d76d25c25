"""Installs the Python package `boneyard` (docs/python.md, Installing)
offline, with setuptools and pybind11 (Debian: python3-setuptools,
python3-pybind11, pybind11-dev, libfmt-dev, nlohmann-json3-dev, libzstd-dev,
python3-venv). Debian's python refuses a system-wide pip install (PEP 668),
so install into a virtual environment that sees Debian's numpy:

    /usr/bin/python3 -m venv --system-site-packages ~/.venvs/boneyard
    ~/.venvs/boneyard/bin/pip install --no-build-isolation .

It compiles the engine's sources (src/, without the CLI and the server) and
the bindings (python/src/) into one extension module, boneyard._boneyard,
on every core. BONEYARD_PREBUILT=<cmake build dir> links that build's
static libraries instead of compiling the engine again (the same sources,
built with -fPIC; ctest's python_install test uses it).

The extension is compiled with the CMake Release build's flags (-O2
-march=x86-64-v2 -DNDEBUG), without debug information, and linked stripped.
Its intermediate files go to a temporary folder that is removed afterwards,
never to build/ in the sources (the folder the CMake build uses).
"""
import atexit
import glob
import os
import shutil
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

try:
    import pybind11

    PYBIND_INCLUDE = [pybind11.get_include()]
except ImportError:  # Debian's pybind11-dev puts the headers in /usr/include
    PYBIND_INCLUDE = []

HERE = os.path.dirname(os.path.abspath(__file__))
# Every src/<folder>/ with a register.cpp is a game (CMakeLists.txt builds it the same way).
GAMES = sorted(os.path.basename(os.path.dirname(p)) for p in glob.glob(os.path.join(HERE, "src", "*", "register.cpp")))


def rel(paths):
    return sorted(os.path.relpath(p, HERE) for p in paths)


PREBUILT = os.environ.get("BONEYARD_PREBUILT")
BINDINGS = rel(glob.glob(os.path.join(HERE, "python", "src", "*.cpp")))

if PREBUILT:
    # The CMake build's static libraries, most dependent first.
    # The game libraries twice: one may use another's engine (its file `uses`).
    libs = ["boneyard_research", "boneyard_lib"] + [f"boneyard_{g}" for g in GAMES] * 2 + ["boneyard_core"]
    archives = [os.path.join(os.path.abspath(PREBUILT), f"lib{name}.a") for name in libs]
    for a in archives:
        if not os.path.exists(a):
            raise SystemExit(f"BONEYARD_PREBUILT: {a} is missing (build the CMake targets first)")
    sources, extra_objects = BINDINGS, archives
else:
    sources = rel(glob.glob(os.path.join(HERE, "src", "core", "*.cpp")) + glob.glob(os.path.join(HERE, "src", "bots", "*.cpp")))
    for g in GAMES:
        sources += rel(glob.glob(os.path.join(HERE, "src", g, "*.cpp")))
    sources += rel(glob.glob(os.path.join(HERE, "src", "record", "*.cpp")))
    sources += rel(glob.glob(os.path.join(HERE, "src", "research", "*.cpp")))
    sources += ["src/games.cpp"] + BINDINGS
    extra_objects = []

# Every folder's OpenSpiel factory (src/<folder>/spiel.cpp), listed for
# src/research/spiel.cpp as CMakeLists.txt lists them.
GENERATED = tempfile.mkdtemp(prefix="boneyard-generated-")
atexit.register(shutil.rmtree, GENERATED, True)
with open(os.path.join(GENERATED, "spiel_families.inc"), "w") as f:
    for p in sorted(glob.glob(os.path.join(HERE, "src", "*", "spiel.cpp"))):
        if os.path.basename(os.path.dirname(p)) != "research":
            f.write(f"BONEYARD_SPIEL({os.path.basename(os.path.dirname(p))})\n")


try:
    from setuptools.command.build import build as _build
except ImportError:  # setuptools < 62.4
    from distutils.command.build import build as _build


class OutOfTreeBuild(_build):
    """Builds in a temporary folder (removed at exit) unless --build-base is
    given: setuptools' default, build/, is the CMake build's folder."""

    def initialize_options(self):
        super().initialize_options()
        tmp = tempfile.mkdtemp(prefix="boneyard-setup-")
        atexit.register(shutil.rmtree, tmp, True)
        self.build_base = tmp


class ParallelBuildExt(build_ext):
    """Compiles the sources on every core (pip gives no -j)."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1


ext = Extension(
    "boneyard._boneyard",
    sources=sources,
    include_dirs=["src", GENERATED] + PYBIND_INCLUDE,
    # The CMake Release build's flags; -g0 after Python's own -g.
    extra_compile_args=["-std=c++20", "-O2", "-march=x86-64-v2", "-DNDEBUG", "-g0", "-fvisibility=hidden"],
    extra_link_args=["-s"],
    extra_objects=extra_objects,
    # zstd: the record reader's compressed shards (src/record/zstd_io.cpp).
    libraries=["fmt", "zstd", "pthread"],
    language="c++",
)

setup(
    name="boneyard",
    version="0.1.0",
    description="Domino games engine: an OpenSpiel-style API, tensors and fast batches",
    packages=["boneyard"],
    package_dir={"boneyard": "python/boneyard"},
    ext_modules=[ext],
    cmdclass={"build": OutOfTreeBuild, "build_ext": ParallelBuildExt},
    python_requires=">=3.9",
    install_requires=["numpy"],
    zip_safe=False,
)
