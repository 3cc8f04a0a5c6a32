package io.jdbcrepl.it.support;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Result sets as comparable text: every row as {@code [LABEL=value, ...]}, labels as the driver gives them. */
public final class Rows {

    private Rows() {
    }

    /** Every remaining row, then closes the result set. */
    public static List<String> of(ResultSet rs) throws SQLException {
        try (rs) {
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(current(rs));
            }
            return rows;
        }
    }

    /** The row the cursor is on. */
    public static String current(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        StringBuilder sb = new StringBuilder("[");
        for (int i = 1; i <= md.getColumnCount(); i++) {
            if (i > 1) sb.append(", ");
            sb.append(md.getColumnLabel(i)).append('=').append(Trace.render(rs.getObject(i)));
        }
        return sb.append(']').toString();
    }

    /** The columns' labels and type names, as {@code LABEL:TYPE}. */
    public static List<String> columns(ResultSetMetaData md) throws SQLException {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            out.add(md.getColumnLabel(i) + ":" + md.getColumnTypeName(i) + "(" + md.getColumnType(i) + ")");
        }
        return out;
    }
}
