"""Builds the optional compiled core of the passages search engine (twisty/solver/_passages_core.c).

Everything else is in pyproject.toml. The extension is optional: where no C compiler is at hand the build
goes on without it, passages_search.COMPILED_AVAILABLE is False, and every passages question goes to the
reference engine (twisty/solver/passages_reference.py), which gives the same answers, slower. The core is
portable C11 with POSIX threads (Linux, macOS); .ci/compile-core checks it with -std=c11 -Wall -Wextra -Werror.
"""

from setuptools import Extension, setup

# -pthread: the search's helper thread (passages_search.search's `threads`).
setup(ext_modules=[Extension("twisty.solver._passages_core", ["twisty/solver/_passages_core.c"],
                             extra_compile_args=["-std=c11", "-O2", "-pthread"], extra_link_args=["-pthread"],
                             optional=True)])
