package io.jdbcrepl.apply;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;

import java.sql.SQLException;
import java.util.List;
import java.util.function.Predicate;

/** Which local errors are worth retrying, and which are conflicts (SPEC 5.1). */
public final class SqlErrors {

    private SqlErrors() {
    }

    /**
     * Every database's reading of its own error codes: an error may come from this node's database or
     * from a source, of any kind, so each is asked (their codes do not overlap).
     */
    private static final class Vendors {
        static final List<ApplySql> ALL = Dialect.all().stream().map(d -> d.part(ApplySql.class)).distinct().toList();

        static boolean say(Predicate<ApplySql> test) {
            for (ApplySql v : ALL) {
                if (test.test(v)) return true;
            }
            return false;
        }
    }

    /**
     * What passes by itself (SPEC 8.8), so the applier pauses and retries with backoff instead of
     * queueing the transaction: deadlocks and serialization failures (class 40), lost connections
     * (08), insufficient resources such as a full disk or too many connections (53), an operator
     * intervention, shutdown or recovery (57), a read-only database (25006), lock and statement
     * timeouts, another applier taking over (fencing), and what a database says passes by its own
     * codes ({@link ApplySql#passing}).
     */
    public static boolean transientError(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ProgressStore.Fenced) return true;
            if (!(t instanceof SQLException s)) continue;
            String state = s.getSQLState() == null ? "" : s.getSQLState();
            if (state.startsWith("40") || state.startsWith("08") || state.startsWith("53") || state.startsWith("57")
                    || SqlState.READ_ONLY_SQL_TRANSACTION.is(state) || SqlState.TIMEOUT_EXPIRED.is(state)
                    || SqlState.LOCK_NOT_AVAILABLE.is(state) || SqlState.QUERY_INTERRUPTED.is(state)
                    || s instanceof java.sql.SQLTransientException || s instanceof java.sql.SQLRecoverableException
                    || Vendors.say(v -> v.passing(s))) {
                return true;
            }
        }
        return false;
    }

    /**
     * A deadlock, serialization failure or lock timeout in the local database: the local
     * transaction lost a race with the application's transactions and is simply run again. Not a
     * fenced progress update (another applier took over) nor a lost connection. A database may say
     * so by its own codes ({@link ApplySql#lockConflict}).
     */
    static boolean lockConflict(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ProgressStore.Fenced) return false;
        }
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return state.startsWith("40") || SqlState.TIMEOUT_EXPIRED.is(state) || SqlState.LOCK_NOT_AVAILABLE.is(state)
                || Vendors.say(v -> v.lockConflict(e));
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
