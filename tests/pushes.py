"""What a change pushed, read two ways: a sender that records (most tests: no channel
layer, nothing to wait for), and a channel in a group of the real layer (the tests of
delivery itself, on whichever layer the run has)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from typing import Any

from channels.layers import get_channel_layer

from tables import live


class Recorder:
    """The scheduler's sender in a test: every push it was handed, in order."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def send(self, group: str, message: dict[str, Any]) -> None:
        self.sent.append((group, message))

    def to(self, group: str) -> list[str]:
        """The HTML pushed to ``group`` so far."""
        return [message["html"] for to, message in self.sent if to == group]

    def taken(self, group: str) -> list[str]:
        """The HTML pushed to ``group`` since the last time it was taken."""
        html = self.to(group)
        self.sent[:] = [(to, message) for to, message in self.sent if to != group]
        return html


def page_opens(*groups: str) -> None:
    """A page of each group opens somewhere: its server marks the group watched."""
    live.scheduler().ledger.mark(list(groups))


class Listener:
    """A channel in a group of the configured layer, and the messages it receives. Redis
    pub/sub binds a channel to the event loop that made it, so the channel lives on a
    loop of its own in a thread, collecting as messages come."""

    def __init__(self, group: str) -> None:
        self.layer, self.group = get_channel_layer(), group
        self.received: list[dict[str, Any]] = []
        self.arrived = threading.Condition()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.channel = self._run(self._join(group))

    def _run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=10)

    async def _join(self, group: str) -> str:
        self.channel = await self.layer.new_channel()
        await self.layer.group_add(group, self.channel)
        await live.scheduler().ledger.amark([group])  # as a process's first page of the group does
        self.collecting = asyncio.create_task(self._collect())
        return self.channel

    async def _collect(self) -> None:
        while True:
            message = await self.layer.receive(self.channel)
            with self.arrived:
                self.received.append(message)
                self.arrived.notify_all()

    def take(self, count: int, timeout: float = 10) -> list[dict[str, Any]]:
        """The first ``count`` messages not taken yet, once they have arrived."""
        deadline = time.monotonic() + timeout
        with self.arrived:
            while len(self.received) < count:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{len(self.received)} of {count} messages arrived")
                # The in-memory layer hands messages over without waking the loop: nudge it.
                self.loop.call_soon_threadsafe(lambda: None)
                self.arrived.wait(timeout=0.05)
            taken, self.received[:] = self.received[:count], self.received[count:]
        return taken

    async def _stop(self) -> None:
        self.collecting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.collecting
        await self.layer.flush()  # closes its connections on this loop

    def close(self) -> None:
        self._run(self._stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
        self.loop.close()
