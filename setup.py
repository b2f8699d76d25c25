"""Installs the Python package `boneyard` (docs/python.md) offline, with
setuptools and pybind11 (Debian: python3-setuptools, python3-pybind11,
pybind11-dev, libfmt-dev, nlohmann-json3-dev):

    /usr/bin/python3 -m pip install --no-build-isolation .

It compiles the engine's sources (src/, without the CLI) and the bindings
(python/src/) into one extension module, boneyard._boneyard.
"""
import glob
import os

from setuptools import Extension, setup

try:
    import pybind11

    PYBIND_INCLUDE = [pybind11.get_include()]
except ImportError:  # Debian's pybind11-dev puts the headers in /usr/include
    PYBIND_INCLUDE = []

HERE = os.path.dirname(os.path.abspath(__file__))
GAMES = ["line", "mexican_train", "texas42", "dice_dominoes"]


def rel(paths):
    return sorted(os.path.relpath(p, HERE) for p in paths)


sources = rel(glob.glob(os.path.join(HERE, "src", "core", "*.cpp")) + glob.glob(os.path.join(HERE, "src", "bots", "*.cpp")))
for g in GAMES:
    sources += rel(glob.glob(os.path.join(HERE, "src", g, "*.cpp")))
sources += rel(glob.glob(os.path.join(HERE, "src", "record", "*.cpp")))
sources += ["src/games.cpp"] + rel(glob.glob(os.path.join(HERE, "python", "src", "*.cpp")))

ext = Extension(
    "boneyard._boneyard",
    sources=sources,
    include_dirs=["src"] + PYBIND_INCLUDE,
    define_macros=[(f"BONEYARD_HAS_{g.upper()}", "1") for g in GAMES],
    extra_compile_args=["-std=c++20", "-O2", "-fvisibility=hidden"],
    libraries=["fmt"],
    language="c++",
)

setup(
    name="boneyard",
    version="0.1.0",
    description="Domino games engine: an OpenSpiel-style API, tensors and fast batches",
    packages=["boneyard"],
    package_dir={"boneyard": "python/boneyard"},
    ext_modules=[ext],
    python_requires=">=3.9",
    install_requires=["numpy"],
    zip_safe=False,
)
