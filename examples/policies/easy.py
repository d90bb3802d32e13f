#!/usr/bin/env python3
"""EASY backfilling, as an external policy for swfsim.

    swfsim --policy exec --exec 'python3 examples/policies/easy.py' trace.swf

Speaks protocol 1 of docs/swfsim-external.md on standard input and output and
makes the same schedule as swfsim --policy easy (pkg/policy/easy.go), so it
follows the same rules exactly:

  - jobs start in arrival order while they fit in the free processors;
  - the first that does not fit (the head) gets the only reservation, at its
    shadow time: walking the running jobs by (start + estimate, id), the first
    end at which the head's processors are free; an end at or before now
    (a job outliving its estimate under --no-kill) counts as now + 1, and
    every job ending exactly at the shadow time counts towards the extra
    processors (those free then beyond the head's need);
  - each later job, in arrival order, that fits now starts if it ends by the
    shadow time (now + estimate <= shadow), or else if it needs no more than
    the extra processors, which it then uses up.

The shadow time is computed once per round, after the jobs at the front
started. The first rule is start_head's (docs/swfsim-external.md), so easy.py
asks the engine to apply it: a message then comes only when a job could
backfill, and says which jobs the engine started. Python 3, standard library
only.
"""

import bisect
import json
import sys


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


class Easy:
    def __init__(self):
        self.jobs = {}      # id -> (processors, estimate) of waiting and running jobs
        self.queue = []     # ids of waiting jobs, arrival order
        self.running = []   # (planned end, id, processors), sorted
        self.planned = {}   # id -> planned end of a running job

    def arrive(self, job):
        self.jobs[job["id"]] = (job["procs"], job["estimate"])
        self.queue.append(job["id"])

    def end(self, job_id):
        entry = (self.planned.pop(job_id), job_id, self.jobs.pop(job_id)[0])
        i = bisect.bisect_left(self.running, entry)
        del self.running[i]

    def begun(self, at, job_id):
        """The engine started job_id at time at (start_head): it leaves the queue."""
        self.queue.remove(job_id)
        procs, estimate = self.jobs[job_id]
        self.planned[job_id] = at + estimate
        bisect.insort(self.running, (at + estimate, job_id, procs))

    def start(self, now, job_id, started):
        procs, estimate = self.jobs[job_id]
        self.planned[job_id] = now + estimate
        bisect.insort(self.running, (now + estimate, job_id, procs))
        started.append(job_id)

    def shadow(self, now, free, need):
        """The head's shadow time and the extra processors then."""
        avail = free
        run = self.running
        k = 0
        while k < len(run):
            avail += run[k][2]
            if avail >= need:
                t = max(run[k][0], now + 1)
                while k + 1 < len(run) and max(run[k + 1][0], now + 1) == t:
                    k += 1
                    avail += run[k][2]
                return t, avail - need
            k += 1
        raise RuntimeError("easy.py: job wider than the machine")

    def schedule(self, now, free):
        started = []
        queue = self.queue
        i = 0
        while i < len(queue) and self.jobs[queue[i]][0] <= free:
            self.start(now, queue[i], started)
            free -= self.jobs[queue[i]][0]
            i += 1
        queue = queue[i:]
        if queue:
            shadow, extra = self.shadow(now, free, self.jobs[queue[0]][0])
            kept = [queue[0]]
            for job_id in queue[1:]:
                procs, estimate = self.jobs[job_id]
                if procs <= free and estimate <= shadow - now:
                    self.start(now, job_id, started)
                    free -= procs
                elif procs <= free and procs <= extra:
                    self.start(now, job_id, started)
                    free -= procs
                    extra -= procs
                else:
                    kept.append(job_id)
            queue = kept
        self.queue = queue
        return started


def serve(policy, note, start_head=False):
    """Answers the engine on stdin/stdout with policy (an Easy) until the end.

    start_head asks the engine to start the queue's head while it fits, which
    is right only for a policy whose queue is in arrival order."""
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            if msg["protocol"] != 1:
                sys.exit("%s: protocol %s, want 1" % (note, msg["protocol"]))
            if start_head and "start_head" not in msg["supports"]:
                sys.exit("%s: this swfsim does not support start_head" % note)
            reply = {"protocol": 1, "note": note}
            if start_head:
                reply["start_head"] = True
            send(reply)
        elif kind == "round":
            # Arrivals, then the engine's starts, then the ends: a job can
            # arrive, start and end between two messages.
            for job in msg["arrived"]:
                policy.arrive(job)
            for ev in msg.get("started", ()):
                policy.begun(ev["time"], ev["id"])
            for ev in msg["ended"]:
                policy.end(ev["id"])
            for ev in msg["killed"]:
                policy.end(ev["id"])
            send({"start": policy.schedule(msg["time"], msg["free"])})
        elif kind == "end":
            return 0
    sys.exit("%s: input ended before the final message" % note)


if __name__ == "__main__":
    sys.exit(serve(Easy(), "easy.py: EASY backfilling, the rules of swfsim --policy easy", start_head=True))
