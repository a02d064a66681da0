"""Builds the optional compiled core of the passages search engine (twisty/solver/_passages_core.c).

Everything else is in pyproject.toml. The extension is optional: where no C compiler is at hand the build
goes on without it and the search engine runs its Python search, which gives the same answers (slower).
"""

from setuptools import Extension, setup

# -pthread: the search's helper thread (passages_search.search's `threads`).
setup(ext_modules=[Extension("twisty.solver._passages_core", ["twisty/solver/_passages_core.c"],
                             extra_compile_args=["-O2", "-pthread"], extra_link_args=["-pthread"],
                             optional=True)])
