package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.keys.KeySource;
import io.jdbcrepl.keys.KeySql;
import io.jdbcrepl.keys.SequenceState;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * H2 2.x: identity columns (AUTO_INCREMENT too) generate their own values and are changed with
 * {@code ALTER TABLE … ALTER COLUMN … SET INCREMENT BY … RESTART WITH}; a column default
 * {@code NEXT VALUE FOR "S"."SEQ"} names a sequence; other sequences stand alone.
 */
final class H2KeySql implements KeySql {

    private static final Pattern NEXT_VALUE = Pattern.compile("NEXT VALUE FOR \"((?:[^\"]|\"\")+)\"\\.\"((?:[^\"]|\"\")+)\"");

    @Override
    public List<KeySource> sources(Connection connection, String driverSchema) throws SQLException {
        List<KeySource> out = new ArrayList<>();
        Set<String> fed = new HashSet<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, IS_IDENTITY,"
                + " IDENTITY_GENERATION, COLUMN_DEFAULT FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA <> 'INFORMATION_SCHEMA'"
                + " AND TABLE_SCHEMA <> ? AND (IS_IDENTITY = 'YES' OR COLUMN_DEFAULT LIKE '%NEXT VALUE FOR%')"
                + " ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION")) {
            ps.setString(1, driverSchema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if ("YES".equals(rs.getString(4))) {
                        out.add(new KeySource(rs.getString(1), rs.getString(2), rs.getString(3), null, null,
                                "ALWAYS".equals(rs.getString(5)) ? KeySource.Kind.ALWAYS_IDENTITY : KeySource.Kind.IDENTITY));
                        continue;
                    }
                    Matcher m = NEXT_VALUE.matcher(rs.getString(6));
                    if (!m.find()) continue;
                    String schema = m.group(1).replace("\"\"", "\"");
                    String sequence = m.group(2).replace("\"\"", "\"");
                    out.add(new KeySource(rs.getString(1), rs.getString(2), rs.getString(3), schema, sequence,
                            KeySource.Kind.DEFAULT_SEQUENCE));
                    fed.add(schema + "." + sequence);
                }
            }
        }
        try (PreparedStatement ps = connection.prepareStatement("SELECT SEQUENCE_SCHEMA, SEQUENCE_NAME FROM"
                + " INFORMATION_SCHEMA.SEQUENCES WHERE SEQUENCE_SCHEMA <> ?")) {
            ps.setString(1, driverSchema);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (fed.contains(rs.getString(1) + "." + rs.getString(2))) continue;
                    out.add(new KeySource(rs.getString(1), null, null, rs.getString(1), rs.getString(2), KeySource.Kind.SEQUENCE));
                }
            }
        }
        return out;
    }

    @Override
    public Optional<SequenceState> state(Connection connection, KeySource source) throws SQLException {
        boolean column = source.sequence() == null;
        String query = column
                ? "SELECT IDENTITY_INCREMENT, IDENTITY_BASE FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ?"
                        + " AND TABLE_NAME = ? AND COLUMN_NAME = ?"
                : "SELECT INCREMENT, BASE_VALUE FROM INFORMATION_SCHEMA.SEQUENCES WHERE SEQUENCE_SCHEMA = ? AND SEQUENCE_NAME = ?";
        try (PreparedStatement ps = connection.prepareStatement(query)) {
            ps.setString(1, column ? source.schema() : source.sequenceSchema());
            ps.setString(2, column ? source.table() : source.sequence());
            if (column) ps.setString(3, source.column());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) throw new SQLException(source.describe() + " not found", "42S02");
                return Optional.of(new SequenceState(rs.getLong(1), rs.getLong(2)));
            }
        }
    }

    @Override
    public String restart(KeySource source, long increment, long start) {
        if (source.sequence() != null) {
            return "ALTER SEQUENCE " + quote(source.sequenceSchema()) + "." + quote(source.sequence()) + " INCREMENT BY "
                    + increment + " RESTART WITH " + start;
        }
        return "ALTER TABLE " + quote(source.schema()) + "." + quote(source.table()) + " ALTER COLUMN " + quote(source.column())
                + " SET INCREMENT BY " + increment + " RESTART WITH " + start;
    }

    @Override
    public boolean alwaysIdentity(Connection connection, String schema, String table) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT 1 FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ?"
                + " AND TABLE_NAME = ? AND IS_IDENTITY = 'YES' AND IDENTITY_GENERATION = 'ALWAYS'")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
