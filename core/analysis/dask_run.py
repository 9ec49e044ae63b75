"""Shards on a Dask cluster: the ``--scheduler`` side of :func:`core.analysis.stream.run_shards`.

The shard functions and their tasks are the same plain, picklable ones the local workers run; the cluster's
workers need this package importable and the same tokenizer files. A scheduler nobody listens at is refused at
once, and the cluster's own failures become one :class:`ClusterError` line. It imports nothing of ``stream``
(which calls it): the chunks are whatever the caller cuts, and the caller says how many may be in flight.
"""
from __future__ import annotations

from collections import deque
from typing import Callable, Iterable, Iterator, TypeVar

from ..text.errors import UserError

T = TypeVar("T")
C = TypeVar("C")
R = TypeVar("R")


class ClusterError(UserError):
    """The cluster cannot be reached or failed on a chunk: one line for the user, as every streaming error."""


def refused_at_once(address: str) -> None:
    """Raise :class:`ClusterError` at once when nothing listens at a ``tcp://host:port`` scheduler address.

    ``distributed.Client`` retries a refused connection until its timeout (10 s); a port with nothing behind
    it answers a plain connect with a refusal in milliseconds, so the user hears of a typo straight away.
    Any other outcome (a listener, a slow network, another protocol) is left to the client.
    """
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(address if "://" in address else f"tcp://{address}")
        host, port = parts.hostname, parts.port
    except ValueError:
        return
    if parts.scheme != "tcp" or not host or port is None:
        return
    import socket

    try:
        socket.create_connection((host, port), timeout=3).close()
    except ConnectionRefusedError:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: nothing listens there "
                           "(connection refused)") from None
    except OSError:
        return


def run_dask(fn: Callable[[T, C], R], task: T, chunks: Iterable[C], address: str, *,
             in_flight: int) -> Iterator[tuple[C, R]]:
    """``(chunk, fn(task, chunk))`` in the chunks' order, computed on the scheduler at ``address``, with at most
    ``in_flight`` chunks per worker submitted ahead of the one being yielded."""
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - pinned in requirements.txt
        raise ClusterError("--scheduler needs the 'distributed' package (pip install distributed)") from None
    refused_at_once(address)
    try:
        client = Client(address, timeout=10, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {str(exc).splitlines()[0][:160]}") from None

    def result(f):  # noqa: ANN001, ANN202 - a distributed.Future
        try:
            return f.result()
        except (ValueError, OSError):  # the shard's own one-line errors (bad text, limits)
            raise
        except Exception as exc:  # noqa: BLE001 - the cluster's: workers that cannot import core, lost workers
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
            raise ClusterError(f"the Dask cluster at {address} failed on a chunk ({first}); its scheduler and workers "
                               "need this package importable (PYTHONPATH) and the same tokenizer files") from None

    try:
        n = max(1, len(client.scheduler_info().get("workers", {})))
        window = n * in_flight
        pending: deque = deque()
        for c in chunks:
            pending.append((c, client.submit(fn, task, c, pure=False)))
            if len(pending) >= window:
                c0, f = pending.popleft()
                yield c0, result(f)
        while pending:
            c0, f = pending.popleft()
            yield c0, result(f)
    finally:
        client.close()
