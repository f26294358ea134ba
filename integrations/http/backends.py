"""Network backends for httpcore that connect only to addresses the policy vetted, with one
deadline for the whole exchange, and the httpx clients built on them."""

from __future__ import annotations

import functools
import ssl
import time
from collections.abc import Iterable
from typing import Any

import anyio
import httpcore
import httpx

from integrations.http.addresses import Policy
from integrations.http.errors import BlockedURL

USER_AGENT = "ClaimCheck/0.1 (+https://claimcheck.example/bot)"


def _clamp(timeout: float | None, deadline: float) -> float:
    """The socket timeout for the next operation: never past the call's deadline."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise httpcore.ReadTimeout("the request deadline has passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    """Clamps every socket operation to the call's deadline.

    httpcore fixes the read timeout once per response body, so without this a server that
    stalls just before the deadline would hold a sync caller for a further full read timeout.
    """

    def __init__(self, inner: httpcore.NetworkStream, deadline: float) -> None:
        self._inner = inner
        self._deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, timeout=_clamp(timeout, self._deadline))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, timeout=_clamp(timeout, self._deadline))

    def close(self) -> None:
        self._inner.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        inner = self._inner.start_tls(
            ssl_context, server_hostname=server_hostname, timeout=_clamp(timeout, self._deadline)
        )
        return _DeadlineStream(inner, self._deadline)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _GuardedBackend(httpcore.NetworkBackend):
    """Connects only to addresses it has just vetted itself, so a DNS answer that changed since
    the pre-flight check (rebinding) is caught. TLS still sends the hostname as SNI and checks
    the certificate against it, because httpcore takes both from the request, not the socket."""

    def __init__(self, policy: Policy, deadline: float) -> None:
        self._policy = policy
        self._deadline = deadline
        self._inner = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        addresses = self._policy.vet_host(host, port)
        failure: httpcore.ConnectError | None = None
        for address in addresses:
            try:
                stream = self._inner.connect_tcp(
                    str(address),
                    port,
                    timeout=_clamp(timeout, self._deadline),
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except httpcore.ConnectError as exc:
                failure = exc
            else:
                return _DeadlineStream(stream, self._deadline)
        raise failure or httpcore.ConnectError(f"cannot connect to {host}")

    def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        raise BlockedURL("unix sockets are not allowed")

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _AsyncGuardedBackend(httpcore.AsyncNetworkBackend):
    """The async twin of _GuardedBackend. The deadline needs no stream wrapper here: arequest
    runs under anyio.fail_after, which cancels whatever is pending when time is up."""

    def __init__(self, policy: Policy) -> None:
        self._policy = policy
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            with anyio.fail_after(timeout):
                # getaddrinfo blocks; a thread keeps other providers' requests moving meanwhile.
                addresses = await anyio.to_thread.run_sync(
                    self._policy.vet_host, host, port, abandon_on_cancel=True
                )
        except TimeoutError as exc:
            raise httpcore.ConnectTimeout(f"resolving {host} took too long") from exc
        failure: httpcore.ConnectError | None = None
        for address in addresses:
            try:
                return await self._inner.connect_tcp(
                    str(address),
                    port,
                    timeout=timeout,
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except httpcore.ConnectError as exc:
                failure = exc
        raise failure or httpcore.ConnectError(f"cannot connect to {host}")

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise BlockedURL("unix sockets are not allowed")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


@functools.cache
def _ssl_context() -> ssl.SSLContext:
    # Loading the CA bundle costs milliseconds; one shared client context is safe across threads.
    return httpx.create_ssl_context(trust_env=False)


def guarded_client(policy: Policy, deadline: float) -> httpx.Client:
    # verify= hands over the shared context: otherwise the transport loads the CA bundle anew
    # for the pool that is replaced on the next line (~15 ms of CPU a request).
    transport = httpx.HTTPTransport(retries=0, trust_env=False, verify=_ssl_context())
    # httpx has no switch for the network backend, so its pool is replaced by an identical one
    # built on the guarded backend. respx patches the pool class, so mocks still apply.
    transport._pool = httpcore.ConnectionPool(
        ssl_context=_ssl_context(), retries=0, network_backend=_GuardedBackend(policy, deadline)
    )
    return httpx.Client(
        transport=transport,
        headers={"User-Agent": USER_AGENT},
        follow_redirects=False,
        trust_env=False,  # an environment proxy would connect for us and skip the guard
    )


def guarded_async_client(policy: Policy) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(retries=0, trust_env=False, verify=_ssl_context())
    transport._pool = httpcore.AsyncConnectionPool(
        ssl_context=_ssl_context(), retries=0, network_backend=_AsyncGuardedBackend(policy)
    )
    return httpx.AsyncClient(
        transport=transport,
        headers={"User-Agent": USER_AGENT},
        follow_redirects=False,
        trust_env=False,
    )
