"""uvicorn's websocket protocol, compressing each pushed message once per process
instead of once per connection.

A push goes to every page open on a table, hundreds of them at a busy one. uvicorn
deflates each send with the connection's own compressor, so a 60 KiB fragment was
deflated again for every connection, and at a few thousand pages that alone needed
more cores than the machine has. Here the server asks for ``server_no_context_takeover``
(RFC 7692: every message is compressed from a fresh state, which every client must
accept), so the same message always compresses to the same bytes; those bytes are kept
for the next connection that sends the same message. Clients decode as before.

    uvicorn config.asgi:application --ws config.websocket:SharedDeflateProtocol
"""

from __future__ import annotations

import zlib
from collections import OrderedDict
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import CTRL_OPCODES, Frame, Opcode
from websockets.server import ServerProtocol

# uvicorn's own settings: a 4 KiB window and a small memory level keep each
# connection's decompressor (and our compressor) small.
WINDOW_BITS = 12
COMPRESS_SETTINGS = {"memLevel": 5}
KEPT = 64  # compressed messages kept: a few pushes of every table and the lobby


class SharedDeflate(PerMessageDeflate):
    """permessage-deflate whose whole outgoing messages come from a shared cache."""

    _kept: OrderedDict[tuple[int, bytes], bytes] = OrderedDict()  # (window bits, data) -> deflated

    def encode(self, frame: Frame) -> Frame:
        if frame.opcode in CTRL_OPCODES or frame.opcode is Opcode.CONT or not frame.fin:
            return super().encode(frame)
        key = (self.local_max_window_bits, bytes(frame.data))
        data = self._kept.get(key)
        if data is None:
            encoder = zlib.compressobj(wbits=-self.local_max_window_bits, **self.compress_settings)
            data = (encoder.compress(key[1]) + encoder.flush(zlib.Z_SYNC_FLUSH))[:-4]  # RFC 7692 7.2.1
            self._kept[key] = data
            if len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        else:
            self._kept.move_to_end(key)
        return Frame(frame.opcode, data, frame.fin, True, frame.rsv2, frame.rsv3)


class SharedDeflateFactory(ServerPerMessageDeflateFactory):
    """Offers permessage-deflate without server context takeover, encoded by :class:`SharedDeflate`."""

    def __init__(self) -> None:
        super().__init__(
            server_no_context_takeover=True,
            server_max_window_bits=WINDOW_BITS,
            client_max_window_bits=WINDOW_BITS,
            compress_settings=COMPRESS_SETTINGS,
        )

    def process_request_params(self, params: Any, accepted_extensions: Any) -> tuple[Any, Extension]:
        response, negotiated = super().process_request_params(params, accepted_extensions)
        assert isinstance(negotiated, PerMessageDeflate) and negotiated.local_no_context_takeover
        shared = SharedDeflate(
            negotiated.remote_no_context_takeover,
            negotiated.local_no_context_takeover,
            negotiated.remote_max_window_bits,
            negotiated.local_max_window_bits,
            negotiated.compress_settings,
        )
        return response, shared


class SharedDeflateProtocol(WebSocketsSansIOProtocol):
    """uvicorn's default websocket protocol with :class:`SharedDeflateFactory`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn = ServerProtocol(
                extensions=[SharedDeflateFactory()],
                max_size=self.config.ws_max_size,
                logger=self.conn.logger,
            )
