package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.ColumnInfo;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.GeneratedKeys;
import io.jdbcrepl.lcr.TypedValue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The generated keys of a captured INSERT, shaped as the real driver shapes them, served from the
 * rows the capture read back (a SELECT of bound values on the real connection):
 * <ul>
 * <li>MariaDB Connector/J: one row {@code insert_id} (BIGINT UNSIGNED) per execution (each entry of
 *     a batch) with its first auto-increment value, none when the table has no auto-increment column;</li>
 * <li>H2: the requested columns, else the identity and primary key columns, one row per row.</li>
 * </ul>
 */
final class GeneratedKeysResult {

    private GeneratedKeysResult() {
    }

    /**
     * @param columns       the columns of {@code rows}, in order
     * @param starts        where each execution's rows start in {@code rows}
     * @param autoIncrement the 1-based position of the auto-increment column in {@code columns}, or -1
     */
    static ResultSet of(Connection connection, Dialect dialect, TableInfo table, List<String> columns,
            List<List<TypedValue>> rows, List<Integer> starts, int autoIncrement, GeneratedKeys request)
            throws SQLException {
        if (insertIdKeys(dialect)) {
            List<Long> firsts = new ArrayList<>();
            for (int start : starts) {
                if (autoIncrement > 0 && start < rows.size()) {
                    firsts.add(((Number) rows.get(start).get(autoIncrement - 1).value()).longValue());
                }
            }
            if (firsts.isEmpty()) return empty(connection, dialect, table);
            StringBuilder sql = new StringBuilder();
            for (int i = 0; i < firsts.size(); i++) {
                sql.append(i == 0 ? "SELECT CAST(? AS UNSIGNED) AS insert_id" : " UNION ALL SELECT CAST(? AS UNSIGNED)");
            }
            PreparedStatement ps = connection.prepareStatement(sql.toString());
            for (int i = 0; i < firsts.size(); i++) ps.setLong(i + 1, firsts.get(i));
            ps.closeOnCompletion();
            return ps.executeQuery();
        }
        List<Integer> picked = new ArrayList<>();
        if (request.columnNames() != null) {
            for (String name : request.columnNames()) picked.add(columns.indexOf(table.storedName(dialect.fold(name))));
        } else if (request.columnIndexes() != null) {
            for (int i : request.columnIndexes()) picked.add(i - 1);
        } else {
            for (int i = 0; i < columns.size(); i++) {
                if (i == autoIncrement - 1 || table.isKey(columns.get(i))) picked.add(i);
            }
        }
        return select(connection, table, columns, picked, rows);
    }

    /** No keys: MariaDB's empty {@code insert_id}; H2's result without columns is approximated by the key. */
    static ResultSet empty(Connection connection, Dialect dialect, TableInfo table) throws SQLException {
        String sql = insertIdKeys(dialect) ? "SELECT CAST(0 AS UNSIGNED) AS insert_id FROM DUAL WHERE 1 = 0"
                : "SELECT CAST(NULL AS " + table.column(table.key().get(0)).orElseThrow().typeName() + ") AS \""
                        + table.key().get(0) + "\" FROM DUAL WHERE 1 = 0";
        PreparedStatement ps = connection.prepareStatement(sql);
        ps.closeOnCompletion();
        return ps.executeQuery();
    }

    private static boolean insertIdKeys(Dialect dialect) {
        return dialect.part(LockingSql.class).capabilities().insertIdKeys();
    }

    /** H2: {@code SELECT CAST(? AS type) AS "C", … UNION ALL …}, one SELECT per row. */
    private static ResultSet select(Connection connection, TableInfo table, List<String> columns, List<Integer> picked,
            List<List<TypedValue>> rows) throws SQLException {
        StringBuilder sql = new StringBuilder();
        for (int r = 0; r < Math.max(1, rows.size()); r++) {
            if (r > 0) sql.append(" UNION ALL ");
            sql.append("SELECT ");
            for (int k = 0; k < picked.size(); k++) {
                ColumnInfo c = table.column(columns.get(picked.get(k))).orElseThrow();
                if (k > 0) sql.append(", ");
                sql.append("CAST(").append(rows.isEmpty() ? "NULL" : "?").append(" AS ").append(c.typeName())
                        .append(") AS \"").append(c.name().replace("\"", "\"\"")).append('"');
            }
            if (rows.isEmpty()) sql.append(" FROM DUAL WHERE 1 = 0");
        }
        PreparedStatement ps = connection.prepareStatement(sql.toString());
        int i = 0;
        for (List<TypedValue> row : rows) {
            for (int p : picked) {
                TypedValue v = row.get(p);
                v.type().bind(ps, ++i, v.value());
            }
        }
        ps.closeOnCompletion();
        return ps.executeQuery();
    }
}
