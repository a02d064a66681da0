"""Loaded once by the fork server of the page's verdict workers (twisty.serve.verdicts.PRELOAD): matplotlib
and a first drawing with text, so that each worker starts with its modules imported and its fonts read
instead of spending a part of its verdict's deadline on them."""

from __future__ import annotations

import io
import logging
import warnings


def _draw_once() -> None:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:  # pictures are an extra; verdicts go on without them
        return
    import matplotlib.backends.backend_svg  # noqa: F401
    import matplotlib.collections  # noqa: F401
    import matplotlib.legend  # noqa: F401

    logging.getLogger("matplotlib").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        figure = Figure(figsize=(1, 1))
        FigureCanvasAgg(figure)
        figure.text(0.5, 0.5, "twisty 0123456789", weight="bold")
        figure.savefig(io.BytesIO(), format="png")
        figure.savefig(io.BytesIO(), format="svg")


_draw_once()
