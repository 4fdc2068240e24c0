"""The hot loop of the timed FIFO simulation: issue every process's accesses in order, as far as they can go.

A worklist over processes. A process runs its accesses until one waits on an access of another process
that has not issued yet; it then parks on that process's wait list and is woken when that process
issues anything. Each access is issued exactly once and each wake-up follows an issue, so the work is
O(accesses + wake-ups). The constraint of access i is the issue time of `partner[i]` plus
FIFO_LATENCY (the FIFO's write -> read or read -> write latency); `partner[i] == NO_PARTNER` means unconstrained,
`NEVER` means the partner access does not exist (the process blocks there forever).

Accesses of one pipeline stage issue together (`group_end[i]`, the end of the group starting at i): the
stage stalls as a whole until every access in it can go, as a stalled Vitis pipeline does; each access
outside such a group is a group of its own.

The loop is plain Python over flat int64 arrays so that numba can compile it (the `fast` extra): about
10^8 accesses per second compiled; without numba the same function runs on Python lists (~10^6/s).
"""

from __future__ import annotations

from typing import Any

import numpy as np

# Cycles from a write to the read of that item, and from a read to the write that reuses its slot. 1 is
# LightningSim's figure for shift-register FIFOs (it uses 2 for RAM FIFOs); kept at 1 for every FIFO so
# that timing stays monotone in depth when a deeper FIFO moves from SRL to RAM (a model choice).
FIFO_LATENCY = 1
NO_PARTNER = -1
NEVER = -2
NOT_FINISHED = -1


def issue_all(off: Any, nominal: Any, partner: Any, proc_of: Any, tail: Any, succ_off: Any, succ: Any,
              pending: Any, group_end: Any, times: Any, ptr: Any, shift: Any, finish: Any, wait_head: Any,
              wait_next: Any, wait_for: Any, stack: Any, top: int) -> None:
    """Fill `times` (issue cycle per access), `ptr` (next unissued access per process), `shift` (stall
    shift per process, start included) and `finish` (end cycle, NOT_FINISHED when blocked). `pending[p]`
    counts the processes that must end before p starts (`succ` lists, per process, those waiting on it).
    Work arrays arrive as `seed` leaves them: the first `top` entries of `stack` are ready to run."""
    while top > 0:
        top -= 1
        p = stack[top]
        i, stop, s = ptr[p], off[p + 1], shift[p]
        first = i
        while i < stop:
            end, g, m = group_end[i], s, i
            while m < end:  # every access of the stage must be able to go before any goes
                j = partner[m]
                if j >= 0:
                    q = proc_of[j]
                    if ptr[q] <= j:  # the partner access has not issued: park on q until it has
                        wait_next[p] = wait_head[q]
                        wait_head[q] = p
                        wait_for[p] = j
                        break
                    c = times[j] + FIFO_LATENCY - nominal[m]
                    if c > g:
                        g = c
                elif j == NEVER:
                    break
                m += 1
            if m < end:
                break
            s = g
            while i < end:
                times[i] = nominal[i] + s
                i += 1
        ptr[p] = i
        shift[p] = s
        if i > first:  # wake the processes whose awaited access of p has now issued, keep the others
            w = wait_head[p]
            wait_head[p] = -1
            while w >= 0:
                after_w = wait_next[w]
                if wait_for[w] < i:
                    stack[top] = w
                    top += 1
                else:
                    wait_next[w] = wait_head[p]
                    wait_head[p] = w
                w = after_w
        if i == stop:
            finish[p] = s + tail[p]
            for k in range(succ_off[p], succ_off[p + 1]):
                r = succ[k]
                pending[r] -= 1
                if finish[p] > shift[r]:
                    shift[r] = finish[p]
                if pending[r] == 0:
                    stack[top] = r
                    top += 1


_COMPILED: Any = None
# Loading numba and the cached compiled loop costs about a second; the plain loop does ~3x10^5 accesses
# per second. Below this much work (accesses x expected runs) the plain loop finishes first.
COMPILE_WORTH = 300_000


def _kernel() -> tuple[Any, bool]:
    """The numba-compiled loop when numba is installed (cached on disk), else the Python function."""
    global _COMPILED
    if _COMPILED is None:
        try:
            import numba
        except (ImportError, OSError):  # not installed, or built for another numpy / llvmlite
            _COMPILED = False
        else:
            try:
                _COMPILED = numba.njit(cache=True, nogil=True)(issue_all)
            except RuntimeError:  # no writable cache directory: compile in every process instead
                _COMPILED = numba.njit(nogil=True)(issue_all)
    return (_COMPILED, True) if _COMPILED is not False else (issue_all, False)


def run(off: np.ndarray, nominal: np.ndarray, partner: np.ndarray, proc_of: np.ndarray, tail: np.ndarray,
        succ_off: np.ndarray, succ: np.ndarray, pending: np.ndarray, python: bool | None = None,
        work: int = 0, group_end: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Run the loop; returns (times, ptr, shift, finish) as int64 arrays. `python`: True forces the plain
    loop, False the compiled one when numba is there, None picks by `work` (accesses over all the runs
    the caller expects) unless the compiled loop is loaded already."""
    if python is None:
        python = _COMPILED is None and max(work, len(nominal)) < COMPILE_WORTH
    kernel, compiled = (issue_all, False) if python else _kernel()
    state, top = seed(off, len(nominal), pending)
    if group_end is None:
        group_end = np.arange(1, len(nominal) + 1, dtype=np.int64)
    args = [off, nominal, partner, proc_of, tail, succ_off, succ, pending.copy(), group_end, *state]
    if not compiled:  # the plain loop runs much faster on lists than on numpy scalars
        args = [a.tolist() for a in args]
    kernel(*args, top)
    return tuple(np.asarray(a, dtype=np.int64) for a in args[9:13])  # type: ignore[return-value]


def seed(off: np.ndarray, accesses: int, pending: np.ndarray) -> tuple[list[np.ndarray], int]:
    """The work arrays before the loop (times, ptr, shift, finish, wait_head, wait_next, wait_for, stack):
    every process at its first access, unshifted, unfinished and waiting on nothing; the processes with
    nothing pending on the stack. Returns them and the stack's height."""
    processes = len(off) - 1
    ready = np.flatnonzero(pending == 0)
    stack = np.zeros(processes, np.int64)
    stack[:len(ready)] = ready
    state = [np.zeros(accesses, np.int64), off[:-1].astype(np.int64), np.zeros(processes, np.int64),
             np.full(processes, NOT_FINISHED, np.int64), np.full(processes, -1, np.int64),
             np.zeros(processes, np.int64), np.zeros(processes, np.int64), stack]
    return state, len(ready)
