"""``bitka serve --lan``: where a laptop in a hall serves the phones of the hall's Wi-Fi.

It listens on one private address of this machine (RFC 1918's 10/8, 172.16/12 and
192.168/16, or an IPv6 unique local address), found without sending anything: a UDP socket
"connected" to an address sends no packet, but the kernel chooses the interface and source
address it would use, which ``getsockname`` reads; on Linux each interface's address is also
read from the kernel (``SIOCGIFADDR``). ``--host`` names the address instead. A loopback
address (127.0.0.0/8) is taken too: only this machine reaches it, so it is no wider than a
private network (the tests stand 127.0.0.2 for the hall's address). A public address, or
every address (0.0.0.0), is refused with a sentence: plain HTTP is for a private network.

Example::

    >>> private("192.168.1.20"), private("127.0.0.2"), private("8.8.8.8"), private("100.64.0.1")
    (True, True, False, False)
"""
from __future__ import annotations

import io
import ipaddress
import socket
import struct
import sys
from typing import Callable, Iterable

import click
import segno

try:
    import fcntl
except ImportError:  # Windows: no ioctl; the probes alone find the address
    fcntl = None

# Networks no router of the internet carries: a hall's Wi-Fi, a phone's hotspot.
PRIVATE = tuple(ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"))
THIS_MACHINE = tuple(ipaddress.ip_network(n) for n in ("127.0.0.0/8", "::1/128"))
# Where the probes "connect" (nothing is sent): the default route, then each private range.
PROBES = ("192.0.2.1", "10.255.255.254", "172.31.255.254", "192.168.255.254")
# Interfaces that are no hall's network: containers' and virtual machines' bridges, tunnels.
NOT_A_HALL = ("lo", "docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "tun", "tap", "wg", "tailscale", "zt")
SIOCGIFADDR = 0x8915  # Linux's ioctl that reads an interface's IPv4 address


def private(address: str) -> bool:
    """Is ``address`` one that only a private network, or this machine, reaches?"""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in PRIVATE + THIS_MACHINE if net.version == ip.version)


def _reachable(address: str) -> bool:
    """A private address other machines of the network reach (not this machine's loopback)."""
    ip = ipaddress.ip_address(address)
    return any(ip in net for net in PRIVATE if net.version == ip.version)


def probed(targets: Iterable[str] = PROBES) -> list[str]:
    """The source address this machine would send from to each target, without sending:
    ``connect`` on a UDP socket only chooses a route. A target with no route is passed over."""
    found = []
    for target in targets:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.connect((target, 9))
                found.append(s.getsockname()[0])
            except OSError:
                continue
    return found


def interfaces() -> list[str]:
    """Each network interface's IPv4 address, as the kernel keeps it (Linux; elsewhere none),
    leaving out bridges and tunnels that are no hall's network."""
    if fcntl is None or not sys.platform.startswith("linux"):
        return []
    found = []
    for _index, name in socket.if_nameindex():
        if name.startswith(NOT_A_HALL):
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                asked = struct.pack("256s", name.encode()[:15])
                found.append(socket.inet_ntoa(fcntl.ioctl(s.fileno(), SIOCGIFADDR, asked)[20:24]))
            except OSError:  # no IPv4 address on it
                continue
    return found


def found_addresses(probe: Callable[[], list[str]] = probed, listed: Callable[[], list[str]] = interfaces) -> list[str]:
    """This machine's private addresses others can reach, the one facing its default route
    first, each once."""
    seen: list[str] = []
    for address in [*probe(), *listed()]:
        if _reachable(address) and address not in seen:
            seen.append(address)
    return seen


def hall_address(host: str | None, found: Callable[[], list[str]] = found_addresses) -> str:
    """The address ``bitka serve --lan`` listens on: ``host`` when it names one (a private or
    loopback address, else a usage error that says why), else the first private address of
    this machine."""
    if host is None:
        addresses = found()
        if not addresses:
            raise click.UsageError(
                "this machine has no address on a private network (10.x, 172.16-31.x, 192.168.x): join the "
                "hall's Wi-Fi (or start a phone's hotspot and join it) first, or name the address with --host")
        return addresses[0]
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        raise click.UsageError(f"--lan needs --host to be an address of this machine (192.168.1.20), not {host!r}") \
            from None
    if ip.is_unspecified:
        raise click.UsageError(f"--lan listens on one private address, not on every address ({host}): leave "
                               "--host out to use this machine's, or name it")
    if not private(str(ip)):
        raise click.UsageError(
            f"{host} is a public address: --lan serves plain HTTP, which belongs on a private network only (10.x, "
            "172.16-31.x, 192.168.x); on the internet serve bitka behind HTTPS (README: Running it for a club)")
    return str(ip)


def said(address: str, origin: str) -> str:
    """What ``bitka serve --lan`` tells the one who started it."""
    reach = "a loopback address: only this machine reaches it" if not _reachable(address) else \
        "phones on this network open it"
    return (f"serving the hall at {origin}/ over plain HTTP ({reach}); sign-ins there are protected only by the "
            "hall's Wi-Fi. Sign in as the group's admin at that address; its page 'The hall's address' shows it as a "
            "QR code for the phones, and each player's invitation carries it too.")


def terminal_code(origin: str) -> str:
    """The address as a QR code drawn in text, for the admin's phone to scan off the laptop."""
    out = io.StringIO()
    segno.make(origin + "/", error="m").terminal(out=out, compact=True)
    return out.getvalue()
