"""What a hard forget runs on PostgreSQL once the rows are deleted: VACUUM, after older readers end.

VACUUM cannot remove a deleted row that a still-open snapshot may see: a search that began before
the delete, a long report, or autovacuum's own ANALYZE of the table (which a fresh import
triggers). Such a row stays "dead but not yet removable" until a later VACUUM, so its text would
stay in the table files for as long as autovacuum takes to come back. The scrub therefore waits,
for a bounded time, until no other session of this database holds a snapshot older than the
delete, then vacuums.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

#: How long a hard forget waits for sessions that began before it (then it vacuums anyway; the
#: rows they still see are left to autovacuum, as docs/postgres.md says).
SNAPSHOT_WAIT_S = 5.0
POLL_S = 0.05

#: The next transaction id at the moment of the call: everything committed earlier (the delete)
#: is below it, so a session whose snapshot horizon or own transaction is older may still see it.
_MARK = "SELECT pg_snapshot_xmax(pg_current_snapshot())::xid"
# age() counts transactions back from now, so a larger age is older (and wraparound-safe, which
# comparing the 32-bit xids themselves is not). Rows of other users' sessions may hide these
# columns from a role without pg_read_all_stats; they read as NULL and are not waited for.
_OLDER_SESSIONS = """
SELECT count(*) FROM pg_stat_activity
WHERE datname = current_database() AND pid <> pg_backend_pid()
  AND (age(backend_xmin) > age(%(mark)s::xid) OR age(backend_xid) > age(%(mark)s::xid))
"""


def vacuum_after_delete(conn: Any, tables: Sequence[str]) -> None:
    """VACUUM ``tables`` on an autocommit connection, once older snapshots are gone (or SNAPSHOT_WAIT_S)."""
    mark = conn.execute(_MARK).fetchone()[0]
    deadline = time.monotonic() + SNAPSHOT_WAIT_S
    while conn.execute(_OLDER_SESSIONS, {"mark": mark}).fetchone()[0] and time.monotonic() < deadline:
        time.sleep(POLL_S)
    # INDEX_CLEANUP ON: clean the full-text and vector indexes even when few rows died (by
    # default VACUUM may skip them, leaving the deleted entries in the index pages)
    conn.execute(f"VACUUM (INDEX_CLEANUP ON) {', '.join(tables)}")
