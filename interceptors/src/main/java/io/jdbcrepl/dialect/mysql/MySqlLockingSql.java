package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.locking.LockingCapabilities;
import io.jdbcrepl.capture.locking.LockingSql;
import io.jdbcrepl.capture.locking.PlannedSql;
import io.jdbcrepl.capture.locking.SqlBuilder;
import io.jdbcrepl.capture.locking.UpdatePlan;

import java.util.List;

/** Locking capture on the MySQL family: MariaDB 10.6+'s RETURNING, IGNORE, ON DUPLICATE KEY UPDATE, compound statements. */
final class MySqlLockingSql implements LockingSql {

    private final LockingCapabilities capabilities;

    /** {@code strictResultKinds}: MySQL Connector/J's answers to executeQuery/executeUpdate (see {@link LockingCapabilities}). */
    MySqlLockingSql(boolean strictResultKinds) {
        this.capabilities = new LockingCapabilities(true, true, false, true, false, false, strictResultKinds, true,
                true);
    }

    @Override
    public LockingCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public boolean returning() {
        return true;
    }

    @Override
    public boolean ignore() {
        return true;
    }

    @Override
    public boolean onDuplicateKeyUpdate() {
        return true;
    }

    @Override
    public boolean setLeftToRight() {
        return true;
    }

    @Override
    public boolean oneRowBlock() {
        return true;
    }

    @Override
    public boolean updateOrderBy() {
        return true;
    }

    @Override
    public String limit(int rows) {
        return " LIMIT " + rows;
    }

    @Override
    public String now(ColumnInfo column) {
        return "NOW(6)";
    }

    @Override
    public String plusMicrosecond(String value) {
        return value + " + INTERVAL 1 MICROSECOND";
    }

    @Override
    public String nullSafeEquals() {
        return " <=> ";
    }

    /** CREATE TEMPORARY TABLE neither commits nor needs the table's types spelled out; positions follow the read's order. */
    @Override
    public UpdatePlan.Spill spill(PlannedSql head, PlannedSql read, PlannedSql updatePrefix, List<String> key,
            List<String> columns, int pageSize) {
        String name = "repl_capture_rows";
        PlannedSql fill = new SqlBuilder().sql("CREATE OR REPLACE TEMPORARY TABLE " + name
                + " (repl_pos BIGINT AUTO_INCREMENT PRIMARY KEY) ").append(read).build();
        String page = "SELECT " + String.join(", ", columns) + ", repl_pos FROM " + name
                + " WHERE repl_pos > ? ORDER BY repl_pos" + limit(pageSize);
        return new UpdatePlan.Spill(List.of(fill), new PlannedSql(page, List.of(PlannedSql.DRIVER)), null,
                "DROP TEMPORARY TABLE IF EXISTS " + name);
    }
}
