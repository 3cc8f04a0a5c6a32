package io.jdbcrepl.apply;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.logging.DriverLog;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Whether another session waits for a row lock the applier's transaction holds: then the
 * application is writing the rows a backlog is being applied to, and the applier commits smaller
 * groups so that it never keeps them locked for long (issue 17). PostgreSQL: {@code pg_locks} and
 * {@code pg_blocking_pids}, readable by any user. MariaDB: {@code information_schema} InnoDB lock
 * waits, MySQL 8: {@code performance_schema.data_lock_waits}, both needing the PROCESS privilege
 * or the performance schema; without them (and on H2) nothing is seen and groups shrink only when
 * they take long. MariaDB fills its InnoDB lock tables from a cache that it refreshes only when
 * nobody has read them for 100 ms, so there the answer is asked at most every 250 ms and kept in
 * between (asked more often, the cache would never change).
 */
final class LockWaits {

    private static final DriverLog LOG = DriverLog.of(LockWaits.class);

    private static final String POSTGRESQL = "SELECT EXISTS (SELECT 1 FROM pg_locks w WHERE NOT w.granted"
            + " AND pg_backend_pid() = ANY (pg_blocking_pids(w.pid)))";
    private static final String MARIADB = "SELECT EXISTS (SELECT 1 FROM information_schema.innodb_lock_waits w"
            + " JOIN information_schema.innodb_trx t ON t.trx_id = w.blocking_trx_id"
            + " WHERE t.trx_mysql_thread_id = CONNECTION_ID())";
    private static final String MYSQL = "SELECT EXISTS (SELECT 1 FROM performance_schema.data_lock_waits w"
            + " JOIN performance_schema.threads t ON t.thread_id = w.blocking_thread_id"
            + " WHERE t.processlist_id = CONNECTION_ID())";

    private static final long MARIADB_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    /** The query that works on this connection, null when none does. */
    private final String query;
    private final long intervalNanos;
    private long askedAt;
    private boolean answer;

    private LockWaits(String query) {
        this.query = query;
        this.intervalNanos = MARIADB.equals(query) ? MARIADB_INTERVAL_NANOS : 0;
        this.askedAt = System.nanoTime();
    }

    /**
     * Finds the query this database and user can run, on the applier's connection before its first
     * group (a failed statement there aborts nothing that matters; it is rolled back).
     */
    static LockWaits probe(Connection c, Dialect dialect, String applier) throws SQLException {
        List<String> candidates = switch (dialect.kind()) {
            case POSTGRESQL -> List.of(POSTGRESQL);
            case MYSQL -> List.of(MARIADB, MYSQL);
            case H2 -> List.of();
        };
        StringBuilder failures = new StringBuilder();
        for (String candidate : candidates) {
            try {
                run(c, candidate);
                c.rollback();
                return new LockWaits(candidate);
            } catch (SQLException e) {
                c.rollback();
                failures.append(failures.isEmpty() ? "" : "; ").append(e.getMessage());
            }
        }
        if (!failures.isEmpty()) {
            LOG.info("jdbc:repl: " + applier + " cannot see which sessions wait for its row locks (" + failures
                    + "); its groups shrink only when they take long. See docs/privileges.md.");
        }
        return new LockWaits(null);
    }

    /** True when a session waits for a lock this connection's transaction holds. */
    boolean othersWait(Connection c) throws SQLException {
        if (query == null) return false;
        long now = System.nanoTime();
        if (now - askedAt >= intervalNanos) {
            answer = run(c, query);
            askedAt = now;
        }
        return answer;
    }

    private static boolean run(Connection c, String query) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            return rs.next() && rs.getBoolean(1);
        }
    }
}
