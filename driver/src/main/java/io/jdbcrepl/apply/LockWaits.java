package io.jdbcrepl.apply;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.logging.DriverLog;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * Whether another session waits for a row lock the applier's transaction holds: then the
 * application is writing the rows a backlog is being applied to, and the applier commits smaller
 * groups so that it never keeps them locked for long (issue 17). The database gives the queries
 * that can tell and how long an answer holds ({@link ApplySql#lockWaitQueries}); where none runs
 * (a privilege missing, or a database that cannot tell) nothing is seen and groups shrink only
 * when they take long.
 */
final class LockWaits {

    private static final DriverLog LOG = DriverLog.of(LockWaits.class);

    /** The query that works on this connection, null when none does. */
    private final String query;
    private final long intervalNanos;
    private long askedAt;
    private boolean answer;

    private LockWaits(String query, Duration interval) {
        this.query = query;
        this.intervalNanos = interval.toNanos();
        this.askedAt = System.nanoTime();
    }

    /**
     * Finds the query this database and user can run, on the applier's connection before its first
     * group (a failed statement there aborts nothing that matters; it is rolled back).
     */
    static LockWaits probe(Connection c, Dialect dialect, String applier) throws SQLException {
        StringBuilder failures = new StringBuilder();
        for (ApplySql.LockWaitQuery candidate : dialect.part(ApplySql.class).lockWaitQueries()) {
            try {
                run(c, candidate.sql());
                c.rollback();
                return new LockWaits(candidate.sql(), candidate.interval());
            } catch (SQLException e) {
                c.rollback();
                failures.append(failures.isEmpty() ? "" : "; ").append(e.getMessage());
            }
        }
        if (!failures.isEmpty()) {
            LOG.info("jdbc:repl: " + applier + " cannot see which sessions wait for its row locks (" + failures
                    + "); its groups shrink only when they take long. See docs/privileges.md.");
        }
        return new LockWaits(null, Duration.ZERO);
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
