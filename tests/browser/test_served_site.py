"""The test server itself: a browser hanging up mid-transfer is normal, not an error to print."""

from __future__ import annotations

import http.server
import os
import socket
import struct

import pytest
from served_site import QuietServer, serve

pytestmark = pytest.mark.unit  # tests/conftest.py: what `nox -s unit` runs


def hang_up_during(url: str, path: str) -> None:
    """Ask for ``path`` and reset the connection before reading the reply, as a closing tab does."""
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    with socket.create_connection((host, int(port))) as client:
        client.sendall(f"GET /{path} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n".encode())
        client.recv(1)  # the server has started sending
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def test_a_client_that_hangs_up_leaves_no_traceback(tmp_path, capfd):
    # Random bytes do not compress: the reply overflows the socket buffers, so the server is
    # still writing when the connection is reset.
    (tmp_path / "big.html").write_bytes(os.urandom(16 * 2**20))
    (tmp_path / "big.bin").write_bytes(os.urandom(16 * 2**20))
    with serve(tmp_path) as url:
        hang_up_during(url, "big.html")  # the gzip path
        hang_up_during(url, "big.bin")  # the standard library's path
    # serve() returns only after every request's thread has ended
    assert "Traceback" not in capfd.readouterr().err


def test_any_other_error_in_a_request_is_still_reported(capfd):
    server = QuietServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    try:
        raise ValueError("a bug in the handler")
    except ValueError:
        server.handle_error(None, ("127.0.0.1", 1))
    finally:
        server.server_close()
    assert "ValueError: a bug in the handler" in capfd.readouterr().err
