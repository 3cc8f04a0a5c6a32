package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.apply.ApplySql;
import io.jdbcrepl.lcr.Json;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

/** PostgreSQL's apply SQL. */
final class PostgresApplySql implements ApplySql {

    /** Readable by any user. */
    private static final LockWaitQuery LOCK_WAITS = new LockWaitQuery("SELECT EXISTS (SELECT 1 FROM pg_locks w WHERE NOT w.granted"
            + " AND pg_backend_pid() = ANY (pg_blocking_pids(w.pid)))", Duration.ZERO);

    @Override
    public String jsonParameter() {
        return "?::json";
    }

    @Override
    public String nullSafeEquals() {
        return " IS NOT DISTINCT FROM ?";
    }

    /** The row picked by {@code ctid}: PostgreSQL's UPDATE and DELETE take no LIMIT. */
    @Override
    public String oneRowOf(String table, String where) {
        return " WHERE ctid = (SELECT ctid FROM " + table + where + " LIMIT 1)";
    }

    /** PostgreSQL says it all by SQLState. */
    @Override
    public boolean passing(SQLException e) {
        return false;
    }

    @Override
    public boolean lockConflict(SQLException e) {
        return false;
    }

    @Override
    public List<LockWaitQuery> lockWaitQueries() {
        return List.of(LOCK_WAITS);
    }

    /**
     * What PostgreSQL cannot hold, from a MariaDB or H2 source's text log, kept readable rather than
     * stopping the applier on the entry: text that is not JSON, for a json column, as a JSON string
     * holding it exactly (so is JSON with raw control characters); a NUL character, in a text column, as the six characters {@code \\u0000}.
     */
    @Override
    public String storable(String text, boolean json) {
        if (!json) return text.replace("\u0000", "\\u0000");
        try {
            Json.read(text);
            // this reader takes raw control characters in strings, which PostgreSQL refuses; the driver never writes them
            return text.chars().anyMatch(c -> c < 0x20) ? Json.write(text) : text;
        } catch (RuntimeException notJson) {
            return Json.write(text);
        }
    }

    /** pgjdbc sends a batch of INSERTs as one multi-row INSERT per 128 rows, not one statement per row. */
    @Override
    public void bulkInserts(Properties p) {
        p.putIfAbsent("reWriteBatchedInserts", "true");
    }

    /** pgjdbc's timeouts are in seconds. */
    @Override
    public void peerTimeouts(Duration timeout, Properties p) {
        String seconds = String.valueOf(Math.max(1, (timeout.toMillis() + 999) / 1000));
        p.setProperty("connectTimeout", seconds);
        p.setProperty("loginTimeout", seconds);
        p.setProperty("socketTimeout", seconds);
    }
}
