package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.mview.BoundSql;
import io.jdbcrepl.mview.KeyMatch;
import io.jdbcrepl.mview.RefreshSql;
import io.jdbcrepl.mview.ViewTable;

import java.util.List;

/** H2's refreshes: deleted rows read from {@code OLD TABLE}, keys bound as one array, and MERGE. */
final class H2RefreshSql implements RefreshSql {

    @Override
    public String deleteReturning(String table, String condition, String columns) {
        return "SELECT DISTINCT " + columns + " FROM OLD TABLE (DELETE FROM " + table + " WHERE " + condition + ")";
    }

    @Override
    public boolean arrayParameters() {
        return true;
    }

    /** The rows of these keys that the master no longer has (or that no longer match), then MERGE. */
    @Override
    public List<BoundSql> refreshInPlace(String mv, ViewTable table, KeyMatch inView, BoundSql rows) {
        return List.of(table.deleteGone(mv, inView, rows),
                new BoundSql("MERGE INTO " + mv + " KEY (" + String.join(", ", table.key()) + ") " + rows.sql(), rows.parameters()));
    }
}
