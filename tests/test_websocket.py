"""Pushed messages are deflated once per process, not once per connection, and every
client still decodes them as plain permessage-deflate (RFC 7692)."""

from __future__ import annotations

import random

from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode

from config.websocket import SharedDeflate, SharedDeflateFactory

# A push's shape: repeated markup with differences, longer than the 4 KiB window.
PUSH = "".join(
    f'<g class="bead win-{random.Random(n).choice("BPT")}" transform="translate({n * 20} 10)"><circle r="8.5"/></g>'
    for n in range(600)
).encode()


def negotiate(*params: tuple[str, str | None]) -> SharedDeflate:
    response, extension = SharedDeflateFactory().process_request_params(list(params), [])
    assert ("server_no_context_takeover", None) in response
    assert isinstance(extension, SharedDeflate)
    return extension


def client_decode(frame: Frame, window_bits: int) -> bytes:
    """What a browser's permessage-deflate does with the frame."""
    client = PerMessageDeflate(True, False, window_bits, window_bits)
    return bytes(client.decode(frame, max_size=None).data)


def test_the_same_message_on_two_connections_is_deflated_once_and_decodes_to_itself() -> None:
    first, second = negotiate().encode(Frame(Opcode.TEXT, PUSH)), negotiate().encode(Frame(Opcode.TEXT, PUSH))
    assert first.data is second.data
    assert first.rsv1 and len(first.data) < len(PUSH) / 5
    assert client_decode(first, 12) == client_decode(second, 12) == PUSH


def test_one_connection_sending_the_same_message_twice_still_decodes_both() -> None:
    connection = negotiate()
    for _ in range(2):
        assert client_decode(connection.encode(Frame(Opcode.TEXT, PUSH)), 12) == PUSH


def test_a_client_asking_for_a_smaller_window_gets_a_deflate_of_its_own() -> None:
    usual = negotiate().encode(Frame(Opcode.TEXT, PUSH))
    small = negotiate(("server_max_window_bits", "9")).encode(Frame(Opcode.TEXT, PUSH))
    assert small.data is not usual.data
    assert client_decode(small, 9) == PUSH


def test_control_frames_are_not_compressed() -> None:
    ping = Frame(Opcode.PING, b"keepalive")
    assert negotiate().encode(ping) == ping
