"""Several hosts on one machine, for real: Linux network namespaces joined by veth pairs to a
bridge (item 1; tests/production/test_hosts.py uses it).

Each host is a network namespace with one interface, ``eth0``, whose peer is a port of a bridge
in the machine's own namespace; the bridge holds the subnet's first address, so the test
process (a player's browser, an operator) reaches every host, and hosts reach each other only
through their addresses on the subnet. A host may also get its own hostname (a UTS namespace
per process), so what a worker writes as its host name is the host's.

Nothing here fakes a host: without root, the ``ip`` command or a kernel that makes namespaces,
``Network.create`` raises ``Unavailable`` with the reason, and the tests skip saying it.
Names carry a random suffix; ``Network.close`` removes every namespace, veth and the bridge,
and is safe to call twice.
"""

from __future__ import annotations

import ipaddress
import os
import random
import secrets
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


class Unavailable(Exception):
    """Namespaces cannot be made here (the reason is the message)."""


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20)
    if check and done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done


def _free_subnet() -> ipaddress.IPv4Network:
    """A /24 of 10.200.0.0/13 that no interface or route of the machine touches."""
    used = (
        _ip("-4", "route", "show", "table", "all", check=False).stdout
        + _ip("-4", "addr", check=False).stdout
    )
    for _ in range(200):
        net = ipaddress.IPv4Network(f"10.{random.randint(200, 207)}.{random.randint(0, 255)}.0/24")
        prefix = ".".join(str(net.network_address).split(".")[:3]) + "."
        if prefix not in used:
            return net
    raise Unavailable("no free 10.200.0.0/13 subnet for the test network")


@dataclass
class Host:
    name: str  # the host's name (and its hostname, for processes started with uts=True)
    netns: str  # the namespace
    address: str  # its address on the subnet
    veth_peer: str  # its veth's other end, a port of the bridge


@dataclass
class Network:
    tag: str
    subnet: ipaddress.IPv4Network
    bridge: str
    gateway: str
    hosts: dict[str, Host] = field(default_factory=dict)
    closed: bool = False

    @classmethod
    def create(cls) -> Network:
        """A bridge with the subnet's first address; raises Unavailable when namespaces
        cannot be made on this machine."""
        if os.geteuid() != 0:
            raise Unavailable(
                f"network namespaces need root (ip netns add), and this runs as uid {os.geteuid()}"
            )
        if shutil.which("ip") is None:
            raise Unavailable("the ip command (iproute2) is not installed")
        tag = secrets.token_hex(3)
        probe = f"vc-{tag}-probe"
        made = _ip("netns", "add", probe, check=False)
        if made.returncode != 0:
            raise Unavailable(f"ip netns add fails here: {made.stderr.strip()}")
        _ip("netns", "del", probe, check=False)
        subnet = _free_subnet()
        net = cls(
            tag=tag, subnet=subnet, bridge=f"vcb{tag}", gateway=str(subnet.network_address + 1)
        )
        try:
            _ip("link", "add", net.bridge, "type", "bridge")
            _ip("addr", "add", f"{net.gateway}/{subnet.prefixlen}", "dev", net.bridge)
            _ip("link", "set", net.bridge, "up")
        except Exception as exc:
            net.close()
            raise Unavailable(f"cannot make a bridge: {exc}") from exc
        return net

    def add_host(self, name: str) -> Host:
        """A namespace ``vc-<tag>-<name>`` with eth0 on the bridge and the next address."""
        index = len(self.hosts) + 2
        host = Host(
            name=name,
            netns=f"vc-{self.tag}-{name}",
            address=str(self.subnet.network_address + index),
            veth_peer=f"vc{self.tag}{index}p",
        )
        self.hosts[name] = host
        inside = f"vc{self.tag}{index}"
        _ip("netns", "add", host.netns)
        _ip("link", "add", inside, "type", "veth", "peer", "name", host.veth_peer)
        _ip("link", "set", host.veth_peer, "master", self.bridge, "up")
        _ip("link", "set", inside, "netns", host.netns)
        _ip("-n", host.netns, "link", "set", inside, "name", "eth0")
        _ip(
            "-n",
            host.netns,
            "addr",
            "add",
            f"{host.address}/{self.subnet.prefixlen}",
            "dev",
            "eth0",
        )
        _ip("-n", host.netns, "link", "set", "eth0", "up")
        _ip("-n", host.netns, "link", "set", "lo", "up")
        return host

    def command(self, host: Host, argv: Sequence[str], *, uts: bool = False) -> list[str]:
        """``argv`` run inside ``host``'s namespace (and with its hostname when ``uts``). Every
        wrapper execs, so the process started is ``argv``'s own (its pid is the program's)."""
        wrapped = ["ip", "netns", "exec", host.netns]
        if uts:
            wrapped += [
                "unshare",
                "--uts",
                "--",
                "sh",
                "-c",
                'hostname "$0" && exec "$@"',
                host.name,
            ]
        return [*wrapped, *argv]

    def popen(
        self, host: Host, argv: Sequence[str], *, uts: bool = False, **kwargs: Any
    ) -> subprocess.Popen[Any]:
        return subprocess.Popen(self.command(host, argv, uts=uts), **kwargs)

    def run(
        self, host: Host, argv: Sequence[str], **kwargs: Any
    ) -> subprocess.CompletedProcess[Any]:
        return subprocess.run(self.command(host, argv), **kwargs)

    def link(self, host: Host, up: bool) -> None:
        """The host's own link up or down, from inside its namespace (a cable pulled)."""
        _ip("-n", host.netns, "link", "set", "eth0", "up" if up else "down")

    def pids(self, host: Host) -> list[int]:
        """Every process still in the host's namespace."""
        out = _ip("netns", "pids", host.netns, check=False).stdout
        return [int(p) for p in out.split()]

    def close(self) -> None:
        """Kill what is left in each namespace, remove the namespaces (their veths go with
        them), the bridge's ports and the bridge."""
        if self.closed:
            return
        self.closed = True
        for host in self.hosts.values():
            for pid in self.pids(host):
                try:
                    os.kill(pid, 9)
                except ProcessLookupError:
                    pass
            _ip("netns", "del", host.netns, check=False)
            _ip("link", "del", host.veth_peer, check=False)
        _ip("link", "del", self.bridge, check=False)


def leftovers(tag: str) -> list[str]:
    """Namespaces and links of the network ``tag`` that still exist (none after close)."""
    names = _ip("netns", "list", check=False).stdout.split()
    links = _ip("-o", "link", check=False).stdout
    return [n for n in names if n.startswith(f"vc-{tag}-")] + [
        line.split(":")[1].strip()
        for line in links.splitlines()
        if f"vc{tag}" in line or f"vcb{tag}" in line
    ]
