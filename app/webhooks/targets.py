"""Which addresses a webhook may be delivered to: the guard against server-side request forgery.

A delivery target is refused when any address its host resolves to is not a public one: loopback, private
(10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16, fe80::/10, where cloud metadata services
answer), carrier-grade NAT, multicast, unspecified or reserved space, including IPv4 addresses wrapped in
IPv6 (::ffff:127.0.0.1, 64:ff9b::/96). Every resolved address is checked and the delivery connects to the
checked address itself (app.webhooks.sender), so a name that resolves differently the second time (DNS
rebinding) cannot slip a private address through.

The operator may allow non-public targets (`AGENT_MEMORY_WEBHOOK_ALLOW_PRIVATE`): `true` allows them all
but the cloud metadata addresses; a comma-separated list of networks allows those networks only (a metadata
address only when a listed network holds it).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

MAX_URL_LENGTH = 2000
# Instance metadata services (AWS, GCP, Azure, OpenStack: 169.254.169.254; AWS over IPv6; Alibaba).
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a) for a in ("169.254.169.254", "fd00:ec2::254", "100.100.100.200")
)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


class TargetRefused(Exception):
    """The URL may not be delivered to; the message says why (never anything secret)."""


@dataclass(frozen=True)
class Target:
    """A URL taken apart for a delivery: where to connect and what to tell the server."""

    scheme: str
    host: str  # as written (a name, or an address without brackets)
    port: int
    path: str  # path and query, at least "/"


@dataclass(frozen=True)
class AllowPrivate:
    """The operator's exception to the guard: everything non-public (`everything`) or these networks."""

    everything: bool = False
    networks: tuple[IPNetwork, ...] = ()

    @classmethod
    def parse(cls, value: str) -> AllowPrivate:
        """`` (none), `true` (all but metadata), or comma-separated addresses or networks (ValueError if
        one is not)."""
        value = value.strip()
        if value.lower() in ("", "false", "0", "no", "off"):
            return cls()
        if value.lower() in ("true", "1", "yes", "on", "all"):
            return cls(everything=True)
        return cls(
            networks=tuple(ipaddress.ip_network(part.strip(), strict=False) for part in value.split(","))
        )

    def allows(self, address: IPAddress) -> bool:
        if any(address in network for network in self.networks):
            return True
        return self.everything and address not in METADATA_ADDRESSES


def _unwrapped(address: IPAddress) -> IPAddress:
    """The IPv4 address an IPv6 one carries (mapped or NAT64), else the address itself."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
        if address in _NAT64:
            return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address


def refusal(address: IPAddress, allow: AllowPrivate) -> str | None:
    """Why this address may not be a target (None: it may)."""
    plain = _unwrapped(address)
    if plain.is_global and not plain.is_multicast and plain not in METADATA_ADDRESSES:
        return None
    if allow.allows(plain) or allow.allows(address):
        return None
    if plain in METADATA_ADDRESSES:
        kind = "a cloud metadata address"
    elif plain.is_loopback:
        kind = "loopback"
    elif plain.is_link_local:
        kind = "link-local"
    elif plain.is_private:
        kind = "a private address"
    else:
        kind = "not a public address"
    return f"{address} ({kind})"


def parse(url: str) -> Target:
    """The URL's parts, or TargetRefused when it is not an http(s) URL a webhook can have."""
    if len(url) > MAX_URL_LENGTH:
        raise TargetRefused(f"the URL is longer than {MAX_URL_LENGTH} characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise TargetRefused(f"not a valid URL: {exc}") from exc
    if parts.scheme not in ("http", "https"):
        raise TargetRefused("the URL must be http:// or https://")
    if not parts.hostname:
        raise TargetRefused("the URL has no host")
    if parts.username is not None or parts.password is not None:
        raise TargetRefused("the URL may not hold credentials (the signature authenticates deliveries)")
    if parts.fragment:
        raise TargetRefused("the URL may not have a fragment")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80), path)


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def check_url(url: str, allow: AllowPrivate) -> Target:
    """What can be told without resolving a name (at registration): the URL's form, and a host that is an
    address or a name of this machine (`localhost`). TargetRefused says why."""
    target = parse(url)
    literal = _literal(target.host)
    if literal is not None:
        reason = refusal(literal, allow)
        if reason is not None:
            raise TargetRefused(f"refused: {reason}")
    elif _is_local_name(target.host) and not allow.everything and not allow.networks:
        raise TargetRefused(f"refused: {target.host} names this machine")
    return target


def _is_local_name(host: str) -> bool:
    name = host.lower().rstrip(".")
    return name == "localhost" or name.endswith(".localhost")


async def resolve(target: Target, allow: AllowPrivate) -> IPAddress:
    """The address to connect to: the host resolved, every address checked (TargetRefused naming the first
    refused one), the first one returned."""
    literal = _literal(target.host)
    if literal is not None:
        addresses: list[IPAddress] = [literal]
    else:
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(
                target.host, target.port, type=socket.SOCK_STREAM
            )
        except OSError as exc:
            raise TargetRefused(f"{target.host} does not resolve: {exc}") from exc
        addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos]
        if not addresses:
            raise TargetRefused(f"{target.host} resolves to no address")
    for address in addresses:
        reason = refusal(address, allow)
        if reason is not None:
            where = "" if literal is not None else f"{target.host} resolves to "
            raise TargetRefused(f"refused: {where}{reason}")
    return addresses[0]
