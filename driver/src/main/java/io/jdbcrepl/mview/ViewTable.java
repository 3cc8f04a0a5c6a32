package io.jdbcrepl.mview;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.mview.MviewCommand.Name;
import io.jdbcrepl.node.TableCatalog;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * A view's table as a fast refresh writes it: the columns that hold the master's refresh key, the
 * others (both quoted), and whether the key columns are unique in it (a view without aggregates made
 * with its key as PRIMARY KEY or UNIQUE index): then it is refreshed in place, writing only the rows
 * whose values changed.
 */
public record ViewTable(List<String> key, List<String> others, boolean unique) {

    /** The columns of the view's table that hold the master's {@code key} columns, and the rest. */
    static ViewTable read(Connection raw, Dialect dialect, ViewDefinition view, List<String> key) throws SQLException {
        List<String> names = new ArrayList<>();
        try (PreparedStatement ps = raw.prepareStatement("SELECT * FROM " + Sql.quote(dialect, view.view()) + " WHERE 1 = 0");
                ResultSet rs = ps.executeQuery()) {
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) names.add(md.getColumnName(i));
        }
        List<String> keyNames = new ArrayList<>();
        for (String k : key) {
            String found = null;
            if (view.query().star()) {
                found = names.stream().filter(k::equalsIgnoreCase).findFirst().orElse(null);
            } else {
                List<ViewQuery.Item> items = view.query().items();
                for (int i = 0; i < items.size() && found == null; i++) {
                    if (k.equalsIgnoreCase(items.get(i).column())) found = names.get(i);
                }
            }
            if (found == null) throw SqlState.UNDEFINED_COLUMN.exception(
                    "Materialized view " + view.view() + " has no column for " + k);
            keyNames.add(found);
        }
        List<String> others = names.stream().filter(n -> !keyNames.contains(n)).map(n -> Sql.quote(dialect, n)).toList();
        boolean unique = !view.query().aggregate() && uniqueIndexOn(raw, dialect, view.view(), keyNames);
        return new ViewTable(keyNames.stream().map(n -> Sql.quote(dialect, n)).toList(), others, unique);
    }

    /**
     * Deletes the view's rows of {@code inView}'s keys that {@code rows} (the keys' rows computed
     * from the master) no longer has, or no longer match: before an upsert of {@code rows}.
     */
    public BoundSql deleteGone(String view, KeyMatch inView, BoundSql rows) {
        String keys = key.size() == 1 ? key.get(0) : "(" + String.join(", ", key) + ")";
        List<Object> both = new ArrayList<>(inView.parameters());
        both.addAll(rows.parameters());
        return new BoundSql("DELETE FROM " + view + " WHERE (" + inView.sql() + ") AND " + keys + " NOT IN (SELECT "
                + String.join(", ", key) + " FROM (" + rows.sql() + ") repl_n)", both);
    }

    /** Whether one unique index (or the primary key) of {@code table} has exactly {@code columns}. */
    private static boolean uniqueIndexOn(Connection raw, Dialect dialect, Name table, List<String> columns) throws SQLException {
        Set<String> wanted = new TreeSet<>();
        for (String c : columns) wanted.add(c.toLowerCase(Locale.ROOT));
        String catalog = dialect.schemasAreCatalogs() ? table.schema() : null;
        String schema = dialect.schemasAreCatalogs() ? null : table.schema();
        for (List<String> index : TableCatalog.uniqueIndexes(raw.getMetaData(), catalog, schema, table.name()).values()) {
            if (index.contains(null)) continue; // on an expression
            Set<String> has = new TreeSet<>();
            for (String c : index) has.add(c.toLowerCase(Locale.ROOT));
            if (has.equals(wanted)) return true;
        }
        return false;
    }
}
