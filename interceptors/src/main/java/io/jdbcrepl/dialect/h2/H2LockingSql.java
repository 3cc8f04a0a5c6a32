package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.locking.LockingCapabilities;
import io.jdbcrepl.capture.locking.LockingSql;
import io.jdbcrepl.capture.locking.PlannedSql;
import io.jdbcrepl.capture.locking.SqlBuilder;
import io.jdbcrepl.capture.locking.UpdatePlan;
import io.jdbcrepl.lcr.ValueType;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Locking capture on H2 2.x: data change delta tables, unique keys checked at the end of a statement. */
final class H2LockingSql implements LockingSql {

    private static final LockingCapabilities CAPABILITIES = new LockingCapabilities(false, false, true, false, true, true,
            false, false, false);

    /** Numbers the spill tables of the plans: a connection's local temporary table of each plan keeps its columns. */
    private static final AtomicLong SPILL_TABLES = new AtomicLong();

    @Override
    public LockingCapabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public boolean uniqueCheckedAtStatementEnd() {
        return true;
    }

    @Override
    public String limit(int rows) {
        return " FETCH FIRST " + rows + " ROWS ONLY";
    }

    @Override
    public String now(ColumnInfo column) {
        return column.type() == ValueType.TIMESTAMPTZ ? "CURRENT_TIMESTAMP(6)" : "LOCALTIMESTAMP(6)";
    }

    @Override
    public String plusMicrosecond(String value) {
        return "DATEADD(MICROSECOND, 1, " + value + ")";
    }

    @Override
    public String nullSafeEquals() {
        return " IS NOT DISTINCT FROM ";
    }

    /**
     * Only a TRANSACTIONAL local temporary table is created without a commit, and DROP TABLE commits:
     * each connection keeps the plan's table, emptied after each statement. Rows keep the read's order
     * in _ROWID_. H2 checks unique keys once a statement has changed all its rows: one UPDATE changes
     * them all.
     */
    @Override
    public UpdatePlan.Spill spill(PlannedSql head, PlannedSql read, PlannedSql updatePrefix, List<String> key,
            List<String> columns, int pageSize) {
        String name = "\"repl_capture_rows_" + SPILL_TABLES.incrementAndGet() + "\"";
        PlannedSql create = new SqlBuilder().sql("CREATE LOCAL TEMPORARY TABLE IF NOT EXISTS " + name + " TRANSACTIONAL AS (")
                .append(head).sql(") WITH NO DATA").build();
        PlannedSql insert = new SqlBuilder().sql("INSERT INTO " + name + " ").append(read).build();
        String page = "SELECT " + String.join(", ", columns) + ", _ROWID_ FROM " + name
                + " WHERE _ROWID_ > ? ORDER BY _ROWID_" + limit(pageSize);
        PlannedSql whole = new SqlBuilder().append(updatePrefix).sql("(" + String.join(", ", key) + ") IN (SELECT "
                + String.join(", ", columns.subList(0, key.size())) + " FROM " + name + ")").build();
        return new UpdatePlan.Spill(List.of(create, insert), new PlannedSql(page, List.of(PlannedSql.DRIVER)), whole,
                "DELETE FROM " + name);
    }
}
