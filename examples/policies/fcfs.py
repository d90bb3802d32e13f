#!/usr/bin/env python3
"""First come, first served, as an external policy for swfsim.

    swfsim --policy exec --exec 'python3 examples/policies/fcfs.py' trace.swf

Speaks protocol 1 of docs/swfsim-external.md on standard input and output:
jobs start in arrival order while they fit in the free processors; nothing
starts behind the first one that does not fit. It makes the same schedule as
swfsim --policy fcfs. Python 3, standard library only.
"""

import collections
import json
import sys


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    queue = collections.deque()  # (id, processors) of waiting jobs, arrival order
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            if msg["protocol"] != 1:
                sys.exit("fcfs.py: protocol %s, want 1" % msg["protocol"])
            send({"protocol": 1, "note": "fcfs.py: first come first served, no backfilling"})
        elif kind == "round":
            for job in msg["arrived"]:
                queue.append((job["id"], job["procs"]))
            free = msg["free"]
            start = []
            while queue and queue[0][1] <= free:
                job_id, procs = queue.popleft()
                start.append(job_id)
                free -= procs
            send({"start": start})
        elif kind == "end":
            return 0
    sys.exit("fcfs.py: input ended before the final message")


if __name__ == "__main__":
    sys.exit(main())
