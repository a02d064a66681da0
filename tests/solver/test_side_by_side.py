"""The two-thread race of the passages search ends both searches on an interrupt, wherever it lands."""

from __future__ import annotations

import threading

import pytest

from twisty.solver import passages_search


class InterruptedWhileStarting(threading.Thread):
    """A thread whose start is interrupted (Ctrl-C) just after the thread began to run."""

    def start(self) -> None:
        super().start()
        raise KeyboardInterrupt


def test_an_interrupt_while_the_other_search_starts_stops_it(monkeypatch) -> None:
    stop = threading.Event()
    ran_here: list[bool] = []
    ended: list[bool] = []

    def there() -> None:
        # Stands for the other search: it runs until told to stop (a hang guard of 60 s keeps a failure short).
        ended.append(stop.wait(60))

    monkeypatch.setattr(passages_search.threading, "Thread", InterruptedWhileStarting)
    with pytest.raises(KeyboardInterrupt):
        passages_search._side_by_side(lambda: ran_here.append(True), there, "other", stop)
    assert ran_here == [] and stop.is_set()
    assert ended == [True]  # joined before the interrupt went on, and it ended because it was told to stop
