#!/usr/bin/env python3
"""A TCP proxy for fault tests: forwards 127.0.0.1:LISTEN to TARGET_HOST:TARGET_PORT byte for byte
(TLS passes through untouched) and obeys two control files in CONTROL_DIR:
  cut   -- every open connection is closed at once (mid-stream, mid-request); the file is removed;
  down  -- while it exists, open connections are closed and new ones are closed on accept.
Prints the listening port on stdout, then runs until killed."""
import asyncio
import os
import sys


async def main():
    target_host, target_port, control = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    conns = set()

    def down():
        return os.path.exists(os.path.join(control, "down"))

    async def pipe(reader, writer):
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def handle(client_reader, client_writer):
        if down():
            client_writer.close()
            return
        try:
            server_reader, server_writer = await asyncio.open_connection(target_host, target_port)
        except OSError:
            client_writer.close()
            return
        pair = (client_writer, server_writer)
        conns.add(pair)
        await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))
        conns.discard(pair)

    async def control_loop():
        while True:
            cut = os.path.join(control, "cut")
            if os.path.exists(cut) or down():
                if os.path.exists(cut):
                    os.remove(cut)
                for a, b in list(conns):
                    for w in (a, b):
                        w.transport.abort()
                conns.clear()
            await asyncio.sleep(0.05)

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    asyncio.ensure_future(control_loop())
    async with server:
        await server.serve_forever()


asyncio.run(main())
