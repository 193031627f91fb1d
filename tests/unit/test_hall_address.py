"""``bitka serve --lan``: the address a laptop serves the hall's phones on. Its own private
address (the one facing its default route first), or the one --host names if it is private
or this machine's loopback (127.0.0.2 stands for the hall's address in the browser tests); a
public address, every address (0.0.0.0) or a name is refused, before anything starts, with
a sentence that says why."""
from __future__ import annotations

import ipaddress

import click
import pytest
from click.testing import CliRunner

from cli import hall, server
from cli.main import bitka


@pytest.mark.parametrize("address", ["10.0.0.7", "172.16.4.1", "172.31.255.254", "192.168.1.20", "fd12:3456::1",
                                     "127.0.0.1", "127.0.0.2", "::1"])
def test_private_and_loopback_addresses_may_carry_plain_http(address):
    assert hall.private(address)
    assert hall.hall_address(address) == address


@pytest.mark.parametrize("address", ["8.8.8.8", "172.32.0.1", "100.64.0.1", "192.0.2.2", "2001:db8::1", "169.254.1.1"])
def test_a_public_address_is_refused_with_a_sentence(address):
    assert not hall.private(address)
    with pytest.raises(click.UsageError, match=rf"{address} is a public address: --lan serves plain HTTP, which "
                                               r"belongs on a private network only"):
        hall.hall_address(address)


def test_every_address_and_a_name_are_refused():
    with pytest.raises(click.UsageError, match=r"not on every address \(0.0.0.0\)"):
        hall.hall_address("0.0.0.0")
    with pytest.raises(click.UsageError, match=r"an address of this machine \(192.168.1.20\), not 'hall.local'"):
        hall.hall_address("hall.local")


def test_without_host_the_machines_own_private_address_is_found():
    assert hall.hall_address(None, found=lambda: ["192.168.1.20", "10.8.0.2"]) == "192.168.1.20"
    with pytest.raises(click.UsageError, match="no address on a private network.*join the hall's Wi-Fi"):
        hall.hall_address(None, found=lambda: [])


def test_the_address_facing_the_default_route_comes_first_and_public_or_loopback_ones_never():
    found = hall.found_addresses(probe=lambda: ["192.0.2.2", "192.168.1.20", "192.168.1.20"],
                                 listed=lambda: ["127.0.0.1", "172.17.0.1", "192.168.1.20", "8.8.8.8"])
    assert found == ["192.168.1.20", "172.17.0.1"]


def test_the_probes_name_this_machines_addresses():
    """A UDP socket's connect chooses a route and sends no packet: what it names is an address
    (or nothing, with no route at all), and every interface's is one too."""
    for address in [*hall.probed(), *hall.interfaces()]:
        ipaddress.ip_address(address)


def test_bitka_serve_lan_refuses_a_public_address_before_it_touches_the_store(tmp_path):
    store = tmp_path / "club.db"
    ran = CliRunner().invoke(bitka, ["--db", str(store), "serve", "--lan", "--host", "8.8.8.8"])
    assert ran.exit_code == 2 and "8.8.8.8 is a public address" in ran.output
    assert not store.exists()


def test_lan_mode_reaches_the_app_and_its_links_carry_the_hall_address():
    config = server._app_config("club.db", None, [], served_at=server.address("192.168.1.20", 8000), lan=True)
    assert config["BITKA_LAN"] is True and config["BITKA_SERVED_AT"] == "http://192.168.1.20:8000"
    assert "BITKA_LAN" not in server._app_config("club.db", None, [], served_at=server.address("127.0.0.1", 8000))
    said = hall.said("192.168.1.20", "http://192.168.1.20:8000")
    assert "phones on this network open it" in said and "protected only by the hall's Wi-Fi" in said
    assert "only this machine reaches it" in hall.said("127.0.0.2", "http://127.0.0.2:8000")
