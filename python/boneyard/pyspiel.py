"""`from boneyard import pyspiel`: the package under OpenSpiel's module name,
for code written against pyspiel (docs/python.md, Coming from OpenSpiel)."""
from . import *  # noqa: F401,F403
from . import __all__  # noqa: F401
