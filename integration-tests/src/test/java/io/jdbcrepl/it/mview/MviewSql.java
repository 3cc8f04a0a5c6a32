package io.jdbcrepl.it.mview;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Small helpers of the materialized view tests: run SQL, read rows as text. */
public final class MviewSql {

    private MviewSql() {
    }

    static void run(Connection c, String... sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String q : sql) s.execute(q);
        }
    }

    /** Every row as its values joined by a space, NULL as "null" (a list the caller may change). */
    public static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    if (i > 1) sb.append(' ');
                    Object v = rs.getObject(i);
                    sb.append(v instanceof Number num ? new java.math.BigDecimal(num.toString()).stripTrailingZeros().toPlainString()
                            : v instanceof byte[] bytes ? "x" + java.util.HexFormat.of().formatHex(bytes) : String.valueOf(v));
                }
                out.add(sb.toString());
            }
        }
        return out;
    }

    /** A table's column names in order, upper case (the seed's {@code desc}). */
    static List<String> columns(Connection c, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM " + table + " WHERE 1 = 0")) {
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) out.add(md.getColumnName(i).toUpperCase(Locale.ROOT));
        }
        return out;
    }
}
