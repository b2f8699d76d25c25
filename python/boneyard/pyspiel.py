"""`from boneyard import pyspiel`: the package under OpenSpiel's module name,
for code written against pyspiel (docs/python.md, Coming from OpenSpiel).

OpenSpiel's own modules say `import pyspiel`. `install()` makes that import
give this module, once, and only when no real OpenSpiel is installed:

    from boneyard import pyspiel
    pyspiel.install()
    from open_spiel.python.algorithms import mcts  # its `import pyspiel` is boneyard's
"""
import importlib.util as _importlib_util
import sys as _sys

from . import *  # noqa: F401,F403
from . import __all__  # noqa: F401
from ._compat import _Observation  # noqa: F401  (open_spiel.python.observation uses it)


def install():
    """Registers this module as `pyspiel` (sys.modules) so that OpenSpiel's
    Python modules find boneyard's games. Never shadows a real OpenSpiel:
    if a `pyspiel` other than this one is imported or importable, raises
    ImportError naming it and changes nothing. Returns this module; a second
    call does nothing."""
    me = _sys.modules[__name__]
    present = _sys.modules.get("pyspiel")
    if present is me:
        return me
    if present is not None:
        raise ImportError(f"a pyspiel is already imported ({getattr(present, '__file__', present)!s}); "
                          "boneyard does not replace it")
    spec = _importlib_util.find_spec("pyspiel")
    if spec is not None:
        raise ImportError(f"OpenSpiel's pyspiel is installed ({spec.origin}); boneyard does not shadow it: "
                          "use `from boneyard import pyspiel` in your own code, or a virtual environment "
                          "without OpenSpiel's pyspiel")
    _sys.modules["pyspiel"] = me
    return me
