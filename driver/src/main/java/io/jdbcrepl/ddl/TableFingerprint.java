package io.jdbcrepl.ddl;

import io.jdbcrepl.dialect.Dialect;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * What a DDL statement changes about tables, as a hash: their columns, indexes and foreign keys
 * (DatabaseMetaData, every vendor alike) and, for TRUNCATE, whether they hold rows. Taken before
 * a DDL that commits on its own, it tells afterwards whether that DDL ran, when the session that
 * ran it died before it could say so.
 */
public final class TableFingerprint {

    private TableFingerprint() {
    }

    /** The hash of {@code tables} (each schema, name) as they are now. */
    public static String of(Connection c, Dialect dialect, List<String[]> tables, boolean rows) throws SQLException {
        StringBuilder text = new StringBuilder();
        DatabaseMetaData md = c.getMetaData();
        for (String[] t : tables) {
            String catalog = dialect.schemasAreCatalogs() ? t[0] : null;
            String schema = dialect.schemasAreCatalogs() ? null : t[0];
            text.append("table ").append(t[0]).append('.').append(t[1]).append('\n');
            boolean exists = false;
            try (ResultSet rs = md.getColumns(catalog, schema, t[1], null)) {
                while (rs.next()) {
                    exists = true;
                    text.append(rs.getString("COLUMN_NAME")).append(' ').append(rs.getString("TYPE_NAME")).append(' ')
                            .append(rs.getInt("COLUMN_SIZE")).append(' ').append(rs.getInt("DECIMAL_DIGITS")).append(' ')
                            .append(rs.getInt("NULLABLE")).append(' ').append(rs.getString("COLUMN_DEF")).append('\n');
                }
            }
            if (!exists) {
                text.append("absent\n");
                continue;
            }
            List<String> indexes = new ArrayList<>();
            try (ResultSet rs = md.getIndexInfo(catalog, schema, t[1], false, false)) {
                while (rs.next()) {
                    indexes.add(rs.getString("INDEX_NAME") + ' ' + rs.getBoolean("NON_UNIQUE") + ' '
                            + rs.getShort("ORDINAL_POSITION") + ' ' + rs.getString("COLUMN_NAME"));
                }
            }
            try (ResultSet rs = md.getImportedKeys(catalog, schema, t[1])) {
                while (rs.next()) {
                    indexes.add("fk " + rs.getString("FK_NAME") + ' ' + rs.getString("FKCOLUMN_NAME") + ' '
                            + rs.getString("PKTABLE_NAME") + ' ' + rs.getString("PKCOLUMN_NAME"));
                }
            }
            indexes.sort(null);
            indexes.forEach(i -> text.append(i).append('\n'));
            if (rows) {
                try (Statement s = c.createStatement();
                        ResultSet rs = s.executeQuery("SELECT 1 FROM " + dialect.quote(t[0]) + "." + dialect.quote(t[1])
                                + " LIMIT 1")) { // every database here reads LIMIT
                    text.append(rs.next() ? "rows\n" : "empty\n");
                }
            }
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
