package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.keys.KeySource;
import io.jdbcrepl.keys.KeySql;
import io.jdbcrepl.keys.SequenceState;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * PostgreSQL's sequences: those a column owns (serial, identity: {@code pg_depend} kinds {@code a}
 * and {@code i}), those a column default names ({@code nextval('…')}), and those alone.
 */
final class PostgresKeySql implements KeySql {

    private static final String SYSTEM = "('pg_catalog', 'information_schema', 'pg_toast')";

    /** Every sequence, with the column that owns it, if one does. */
    private static final String OWNED = "SELECT n.nspname, c.relname, a.attname, sn.nspname, s.relname, a.attidentity"
            + " FROM pg_class s JOIN pg_namespace sn ON sn.oid = s.relnamespace"
            + " LEFT JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.oid"
            + " AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i') AND d.refobjsubid > 0"
            + " LEFT JOIN pg_class c ON c.oid = d.refobjid LEFT JOIN pg_namespace n ON n.oid = c.relnamespace"
            + " LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = d.refobjsubid"
            + " WHERE s.relkind = 'S' AND sn.nspname NOT IN " + SYSTEM + " AND sn.nspname <> ?";
    /** Every column whose default names a sequence. */
    private static final String DEFAULTS = "SELECT n.nspname, c.relname, a.attname, sn.nspname, s.relname, a.attidentity"
            + " FROM pg_attrdef ad JOIN pg_depend d ON d.classid = 'pg_attrdef'::regclass AND d.objid = ad.oid"
            + " AND d.refclassid = 'pg_class'::regclass"
            + " JOIN pg_class s ON s.oid = d.refobjid AND s.relkind = 'S' JOIN pg_namespace sn ON sn.oid = s.relnamespace"
            + " JOIN pg_class c ON c.oid = ad.adrelid JOIN pg_namespace n ON n.oid = c.relnamespace"
            + " JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum AND NOT a.attisdropped"
            + " WHERE n.nspname NOT IN " + SYSTEM + " AND n.nspname <> ?";

    @Override
    public List<KeySource> sources(Connection connection, String driverSchema) throws SQLException {
        List<KeySource> columns = new ArrayList<>();
        List<KeySource> alone = new ArrayList<>();
        for (String query : List.of(OWNED, DEFAULTS)) {
            try (PreparedStatement ps = connection.prepareStatement(query)) {
                ps.setString(1, driverSchema);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        if (rs.getString(3) == null) {
                            alone.add(new KeySource(rs.getString(4), null, null, rs.getString(4), rs.getString(5),
                                    KeySource.Kind.SEQUENCE));
                        } else {
                            KeySource s = new KeySource(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                                    rs.getString(5), kind(rs.getString(6)));
                            if (!columns.contains(s)) columns.add(s); // serial: owned and named by the default
                        }
                    }
                }
            }
        }
        Set<String> fed = new HashSet<>();
        for (KeySource s : columns) fed.add(s.sequenceSchema() + "." + s.sequence());
        List<KeySource> out = new ArrayList<>(columns);
        for (KeySource s : alone) {
            if (!fed.contains(s.sequenceSchema() + "." + s.sequence())) out.add(s);
        }
        return out;
    }

    private static KeySource.Kind kind(String identity) {
        if ("a".equals(identity)) return KeySource.Kind.ALWAYS_IDENTITY;
        if ("d".equals(identity)) return KeySource.Kind.IDENTITY;
        return KeySource.Kind.DEFAULT_SEQUENCE;
    }

    @Override
    public Optional<SequenceState> state(Connection connection, KeySource source) throws SQLException {
        long increment;
        try (PreparedStatement ps = connection.prepareStatement("SELECT seqincrement FROM pg_sequence WHERE seqrelid = ?::regclass")) {
            ps.setString(1, name(source));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) throw new SQLException("sequence " + name(source) + " not found", "42P01");
                increment = rs.getLong(1);
            }
        }
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT last_value, is_called FROM " + name(source))) {
            rs.next();
            long last = rs.getLong(1);
            return Optional.of(new SequenceState(increment, rs.getBoolean(2) ? last + increment : last));
        }
    }

    @Override
    public String restart(KeySource source, long increment, long start) {
        return "ALTER SEQUENCE " + name(source) + " INCREMENT BY " + increment + " RESTART WITH " + start;
    }

    @Override
    public boolean alwaysIdentity(Connection connection, String schema, String table) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT 1 FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
                + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relname = ? AND a.attidentity = 'a'"
                + " AND NOT a.attisdropped")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static String name(KeySource source) {
        return quote(source.sequenceSchema()) + "." + quote(source.sequence());
    }

    private static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
