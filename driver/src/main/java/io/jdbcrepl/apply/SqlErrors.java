package io.jdbcrepl.apply;

import io.jdbcrepl.capture.sql.Dialect;

import java.sql.SQLException;

/** Which local errors are worth retrying, and which are conflicts (SPEC 5.1). */
final class SqlErrors {

    private SqlErrors() {
    }

    /** Deadlocks, serialization failures, lock timeouts, lost connections: the whole group is retried. */
    static boolean transientError(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ProgressStore.Fenced) return true;
            if (!(t instanceof SQLException s)) continue;
            String state = s.getSQLState() == null ? "" : s.getSQLState();
            if (state.startsWith("40") || state.startsWith("08") || state.equals("HYT00") || state.equals("55P03")
                    || state.startsWith("57P") || s.getErrorCode() == 1205 || s.getErrorCode() == 1213
                    || s instanceof java.sql.SQLTransientException || s instanceof java.sql.SQLRecoverableException) {
                return true;
            }
        }
        return false;
    }

    static boolean uniqueViolation(SQLException e, Dialect dialect) {
        return "23505".equals(e.getSQLState()) || (dialect == Dialect.MYSQL && e.getErrorCode() == 1062);
    }

    static boolean foreignKeyViolation(SQLException e, Dialect dialect) {
        String state = e.getSQLState();
        if ("23503".equals(state) || "23506".equals(state)) return true;
        int code = e.getErrorCode();
        return dialect == Dialect.MYSQL && (code == 1451 || code == 1452 || code == 1216 || code == 1217);
    }

    static String state(SQLException e) {
        return e.getSQLState() == null ? "HY000" : e.getSQLState();
    }
}
