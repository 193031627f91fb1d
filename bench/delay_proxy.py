"""A database across a network, stood for on one machine: a TCP proxy that holds every chunk
it forwards for ``--delay-ms`` in each direction (this machine's kernel has no netem).

    python bench/delay_proxy.py --listen 6543 --to 5432 --delay-ms 0.5 &
    python bench/http_load.py --clients 8 --postgres postgresql://postgres@127.0.0.1:6543/test

Every statement whose answer bitka waits for then costs a round trip through the proxy, as
it would with the database on another machine; what pipeline mode saves on PostgreSQL
(events/pgstore.py) shows there. asyncio's timers wake on whole milliseconds, so a chunk
waits at least the delay and up to a millisecond more (``--delay-ms 0.5`` made a trick
request take about 40 ms in process, against 3 ms straight to the database). The proxy
runs on the same cores as everything else: compare runs through it with each other only.
"""
from __future__ import annotations

import argparse
import asyncio


async def _forward(source: asyncio.StreamReader, sink: asyncio.StreamWriter, delay: float) -> None:
    loop = asyncio.get_running_loop()
    try:
        while chunk := await source.read(65536):
            loop.call_later(delay, sink.write, chunk)  # timers of equal delay fire in order
    finally:
        loop.call_later(delay, sink.close)


async def serve(listen: int, target_host: str, target_port: int, delay: float) -> None:
    async def connected(client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter) -> None:
        server_in, server_out = await asyncio.open_connection(target_host, target_port)
        await asyncio.gather(_forward(client_in, server_out, delay), _forward(server_in, client_out, delay))

    server = await asyncio.start_server(connected, "127.0.0.1", listen)
    async with server:
        await server.serve_forever()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--listen", type=int, required=True, help="port to accept connections on (127.0.0.1)")
    ap.add_argument("--to", type=int, required=True, help="port of the database (127.0.0.1)")
    ap.add_argument("--host", default="127.0.0.1", help="host of the database")
    ap.add_argument("--delay-ms", type=float, default=0.5, help="how long each chunk waits, each way")
    args = ap.parse_args()
    try:
        asyncio.run(serve(args.listen, args.host, args.to, args.delay_ms / 1000))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
