#!/usr/bin/env python3
"""Smallest area first with EASY backfilling, as an external policy for swfsim.

    swfsim --policy exec --exec 'python3 examples/policies/saf.py' trace.swf

The waiting queue is ordered by area, processors x estimate, smallest first
(ties: submit time, then file order), and EASY backfilling runs over that
order: the first job in it that does not fit gets the reservation. This is the
external-program example of docs/adding-a-policy.md; the Go example there is
the same policy, and the tests require both to make the same schedule.
Python 3, standard library only (easy.py beside this file).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import easy  # noqa: E402


class SmallestAreaFirst(easy.Easy):
    def __init__(self):
        super().__init__()
        self.area = {}

    def arrive(self, job):
        super().arrive(job)
        self.area[job["id"]] = job["procs"] * job["estimate"]

    def schedule(self, now, free):
        # A stable sort: equal areas keep arrival order (submit, file order).
        self.queue.sort(key=self.area.__getitem__)
        return super().schedule(now, free)


if __name__ == "__main__":
    sys.exit(easy.serve(SmallestAreaFirst(), "saf.py: smallest area (processors x estimate) first, EASY backfilling"))
