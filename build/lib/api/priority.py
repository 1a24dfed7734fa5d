"""The API process's scheduling priority: it answers people, so it goes before the judging.

On Linux a niceness belongs to a thread, not to the process, and a new thread inherits its
creator's: every thread that exists is set here, and the threads the event loop starts later
(the route thread pool) inherit it from the event loop's thread.
"""

from __future__ import annotations

import contextlib
import logging
import os

log = logging.getLogger(__name__)


def raise_to(niceness: int) -> bool:
    """Run every thread of this process at ``niceness`` if it is higher than now (a lower
    number); False, with a log line, where the process may not (no root, no CAP_SYS_NICE)."""
    if niceness >= os.getpriority(os.PRIO_PROCESS, 0):
        return True
    try:
        threads = [int(tid) for tid in os.listdir("/proc/self/task")]
    except OSError:
        threads = [0]  # no /proc: the calling thread alone
    try:
        for tid in threads:
            with contextlib.suppress(ProcessLookupError):  # a thread that has ended since
                os.setpriority(os.PRIO_PROCESS, tid, niceness)
    except PermissionError:
        log.info("the API keeps niceness %d: raising it to %d needs root or CAP_SYS_NICE "
                 "(JUDGE_API_NICENESS)", os.getpriority(os.PRIO_PROCESS, 0), niceness)
        return False
    return True
