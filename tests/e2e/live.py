"""A live daphne server for browser tests that survives being forked from a threaded test process."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from channels.testing import ChannelsLiveServerTestCase
from daphne.testing import DaphneProcess
from django.db import connections

_inherited: list[object] = []


class FreshDaphneProcess(DaphneProcess):
    """The server child starts from a fork of pytest, which may have run async tests already.

    Thread pools and connection pools come through a fork as objects whose threads no longer exist:
    asgiref's shared executor would then hang every thread-sensitive call, and psycopg's pool would
    hand out the parent's sockets. Give the child its own, without touching the parent's.
    """

    def run(self) -> None:
        from asgiref.sync import SyncToAsync
        from django.db import connections

        SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
        for connection in connections.all(initialized_only=True):
            # Forget, do not close: closing would end the parent's sessions on the shared sockets, and
            # an SQLite handle closed in a forked child can disturb the parent's WAL files.
            _inherited.append(connection.connection)
            connection.connection = None
            if hasattr(type(connection), "_connection_pools"):
                type(connection)._connection_pools = {}
        super().run()


class LiveServerTestCase(ChannelsLiveServerTestCase):
    ProtocolServerProcess = FreshDaphneProcess

    @classmethod
    def setUpClass(cls) -> None:
        # No open SQLite handle may cross the fork: the child gets SQLite's lock bookkeeping but not
        # the locks, so a later close in the parent deletes the WAL under the server ("disk I/O
        # error" from the third test of a class on).
        connections.close_all()
        super().setUpClass()
