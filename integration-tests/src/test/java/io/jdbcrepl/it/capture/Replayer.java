package io.jdbcrepl.it.capture;

import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.lcr.ValueType;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A minimal apply side, written for the tests from SPEC 3 and 5.1 alone: applies row LCRs in
 * position order to copies of the captured tables, through a raw connection, and checks on the
 * way what an apply side relies on: an INSERT carries every column, an UPDATE or DELETE finds
 * exactly one row by its old key, and every old value it carries equals the row's current value
 * (no update conflict where there was none).
 */
final class Replayer {

    private final Connection target;
    private final String schema;
    private final Map<String, List<String>> keys;
    private final Map<String, Table> tables = new HashMap<>();

    /**
     * @param target a raw connection to the database holding the copies
     * @param schema the copies' schema
     * @param keys   each table's key columns (primary or substitute key)
     */
    Replayer(Connection target, String schema, Map<String, List<String>> keys) {
        this.target = target;
        this.schema = schema;
        this.keys = keys;
    }

    /** A table's columns in order, and which of them the database computes (GENERATED ALWAYS AS … STORED). */
    private record Table(List<String> columns, Set<String> computed) {
    }

    void applyAll(List<LoggedLcr> lcrs) throws SQLException {
        for (LoggedLcr lcr : lcrs) apply(lcr);
    }

    void apply(LoggedLcr lcr) throws SQLException {
        Table table = table(lcr.table());
        List<String> key = keys.get(lcr.table());
        assertThat(key).as("key columns of %s given to the replayer", lcr.table()).isNotNull();
        switch (lcr.command()) {
            case "INSERT" -> insert(lcr, table);
            case "UPDATE" -> update(lcr, table, key);
            case "DELETE" -> delete(lcr, table, key);
            default -> throw new AssertionError("unknown command type in " + lcr);
        }
    }

    private void insert(LoggedLcr lcr, Table table) throws SQLException {
        assertThat(lcr.oldValues() == null || lcr.oldValues().isEmpty()).as("an INSERT has no old values: %s", lcr).isTrue();
        assertThat(lcr.newValues()).as("new values of %s", lcr).isNotNull();
        assertThat(lcr.newValues().asMap().keySet()).as("an INSERT carries every column of the row: %s", lcr)
                .containsExactlyElementsOf(table.columns());
        List<Map.Entry<String, TypedValue>> values = new ArrayList<>();
        for (Map.Entry<String, TypedValue> e : lcr.newValues().asMap().entrySet()) {
            if (!table.computed().contains(e.getKey())) values.add(e);
        }
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(qualified(lcr.table())).append(" (");
        StringBuilder marks = new StringBuilder();
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                sql.append(", ");
                marks.append(", ");
            }
            sql.append(quote(values.get(i).getKey()));
            marks.append('?');
        }
        sql.append(") OVERRIDING SYSTEM VALUE VALUES (").append(marks).append(')');
        try (PreparedStatement ps = target.prepareStatement(sql.toString())) {
            int i = 1;
            for (Map.Entry<String, TypedValue> e : values) bind(ps, i++, e.getValue());
            assertThat(ps.executeUpdate()).as("rows inserted replaying %s", lcr).isEqualTo(1);
        }
        RowImage stored = current(lcr.table(), keyImage(lcr.newValues(), keys.get(lcr.table()), lcr), lcr.newValues());
        assertSameValues(stored, lcr.newValues(), "the replayed row (with its computed columns) vs the LCR's new values: " + lcr);
    }

    private void update(LoggedLcr lcr, Table table, List<String> key) throws SQLException {
        assertThat(lcr.oldValues()).as("old values of %s", lcr).isNotNull();
        assertThat(lcr.newValues()).as("new values of %s", lcr).isNotNull();
        RowImage oldKey = keyImage(lcr.oldValues(), key, lcr);
        RowImage before = current(lcr.table(), oldKey, lcr.oldValues());
        assertThat(before).as("the row of %s, found by its old key", lcr).isNotNull();
        assertSameValues(before, lcr.oldValues(), "the row's current values vs the LCR's old values (an update conflict"
                + " where there was none): " + lcr);
        List<Map.Entry<String, TypedValue>> set = new ArrayList<>();
        for (Map.Entry<String, TypedValue> e : lcr.newValues().asMap().entrySet()) {
            if (!table.computed().contains(e.getKey())) set.add(e);
        }
        assertThat(set).as("an UPDATE LCR assigns something: %s", lcr).isNotEmpty();
        StringBuilder sql = new StringBuilder("UPDATE ").append(qualified(lcr.table())).append(" SET ");
        for (int i = 0; i < set.size(); i++) {
            if (i > 0) sql.append(", ");
            sql.append(quote(set.get(i).getKey())).append(" = ?");
        }
        sql.append(where(key));
        try (PreparedStatement ps = target.prepareStatement(sql.toString())) {
            int i = 1;
            for (Map.Entry<String, TypedValue> e : set) bind(ps, i++, e.getValue());
            for (String k : key) bind(ps, i++, oldKey.get(k));
            assertThat(ps.executeUpdate()).as("rows updated replaying %s", lcr).isEqualTo(1);
        }
    }

    private void delete(LoggedLcr lcr, Table table, List<String> key) throws SQLException {
        assertThat(lcr.newValues() == null || lcr.newValues().isEmpty()).as("a DELETE has no new values: %s", lcr).isTrue();
        assertThat(lcr.oldValues()).as("old values of %s", lcr).isNotNull();
        assertThat(lcr.oldValues().asMap().keySet()).as("a DELETE carries every old value: %s", lcr)
                .containsExactlyElementsOf(table.columns());
        RowImage oldKey = keyImage(lcr.oldValues(), key, lcr);
        RowImage before = current(lcr.table(), oldKey, lcr.oldValues());
        assertThat(before).as("the row of %s, found by its old key", lcr).isNotNull();
        assertSameValues(before, lcr.oldValues(), "the row's current values vs the DELETE's old values: " + lcr);
        try (PreparedStatement ps = target.prepareStatement("DELETE FROM " + qualified(lcr.table()) + where(key))) {
            int i = 1;
            for (String k : key) bind(ps, i++, oldKey.get(k));
            assertThat(ps.executeUpdate()).as("rows deleted replaying %s", lcr).isEqualTo(1);
        }
    }

    private static RowImage keyImage(RowImage image, List<String> key, LoggedLcr lcr) {
        RowImage out = new RowImage();
        for (String k : key) {
            assertThat(image.has(k)).as("key column %s in %s", k, lcr).isTrue();
            out.put(k, image.get(k));
        }
        return out;
    }

    /** The row with {@code key}, read as the columns (and types) of {@code shape}; null when there is none. */
    private RowImage current(String table, RowImage key, RowImage shape) throws SQLException {
        List<String> columns = new ArrayList<>(shape.asMap().keySet());
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) sql.append(", ");
            sql.append(quote(columns.get(i)));
        }
        sql.append(" FROM ").append(qualified(table)).append(where(new ArrayList<>(key.asMap().keySet())));
        try (PreparedStatement ps = target.prepareStatement(sql.toString())) {
            int i = 1;
            for (TypedValue v : key.asMap().values()) bind(ps, i++, v);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return null;
                RowImage row = new RowImage();
                for (int c = 0; c < columns.size(); c++) {
                    ValueType type = shape.get(columns.get(c)).type();
                    row.put(columns.get(c), type, type.read(rs, c + 1));
                }
                assertThat(rs.next()).as("more than one row of %s with key %s", table, key).isFalse();
                return row;
            }
        }
    }

    /** Equal images; timestamps with time zone compare as instants (PostgreSQL keeps no offset). */
    static void assertSameValues(RowImage actual, RowImage expected, String what) {
        assertThat(normalized(actual)).as(what).isEqualTo(normalized(expected));
    }

    static Map<String, Object> normalized(RowImage image) {
        Map<String, Object> out = new LinkedHashMap<>();
        image.asMap().forEach((k, v) -> out.put(k, normalized(v)));
        return out;
    }

    static Object normalized(TypedValue v) {
        Object value = v.value();
        if (value instanceof OffsetDateTime t) value = t.toInstant();
        if (value instanceof byte[] b) value = java.util.HexFormat.of().formatHex(b);
        return v.type().logName() + ":" + Objects.toString(value);
    }

    private static void bind(PreparedStatement ps, int index, TypedValue v) throws SQLException {
        v.type().bind(ps, index, v.value());
    }

    private Table table(String name) throws SQLException {
        Table known = tables.get(name);
        if (known != null) return known;
        List<String> columns = new ArrayList<>();
        Set<String> computed = new LinkedHashSet<>();
        try (PreparedStatement ps = target.prepareStatement("SELECT column_name, is_generated FROM information_schema.columns"
                + " WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position")) {
            ps.setString(1, schema);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(rs.getString(1));
                    if ("ALWAYS".equals(rs.getString(2))) computed.add(rs.getString(1));
                }
            }
        }
        assertThat(columns).as("columns of the copy %s.%s", schema, name).isNotEmpty();
        Table t = new Table(columns, computed);
        tables.put(name, t);
        return t;
    }

    private String where(List<String> key) {
        StringBuilder sb = new StringBuilder(" WHERE ");
        for (int i = 0; i < key.size(); i++) {
            if (i > 0) sb.append(" AND ");
            sb.append(quote(key.get(i))).append(" = ?");
        }
        return sb.toString();
    }

    private String qualified(String table) {
        return quote(schema) + "." + quote(table);
    }

    private static String quote(String identifier) {
        return ChangeLogReader.quote(identifier);
    }
}
