"""A loopback listener that counts what reaches it: the sealed sandbox must let nothing through."""

from __future__ import annotations

import socket
import threading


class Listener:
    """A TCP and a UDP socket on 127.0.0.1 that count what reaches them."""

    def __init__(self) -> None:
        self.tcp = socket.create_server(("127.0.0.1", 0))
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.udp.settimeout(0.2)
        self.tcp.settimeout(0.2)
        self.received = bytearray()
        self.connections = 0  # a connection alone already tells a page which local ports are open
        self.datagrams = 0
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=f, daemon=True) for f in (self._accept, self._recvfrom)]
        for t in self.threads:
            t.start()

    @property
    def ports(self) -> tuple[int, int]:
        return self.tcp.getsockname()[1], self.udp.getsockname()[1]

    def _accept(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.tcp.accept()
            except OSError:
                continue
            self.connections += 1
            threading.Thread(target=self._read, args=(conn,), daemon=True).start()

    def _read(self, conn: socket.socket) -> None:
        conn.settimeout(0.2)
        with conn:
            while not self.stop.is_set():
                try:
                    data = conn.recv(65536)
                except TimeoutError:
                    continue
                except OSError:
                    return
                if not data:
                    return
                self.received.extend(data)

    def _recvfrom(self) -> None:
        while not self.stop.is_set():
            try:
                data, _ = self.udp.recvfrom(65536)
            except OSError:
                continue
            self.datagrams += 1
            self.received.extend(data)

    def close(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(2)
        self.tcp.close()
        self.udp.close()
