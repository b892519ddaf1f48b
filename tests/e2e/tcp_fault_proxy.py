#!/usr/bin/env python3
"""A TCP proxy for fault tests: forwards 127.0.0.1:LISTEN to TARGET_HOST:TARGET_PORT and obeys
control files in CONTROL_DIR:
  cut      -- every open connection is closed at once (mid-stream, mid-request); the file is removed;
  down     -- while it exists, open connections are closed and new ones are closed on accept;
  stall    -- while it exists, connections (open and new) stay open but no byte is forwarded either
              way; when it is removed, forwarding resumes where it stopped;
  truncate -- the next server-to-client read of every open connection is forwarded only in part
              (its first half, so it ends inside an HTTP chunk or a JSON object), then that
              connection is aborted; the file is removed.
Without --tls the bytes pass through untouched (TLS included), so a truncation ends inside a TLS
record, which the client discards whole. With --tls CERT KEY CA the proxy ends TLS itself
(serving CERT/KEY, which the client must trust) and opens TLS to the target (verified with CA), so
the faults act on the HTTP bytes.
Prints the listening port on stdout, then runs until killed.
Usage: tcp_fault_proxy.py TARGET_HOST TARGET_PORT CONTROL_DIR [--tls CERT KEY CA]"""
import asyncio
import os
import ssl
import sys


class Connection:
    def __init__(self, client_writer, server_writer):
        self.writers = (client_writer, server_writer)
        self.truncate_next = False

    def abort(self):
        for w in self.writers:
            w.transport.abort()


async def main():
    target_host, target_port, control = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    serve_tls = upstream_tls = None
    if len(sys.argv) == 8 and sys.argv[4] == "--tls":
        cert, key, ca = sys.argv[5:8]
        serve_tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        serve_tls.load_cert_chain(cert, key)
        upstream_tls = ssl.create_default_context(cafile=ca)
    elif len(sys.argv) != 4:
        sys.exit(__doc__)
    conns = set()

    def exists(name):
        return os.path.exists(os.path.join(control, name))

    async def while_stalled():
        while exists("stall"):
            await asyncio.sleep(0.05)

    async def pipe(reader, writer, conn, from_server):
        try:
            while True:
                await while_stalled()
                data = await reader.read(65536)
                if not data:
                    break
                await while_stalled()
                if from_server and conn.truncate_next:
                    writer.write(data[: len(data) // 2])
                    await writer.drain()
                    print(f"truncated: {len(data) // 2} of {len(data)} bytes forwarded", file=sys.stderr, flush=True)
                    await asyncio.sleep(0.2)  # the part reaches the client before the abort
                    conn.abort()
                    break
                writer.write(data)
                await writer.drain()
        except (ConnectionError, ssl.SSLError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def handle(client_reader, client_writer):
        if exists("down"):
            client_writer.close()
            return
        try:
            server_reader, server_writer = await asyncio.open_connection(
                target_host, target_port, ssl=upstream_tls, server_hostname=target_host if upstream_tls else None
            )
        except (OSError, ssl.SSLError):
            client_writer.close()
            return
        conn = Connection(client_writer, server_writer)
        conns.add(conn)
        await asyncio.gather(
            pipe(client_reader, server_writer, conn, False), pipe(server_reader, client_writer, conn, True)
        )
        conns.discard(conn)

    async def control_loop():
        while True:
            if exists("cut") or exists("down"):
                if exists("cut"):
                    os.remove(os.path.join(control, "cut"))
                for conn in list(conns):
                    conn.abort()
                conns.clear()
            if exists("truncate"):
                os.remove(os.path.join(control, "truncate"))
                for conn in conns:
                    conn.truncate_next = True
            await asyncio.sleep(0.05)

    server = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=serve_tls)
    print(server.sockets[0].getsockname()[1], flush=True)
    asyncio.ensure_future(control_loop())
    async with server:
        await server.serve_forever()


asyncio.run(main())
