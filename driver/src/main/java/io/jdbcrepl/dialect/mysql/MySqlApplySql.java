package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.apply.ApplySql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/** The MySQL family's apply SQL: one for MySQL 8 and MariaDB, which tell apart at run time where they differ. */
final class MySqlApplySql implements ApplySql {

    /**
     * MariaDB's InnoDB lock waits, needing the PROCESS privilege. MariaDB fills these tables from a
     * cache that it refreshes only when nobody has read them for 100 ms, so the answer is asked at
     * most every 250 ms and kept in between (asked more often, the cache would never change).
     */
    private static final LockWaitQuery MARIADB_LOCK_WAITS = new LockWaitQuery(
            "SELECT EXISTS (SELECT 1 FROM information_schema.innodb_lock_waits w"
            + " JOIN information_schema.innodb_trx t ON t.trx_id = w.blocking_trx_id"
            + " WHERE t.trx_mysql_thread_id = CONNECTION_ID())", Duration.ofMillis(250));
    /** MySQL 8's, needing the performance schema. */
    private static final LockWaitQuery MYSQL_LOCK_WAITS = new LockWaitQuery(
            "SELECT EXISTS (SELECT 1 FROM performance_schema.data_lock_waits w"
            + " JOIN performance_schema.threads t ON t.thread_id = w.blocking_thread_id"
            + " WHERE t.processlist_id = CONNECTION_ID())", Duration.ZERO);

    @Override
    public String jsonParameter() {
        return "?";
    }

    @Override
    public String nullSafeEquals() {
        return " <=> ?";
    }

    @Override
    public String oneRowOf(String table, String where) {
        return where + " LIMIT 1";
    }

    /**
     * Passing conditions that come with SQLState HY000 or HY001: lock wait timeout (1205), deadlock
     * (1213), disk full (1021), table full (1114), out of memory (1037, 1038, 1041), read-only server
     * (1290, 1836), query interrupted or over its time (1317, 1969, 3024).
     */
    private static final Set<Integer> PASSING = Set.of(1205, 1213, 1021, 1114, 1037, 1038, 1041, 1290, 1836, 1317, 1969, 3024);

    @Override
    public boolean passing(SQLException e) {
        return PASSING.contains(e.getErrorCode());
    }

    /** Lock wait timeout, deadlock. */
    @Override
    public boolean lockConflict(SQLException e) {
        return e.getErrorCode() == 1205 || e.getErrorCode() == 1213;
    }

    /** ER_DUP_ENTRY. */
    @Override
    public boolean uniqueViolation(int errorCode) {
        return errorCode == 1062;
    }

    /** ER_ROW_IS_REFERENCED(_2), ER_NO_REFERENCED_ROW(_2). */
    @Override
    public boolean foreignKeyViolation(int errorCode) {
        return errorCode == 1451 || errorCode == 1452 || errorCode == 1216 || errorCode == 1217;
    }

    /** Whichever the server has: MariaDB's first, then MySQL 8's. */
    @Override
    public List<LockWaitQuery> lockWaitQueries() {
        return List.of(MARIADB_LOCK_WAITS, MYSQL_LOCK_WAITS);
    }

    /** Changes are sent one at a time, each with its own count. */
    @Override
    public boolean batchesChanges() {
        return false;
    }

    /** InnoDB's REPEATABLE READ would show a conflict's row as of an older snapshot than the UPDATE saw. */
    @Override
    public boolean applyReadCommitted() {
        return true;
    }

    /**
     * The session shows and takes TIMESTAMP values in UTC, so that a logged instant is bound as UTC
     * text and a row's TIMESTAMP is read back as the instant it holds, whatever the server's default zone.
     */
    @Override
    public void instantsInUtc(Connection local) throws SQLException {
        try (Statement s = local.createStatement()) {
            s.execute("SET time_zone = '+00:00'");
        }
    }

    /** The MySQL-family connectors' timeouts are in milliseconds. */
    @Override
    public void peerTimeouts(Duration timeout, Properties p) {
        String millis = String.valueOf(Math.max(1, timeout.toMillis()));
        p.setProperty("connectTimeout", millis);
        p.setProperty("socketTimeout", millis);
    }
}
