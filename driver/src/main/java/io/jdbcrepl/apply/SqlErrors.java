package io.jdbcrepl.apply;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;

import java.sql.SQLException;

/** Which local errors are worth retrying, and which are conflicts (SPEC 5.1). */
public final class SqlErrors {

    private SqlErrors() {
    }

    /**
     * MySQL-family error codes of passing conditions that come with SQLState HY000 or HY001: lock wait
     * timeout (1205), deadlock (1213), disk full (1021), table full (1114), out of memory (1037, 1038,
     * 1041), read-only server (1290, 1836), query interrupted or over its time (1317, 1969, 3024).
     */
    private static final java.util.Set<Integer> MYSQL_TRANSIENT_CODES =
            java.util.Set.of(1205, 1213, 1021, 1114, 1037, 1038, 1041, 1290, 1836, 1317, 1969, 3024);

    /**
     * What passes by itself (SPEC 8.8), so the applier pauses and retries with backoff instead of
     * queueing the transaction: deadlocks and serialization failures (class 40), lost connections
     * (08), insufficient resources such as a full disk or too many connections (53), an operator
     * intervention, shutdown or recovery (57), a read-only database (25006), lock and statement
     * timeouts, and another applier taking over (fencing).
     */
    public static boolean transientError(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ProgressStore.Fenced) return true;
            if (!(t instanceof SQLException s)) continue;
            String state = s.getSQLState() == null ? "" : s.getSQLState();
            if (state.startsWith("40") || state.startsWith("08") || state.startsWith("53") || state.startsWith("57")
                    || SqlState.READ_ONLY_SQL_TRANSACTION.is(state) || SqlState.TIMEOUT_EXPIRED.is(state)
                    || SqlState.LOCK_NOT_AVAILABLE.is(state) || SqlState.QUERY_INTERRUPTED.is(state)
                    || MYSQL_TRANSIENT_CODES.contains(s.getErrorCode()) || s.getErrorCode() == H2_READ_ONLY
                    || s instanceof java.sql.SQLTransientException || s instanceof java.sql.SQLRecoverableException
                    || h2DeadlockAftermath(s)) {
                return true;
            }
        }
        return false;
    }

    /** H2's "the database is read only" (SQLState 90097, which is H2's own). */
    private static final int H2_READ_ONLY = 90097;

    /**
     * A deadlock, serialization failure or lock timeout in the local database: the local
     * transaction lost a race with the application's transactions and is simply run again. Not a
     * fenced progress update (another applier took over) nor a lost connection.
     */
    static boolean lockConflict(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ProgressStore.Fenced) return false;
        }
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return state.startsWith("40") || SqlState.TIMEOUT_EXPIRED.is(state) || SqlState.LOCK_NOT_AVAILABLE.is(state)
                || e.getErrorCode() == 1205 || e.getErrorCode() == 1213 || h2DeadlockAftermath(e);
    }

    /**
     * H2 2.x sometimes reports its own rollback of a deadlock victim, racing with the victim's next
     * statement, as a general error ("Transaction was illegally transitioned from CLOSED to
     * ROLLING_BACK"): the transaction is gone, and running it again is all there is to do.
     */
    private static boolean h2DeadlockAftermath(SQLException e) {
        String message = e.getMessage();
        return e.getErrorCode() == 50000 && message != null && message.contains("Transaction was illegally transitioned");
    }

    static boolean uniqueViolation(SQLException e, Dialect dialect) {
        return SqlState.UNIQUE_VIOLATION.is(e.getSQLState()) || dialect.part(ApplySql.class).uniqueViolation(e.getErrorCode());
    }

    static boolean foreignKeyViolation(SQLException e, Dialect dialect) {
        String state = e.getSQLState();
        if (SqlState.FOREIGN_KEY_VIOLATION.is(state) || SqlState.FOREIGN_KEY_PARENT_MISSING.is(state)) return true;
        return dialect.part(ApplySql.class).foreignKeyViolation(e.getErrorCode());
    }

    static String state(SQLException e) {
        return e.getSQLState() == null ? SqlState.GENERAL_ERROR.code() : e.getSQLState();
    }
}
