"""The compiled core of the passages search engine is built wherever a C compiler is at hand.

The core is optional (setup.py: a machine without a compiler installs without it, and the search engine then
hands every question to the reference engine). But a build that failed quietly where a compiler exists would
turn every test of the core into a skip, and every comparison of the search engine with the reference engine
into a comparison of the reference engine with itself: this test fails that run instead.
"""

from __future__ import annotations

import os
import shutil
import sysconfig

import pytest

from twisty.solver import passages_search


def c_compiler() -> str | None:
    """The compiler a build of the extension would call ($CC, else Python's own CC, else cc), if present."""
    configured = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(configured.split()[0])


def test_the_compiled_core_is_built_where_a_c_compiler_is():
    compiler = c_compiler()
    if compiler is None:
        pytest.skip("no C compiler here: the core is optional, and the reference engine answers instead")
    assert passages_search.COMPILED_AVAILABLE, (
        f"a C compiler is here ({compiler}) but the compiled core is not built: "
        "python setup.py build_ext --inplace (or pip install -e .) builds twisty/solver/_passages_core"
    )
