package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.mview.BoundSql;
import io.jdbcrepl.mview.KeyMatch;
import io.jdbcrepl.mview.RefreshSql;
import io.jdbcrepl.mview.ViewTable;

import java.util.ArrayList;
import java.util.List;

/** MySQL's and MariaDB's refreshes: locking reads, keys bound one by one (temporals as text), and upserts. */
final class MySqlRefreshSql implements RefreshSql {

    /** A locking read sees the rows other refreshes stamped after this transaction's snapshot. */
    @Override
    public String currentRead() {
        return " LOCK IN SHARE MODE";
    }

    @Override
    public boolean arrayParameters() {
        return false;
    }

    @Override
    public boolean temporalsAsText() {
        return true;
    }

    /** The rows of these keys that the master no longer has (or that no longer match), then an upsert that writes a row only when a value differs. */
    @Override
    public List<BoundSql> refreshInPlace(String mv, ViewTable table, KeyMatch inView, BoundSql rows) {
        BoundSql current = new BoundSql(rows.sql() + currentRead(), rows.parameters());
        List<String> set = new ArrayList<>();
        // qualified: the master has columns of the same names
        for (String c : table.others()) set.add(mv + "." + c + " = VALUES(" + c + ")");
        String k = mv + "." + table.key().get(0);
        if (set.isEmpty()) set.add(k + " = " + k); // a view of keys alone: nothing to update
        return List.of(table.deleteGone(mv, inView, current), new BoundSql("INSERT INTO " + mv + " " + current.sql()
                + " ON DUPLICATE KEY UPDATE " + String.join(", ", set), current.parameters()));
    }
}
