package io.jdbcrepl.it.apply;

import io.jdbcrepl.api.ErrorEntry;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.lcr.ValueType;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SPEC 3.2 and 8.8, PostgreSQL ⇄ MariaDB through both MariaDB connectors: the MariaDB node's URL
 * is {@code jdbc:repl:mariadb:} (MariaDB Connector/J) or {@code jdbc:repl:mysql:} (MySQL
 * Connector/J, which takes MariaDB 10's {@code 5.5.5-10.x} handshake for a server without
 * fractional seconds and drops the microseconds of bound temporal parameters: ENGINEERING.md).
 * Every common type with its edge values (microsecond {@code TIME(6)}, {@code DATETIME(6)},
 * {@code TIMESTAMP(6)}, timestamps written with several offsets, NULLs, unicode with emoji, all
 * 256 byte values, numerics at their range edges, large text and binary) is inserted on each node
 * and updated on the other; each node must then hold, by value, what the applications wrote.
 * The driver's other writes are covered too: a conflict resolved by a MAXIMUM handler on a
 * microsecond timestamp, and an error queue entry retried on the MariaDB node.
 */
class HeterogeneousValuesIT extends ClusterTest {

    private static final DateTimeFormatter DATETIME_TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS");
    private static final DateTimeFormatter TIME_TEXT = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");

    static Stream<Vendor> connectors() {
        return Stream.of(Vendor.MARIADB, Vendor.MYSQL_DRIVER_ON_MARIADB);
    }

    /** A column: its PostgreSQL type, its MariaDB type, the portable type of its values. */
    record Column(String name, String postgres, String mariaDb, ValueType type) {
        String sqlType(Vendor v) {
            return v == Vendor.POSTGRESQL ? postgres : mariaDb;
        }
    }

    static final List<Column> COLUMNS = List.of(
            new Column("c_int", "integer", "INT", ValueType.INTEGER),
            new Column("c_bigint", "bigint", "BIGINT", ValueType.INTEGER),
            new Column("c_smallint", "smallint", "SMALLINT", ValueType.INTEGER),
            new Column("c_numeric", "numeric(38,10)", "DECIMAL(38,10)", ValueType.DECIMAL),
            new Column("c_real", "real", "FLOAT", ValueType.FLOAT),
            new Column("c_double", "double precision", "DOUBLE", ValueType.FLOAT),
            new Column("c_bool", "boolean", "BOOLEAN", ValueType.BOOLEAN),
            new Column("c_char", "char(5)", "CHAR(5)", ValueType.STRING),
            new Column("c_varchar", "varchar(200)", "VARCHAR(200)", ValueType.STRING),
            new Column("c_text", "text", "LONGTEXT", ValueType.STRING),
            new Column("c_date", "date", "DATE", ValueType.DATE),
            new Column("c_time", "time(6)", "TIME(6)", ValueType.TIME),
            new Column("c_ts", "timestamp(6)", "DATETIME(6)", ValueType.TIMESTAMP),
            // MariaDB's TIMESTAMP holds an instant, shown in the session's zone (UTC on the test servers)
            new Column("c_tstz", "timestamptz(6)", "TIMESTAMP(6) NULL", ValueType.TIMESTAMPTZ),
            new Column("c_bytes", "bytea", "VARBINARY(300)", ValueType.BINARY),
            new Column("c_blob", "bytea", "LONGBLOB", ValueType.BINARY),
            new Column("c_uuid", "uuid", "UUID", ValueType.UUID_));

    private static List<String> ddl(Vendor v) {
        StringBuilder sql = new StringBuilder("CREATE TABLE vals (id INT PRIMARY KEY");
        for (Column c : COLUMNS) sql.append(", ").append(c.name()).append(' ').append(c.sqlType(v));
        return List.of(sql.append(')').toString());
    }

    /** Four rows: the upper edges, the lower edges, everyday values with large ones, NULLs. */
    static List<Map<String, Object>> rows(int firstId) {
        byte[] all = new byte[256];
        for (int i = 0; i < all.length; i++) all[i] = (byte) i;
        Random random = new Random(firstId);
        byte[] large = new byte[200_000];
        random.nextBytes(large);
        StringBuilder text = new StringBuilder();
        while (text.length() < 100_000) text.append("ligne ").append(text.length()).append(" é中文😀👩‍👩‍👧 \t\n'\"\\%_");
        List<Map<String, Object>> rows = new ArrayList<>();
        rows.add(row(firstId, Integer.MAX_VALUE, Long.MAX_VALUE, Short.MAX_VALUE,
                new BigDecimal("9999999999999999999999999999.9999999999"), 3.40282e38f, Double.MAX_VALUE, true,
                "é😀ñ¿ü", "😀👩‍👩‍👧 ñ 中文 \t\n'\"\\", text.toString(), LocalDate.of(9999, 12, 31),
                LocalTime.of(23, 59, 59, 999_999_000), LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000),
                OffsetDateTime.parse("2038-01-19T03:14:07.999999Z"), all, large, UUID.fromString("ffffffff-ffff-ffff-ffff-ffffffffffff")));
        rows.add(row(firstId + 1, Integer.MIN_VALUE, Long.MIN_VALUE, Short.MIN_VALUE,
                new BigDecimal("-9999999999999999999999999999.9999999999"), -1.17549e-38f, Double.MIN_NORMAL, false,
                "+-*/=", "", "", LocalDate.of(1000, 1, 1), LocalTime.MIDNIGHT, LocalDateTime.of(1000, 1, 1, 0, 0),
                OffsetDateTime.parse("1970-01-01T00:00:01.000001Z"), new byte[0], new byte[] {0},
                UUID.fromString("00000000-0000-0000-0000-000000000000")));
        rows.add(row(firstId + 2, 42, 1L << 53, (short) -1, new BigDecimal("0.0000000001"), 0.1f, 0.1, true,
                "abcde", "Ἀθῆναι Ελλάδα", "x", LocalDate.of(1979, 8, 1), LocalTime.of(7, 26, 56, 934_633_000),
                LocalDateTime.of(1979, 8, 1, 7, 26, 56, 934_633_000), OffsetDateTime.parse("2001-02-03T04:05:06.123456+05:30"),
                Arrays.copyOfRange(all, 128, 256), "\u0000\r\n".getBytes(StandardCharsets.UTF_8),
                UUID.fromString("123e4567-e89b-12d3-a456-426614174000")));
        Map<String, Object> nulls = new LinkedHashMap<>();
        nulls.put("id", firstId + 3);
        for (Column c : COLUMNS) nulls.put(c.name(), null);
        rows.add(nulls);
        return rows;
    }

    private static Map<String, Object> row(int id, Object... values) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", id);
        for (int i = 0; i < values.length; i++) {
            Object v = values[i];
            if (v instanceof Integer n) v = n.longValue();
            if (v instanceof Short n) v = n.longValue();
            if (v instanceof Float f) v = (double) f;
            row.put(COLUMNS.get(i).name(), v);
        }
        return row;
    }

    /** The microsecond values each node's update writes into the other node's rows. */
    static Map<String, Object> update(int node) {
        Map<String, Object> set = new LinkedHashMap<>();
        set.put("c_time", LocalTime.of(12, 0, 0, (100_001 + node) * 1000));
        set.put("c_ts", LocalDateTime.of(2024, 2, 29, 23, 59, 59, (999_990 + node) * 1000));
        set.put("c_tstz", OffsetDateTime.of(2024, 2, 29, 23, 59, 59, (7 + node) * 1000, ZoneOffset.ofHours(-8)));
        set.put("c_numeric", new BigDecimal("-0.000000000" + (node + 1)));
        set.put("c_varchar", "mise à jour " + node + " 🚀");
        return set;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("connectors")
    void everyValueArrivesAsWrittenInBothDirections(Vendor mariaDb) throws Exception {
        cluster = new Cluster(databases.nodes("hetvals", Vendor.POSTGRESQL, mariaDb));
        cluster.ddl(HeterogeneousValuesIT::ddl);
        Map<Integer, Map<String, Object>> expected = new TreeMap<>();
        for (int node = 0; node < 2; node++) {
            try (Connection c = cluster.open(node)) {
                for (Map<String, Object> row : rows(node * 100 + 1)) {
                    insert(c, cluster.db(node).vendor(), "vals", row);
                    expected.put((Integer) row.get("id"), new LinkedHashMap<>(row));
                }
            }
        }
        cluster.waitForAll();
        // each node updates the rows the other wrote: old values with microseconds are compared on apply
        for (int node = 0; node < 2; node++) {
            int other = (1 - node) * 100;
            try (Connection c = cluster.open(node)) {
                for (int id = other + 1; id <= other + 4; id++) {
                    update(c, cluster.db(node).vendor(), "vals", id, update(node));
                    expected.get(id).putAll(update(node));
                }
            }
        }
        cluster.waitForAll();

        for (int node = 0; node < 2; node++) {
            assertThat(cluster.admin(node).errors()).as("error queue of %s", Cluster.name(node)).isEmpty();
            assertThat(held(cluster.db(node), "vals")).as("rows held by %s (%s)", Cluster.name(node), cluster.db(node).vendor())
                    .isEqualTo(canonical(expected));
        }
    }

    /**
     * Seed 5.3's MAXIMUM on a resolution column whose values differ by a microsecond: both nodes
     * update both rows before either applies; the later time wins on both nodes, written by the
     * handler through the node's connector.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("connectors")
    void maximumHandlerResolvesOnMicroseconds(Vendor mariaDb) throws Exception {
        Map<String, String> handler = new LinkedHashMap<>();
        handler.put("repl.apply", "false");
        handler.put("repl.handler.newest.table", "stamped");
        handler.put("repl.handler.newest.type", "MAXIMUM");
        handler.put("repl.handler.newest.columns", "note,changed_at,at_time");
        handler.put("repl.handler.newest.resolution", "changed_at");
        cluster = new Cluster(databases.nodes("hetmax", Vendor.POSTGRESQL, mariaDb), handler);
        cluster.ddl(v -> List.of("CREATE TABLE stamped (id INT PRIMARY KEY, note VARCHAR(50), changed_at " + timestampType(v)
                        + ", at_time " + (v == Vendor.POSTGRESQL ? "time(6)" : "TIME(6)") + ")",
                "INSERT INTO stamped VALUES (1, 'start', '2024-01-01 00:00:00', '00:00:00'), (2, 'start', '2024-01-01 00:00:00', '00:00:00')"));
        LocalDateTime base = LocalDateTime.of(2024, 1, 1, 0, 0, 0);
        Map<Integer, Map<String, Object>> expected = new TreeMap<>();
        for (int node = 0; node < 2; node++) {
            try (Connection c = cluster.open(node)) {
                for (int id = 1; id <= 2; id++) {
                    boolean wins = (id == 1) == (node == 0); // n1 wins row 1, n2 row 2, by one microsecond
                    Map<String, Object> set = new LinkedHashMap<>();
                    set.put("note", "from n" + (node + 1));
                    set.put("changed_at", base.plusNanos(wins ? 2_000 : 1_000));
                    set.put("at_time", LocalTime.of(1, 2, 3, (node + 1) * 1_000));
                    update(c, cluster.db(node).vendor(), "stamped", id, set);
                    if (wins) {
                        Map<String, Object> row = new LinkedHashMap<>();
                        row.put("id", id);
                        row.putAll(set);
                        expected.put(id, row);
                    }
                }
            }
        }
        cluster.admin(0).startApply();
        cluster.admin(1).startApply();
        cluster.waitForAll();
        List<List<String>> wanted = canonical(expected, Map.of("note", ValueType.STRING, "changed_at", ValueType.TIMESTAMP,
                "at_time", ValueType.TIME));
        for (int node = 0; node < 2; node++) {
            assertThat(cluster.admin(node).errors()).as("error queue of %s", Cluster.name(node)).isEmpty();
            assertThat(held(cluster.db(node), "stamped", Map.of("note", ValueType.STRING, "changed_at", ValueType.TIMESTAMP,
                    "at_time", ValueType.TIME))).as("rows held by %s", Cluster.name(node)).isEqualTo(wanted);
        }
    }

    /**
     * SPEC 5.5: a PostgreSQL transaction with microsecond values queued on the MariaDB node (its
     * update conflicts), the cause fixed, the entry retried through the node's connector: the
     * MariaDB node then holds the values exactly.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("connectors")
    void errorQueueRetryKeepsMicroseconds(Vendor mariaDb) throws Exception {
        cluster = new Cluster(databases.nodes("heterr", Vendor.POSTGRESQL, mariaDb), Map.of("repl.apply", "false"));
        cluster.ddl(v -> List.of("CREATE TABLE queued (id INT PRIMARY KEY, note VARCHAR(50), at " + timestampType(v)
                        + ", at_time " + (v == Vendor.POSTGRESQL ? "time(6)" : "TIME(6)") + ")",
                "INSERT INTO queued VALUES (1, 'start', '2024-01-01 00:00:00', '00:00:00')"));
        Map<String, Object> fromN1 = new LinkedHashMap<>();
        fromN1.put("note", "n1");
        fromN1.put("at", LocalDateTime.parse("1979-08-01T07:26:56.934633"));
        fromN1.put("at_time", LocalTime.parse("07:26:56.000001"));
        Map<String, Object> inserted = new LinkedHashMap<>();
        inserted.put("id", 2);
        inserted.put("note", "inserted by n1");
        inserted.put("at", LocalDateTime.parse("2099-12-31T23:59:59.999999"));
        inserted.put("at_time", LocalTime.parse("23:59:59.999999"));
        try (Connection c = cluster.open(0)) {
            c.setAutoCommit(false);
            update(c, Vendor.POSTGRESQL, "queued", 1, fromN1);
            insert(c, Vendor.POSTGRESQL, "queued", inserted);
            c.commit();
        }
        Map<String, Object> fromN2 = Map.of("note", "n2", "at", LocalDateTime.parse("2000-01-01T00:00:00.5"));
        try (Connection c = cluster.open(1)) {
            update(c, mariaDb, "queued", 1, fromN2);
        }
        ReplAdmin n2 = cluster.admin(1);
        n2.startApply();
        n2.waitForPeers(Cluster.WAIT);
        List<ErrorEntry> queued = n2.errors();
        assertThat(queued).as("n2's error queue").hasSize(1);

        try (Connection c = cluster.db(1).openRaw(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE queued SET note = 'start', at = '2024-01-01 00:00:00' WHERE id = 1"); // the cause fixed
        }
        n2.retryError(queued.get(0).id());
        assertThat(n2.errors()).isEmpty();

        Map<Integer, Map<String, Object>> expected = new TreeMap<>();
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("id", 1);
        one.putAll(fromN1);
        expected.put(1, one);
        expected.put(2, inserted);
        Map<String, ValueType> types = Map.of("note", ValueType.STRING, "at", ValueType.TIMESTAMP, "at_time", ValueType.TIME);
        assertThat(held(cluster.db(1), "queued", types)).as("rows held by n2 after the retry").isEqualTo(canonical(expected, types));
    }

    /**
     * A key of microsecond times: statements on the MariaDB node that change several rows are
     * captured by locking the rows' keys and changing them by key, binding the keys again; the
     * rows and their LCRs must be those of the statement, on both nodes.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("connectors")
    void keysOfMicrosecondTimes(Vendor mariaDb) throws Exception {
        cluster = new Cluster(databases.nodes("hetkey", Vendor.POSTGRESQL, mariaDb));
        cluster.ddl(v -> List.of("CREATE TABLE keyed (at " + timestampType(v) + ", t " + (v == Vendor.POSTGRESQL ? "time(6)" : "TIME(6)")
                + ", note VARCHAR(20), PRIMARY KEY (at, t))"));
        Map<Integer, Map<String, Object>> expected = new TreeMap<>();
        try (Connection c = cluster.open(1); Statement s = c.createStatement()) {
            for (int i = 1; i <= 6; i++) {
                s.executeUpdate("INSERT INTO keyed VALUES ('2024-01-01 00:00:00.00000" + i + "', '01:02:03.00000" + i + "', 'row " + i + "')");
            }
            assertThat(s.executeUpdate("UPDATE keyed SET note = concat(note, ' changed') WHERE note > 'row 2'")).isEqualTo(4);
            assertThat(s.executeUpdate("DELETE FROM keyed WHERE note LIKE '%5 changed' OR note = 'row 1'")).isEqualTo(2);
        }
        for (int i : new int[] {2, 3, 4, 6}) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("at", LocalDateTime.of(2024, 1, 1, 0, 0, 0, i * 1_000));
            row.put("t", LocalTime.of(1, 2, 3, i * 1_000));
            row.put("note", "row " + i + (i > 2 ? " changed" : ""));
            expected.put(i, row);
        }
        cluster.waitForAll();
        Map<String, ValueType> types = Map.of("at", ValueType.TIMESTAMP, "t", ValueType.TIME, "note", ValueType.STRING);
        List<List<String>> wanted = canonical(expected, types);
        for (int node = 0; node < 2; node++) {
            assertThat(cluster.admin(node).errors()).as("error queue of %s", Cluster.name(node)).isEmpty();
            assertThat(held(cluster.db(node), "keyed", types, "at")).as("rows held by %s", Cluster.name(node))
                    .isEqualTo(wanted);
        }
    }

    /**
     * SPEC 6 on each vendor (MariaDB through both connectors): a fast-refresh view grouped by
     * timestamps and {@code TIME(6)} values a microsecond apart; the refresh binds the groups the
     * log names again, and the view must equal its query after every change.
     */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.EnumSource(Vendor.class)
    void materializedViewGroupedByMicroseconds(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "hetmv");
        String text = vendor == Vendor.POSTGRESQL ? "text" : vendor == Vendor.H2 ? "VARCHAR" : "CHAR";
        try (Connection c = db.openRepl(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE m (id INT PRIMARY KEY, at " + timestampType(vendor) + ", t TIME(6), val INT)");
            s.execute("CREATE MATERIALIZED VIEW LOG ON m WITH ROWID, PRIMARY KEY (at, t, val) INCLUDING NEW VALUES");
            s.execute("CREATE MATERIALIZED VIEW mv_t REFRESH FAST ON COMMIT AS SELECT at, t, count(*) AS n, sum(val) AS s FROM m GROUP BY at, t");
            String query = "SELECT CAST(at AS " + text + "), CAST(t AS " + text + "), count(*), sum(val) FROM m GROUP BY at, t ORDER BY 1, 2";
            String view = "SELECT CAST(at AS " + text + "), CAST(t AS " + text + "), n, s FROM mv_t ORDER BY 1, 2";
            List<String> steps = new ArrayList<>();
            for (int id = 1; id <= 12; id++) {
                steps.add("INSERT INTO m VALUES (" + id + ", TIMESTAMP '2024-01-01 00:00:00.00000" + (id % 3) + "', TIME '01:02:03.00000"
                        + (id % 2) + "', " + id + ")");
            }
            steps.add("UPDATE m SET at = TIMESTAMP '2024-01-01 00:00:00.000009' WHERE id IN (1, 2)");
            steps.add("UPDATE m SET t = TIME '23:59:59.999999', val = val + 100 WHERE id = 3");
            steps.add("DELETE FROM m WHERE id IN (4, 5, 6)");
            for (String step : steps) {
                s.executeUpdate(step);
                assertThat(rows(c, view)).as("the view after %s", step).isEqualTo(rows(c, query));
            }
            assertThat(rows(c, view)).as("groups").hasSize(9);
        }
    }

    // ------------------------------------------------------------------ writing as an application would

    private static void insert(Connection c, Vendor v, String table, Map<String, Object> row) throws SQLException {
        List<String> names = new ArrayList<>(row.keySet());
        String sql = "INSERT INTO " + table + " (" + String.join(", ", names) + ") VALUES ("
                + String.join(", ", names.stream().map(n -> "?").toList()) + ")";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < names.size(); i++) bind(ps, i + 1, v, names.get(i), row.get(names.get(i)));
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
    }

    private static void update(Connection c, Vendor v, String table, int id, Map<String, Object> set) throws SQLException {
        List<String> names = new ArrayList<>(set.keySet());
        String sql = "UPDATE " + table + " SET " + String.join(", ", names.stream().map(n -> n + " = ?").toList()) + " WHERE id = ?";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < names.size(); i++) bind(ps, i + 1, v, names.get(i), set.get(names.get(i)));
            ps.setInt(names.size() + 1, id);
            assertThat(ps.executeUpdate()).as("rows updated for id %d", id).isEqualTo(1);
        }
    }

    /**
     * How an application binds each value: its own Java type, except where its driver would lose it
     * (an application on MySQL Connector/J binds temporal text, as Vendor documents; MariaDB has
     * no zone in TIMESTAMP, so it is given the UTC time; a MariaDB UUID is bound as text).
     */
    private static void bind(PreparedStatement ps, int index, Vendor v, String column, Object value) throws SQLException {
        if (value == null) {
            ps.setNull(index, java.sql.Types.NULL);
            return;
        }
        if (v == Vendor.POSTGRESQL) {
            if (value instanceof byte[] b) ps.setBytes(index, b);
            else if (column.equals("c_real")) ps.setFloat(index, (float) (double) (Double) value);
            else ps.setObject(index, value);
            return;
        }
        if (value instanceof OffsetDateTime o) value = o.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
        boolean text = !v.keepsFractionalSecondsOfBoundTimestamps();
        if (value instanceof LocalDateTime t && text) ps.setString(index, DATETIME_TEXT.format(t));
        else if (value instanceof LocalTime t && text) ps.setString(index, TIME_TEXT.format(t));
        else if (value instanceof UUID u) ps.setString(index, u.toString());
        else if (value instanceof byte[] b) ps.setBytes(index, b);
        else if (column.equals("c_real")) ps.setFloat(index, (float) (double) (Double) value);
        else ps.setObject(index, value);
    }

    // ------------------------------------------------------------------ reading what a node holds

    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) out.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getLong(3) + " " + rs.getLong(4));
        }
        return out;
    }

    private static Map<String, ValueType> valsTypes() {
        Map<String, ValueType> types = new LinkedHashMap<>();
        for (Column c : COLUMNS) types.put(c.name(), c.type());
        return types;
    }

    private static List<List<String>> held(TestDatabase db, String table) throws SQLException {
        return held(db, table, valsTypes());
    }

    /**
     * Every row as canonical text, read with MariaDB's own connector whatever the node's URL (the
     * assertion does not trust the connector under test) and each column as its portable type.
     */
    private static List<List<String>> held(TestDatabase db, String table, Map<String, ValueType> types) throws SQLException {
        return held(db, table, types, "id");
    }

    /** Every row, in {@code orderBy} order. */
    private static List<List<String>> held(TestDatabase db, String table, Map<String, ValueType> types, String orderBy)
            throws SQLException {
        String url = db.rawUrl().replaceFirst("^jdbc:mysql:", "jdbc:mariadb:");
        List<List<String>> rows = new ArrayList<>();
        List<String> names = new ArrayList<>(new TreeMap<>(types).keySet());
        try (Connection c = DriverManager.getConnection(url, db.credentials()); Statement s = c.createStatement()) {
            if (db.vendor().isMariaDbServer()) s.execute("SET time_zone = '+00:00'");
            try (ResultSet rs = s.executeQuery("SELECT " + orderBy + ", " + String.join(", ", names) + " FROM " + table
                    + " ORDER BY " + orderBy)) {
                while (rs.next()) {
                    List<String> row = new ArrayList<>();
                    for (int i = 0; i < names.size(); i++) {
                        ValueType type = types.get(names.get(i));
                        ValueType readAs = type == ValueType.TIMESTAMPTZ && db.vendor().isMariaDbServer() ? ValueType.TIMESTAMP : type;
                        row.add(names.get(i) + "=" + canonical(names.get(i), type, readAs.read(rs, i + 2)));
                    }
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    private static List<List<String>> canonical(Map<Integer, Map<String, Object>> rows) {
        return canonical(rows, valsTypes());
    }

    /** The rows' values in the order of their keys (ids, or row numbers in the table's order). */
    private static List<List<String>> canonical(Map<Integer, Map<String, Object>> rows, Map<String, ValueType> types) {
        List<List<String>> out = new ArrayList<>();
        List<String> names = new ArrayList<>(new TreeMap<>(types).keySet());
        rows.forEach((id, row) -> {
            List<String> values = new ArrayList<>();
            for (String n : names) values.add(n + "=" + canonical(n, types.get(n), row.get(n)));
            out.add(values);
        });
        return out;
    }

    /** A value as text that is equal exactly when the values are equal by meaning. */
    private static String canonical(String column, ValueType type, Object v) {
        if (v == null) return "NULL";
        return switch (type) {
            case INTEGER -> String.valueOf(((Number) v).longValue());
            case DECIMAL -> ((BigDecimal) v).stripTrailingZeros().toPlainString();
            case FLOAT -> column.equals("c_real") ? Float.toString((float) ((Number) v).doubleValue())
                    : Double.toString(((Number) v).doubleValue());
            case BOOLEAN -> Boolean.toString(v instanceof Boolean b ? b : ((Number) v).intValue() != 0);
            case TIMESTAMPTZ -> (v instanceof OffsetDateTime o ? o.toInstant() : ((LocalDateTime) v).toInstant(ZoneOffset.UTC)).toString();
            case BINARY -> bytes((byte[]) v);
            case UUID_ -> v.toString().toLowerCase(java.util.Locale.ROOT);
            case STRING -> v.toString().length() > 200 ? v.toString().length() + " chars, sha-256 "
                    + bytes(v.toString().getBytes(StandardCharsets.UTF_8)) : v.toString();
            default -> v.toString();
        };
    }

    private static String bytes(byte[] b) {
        if (b.length <= 300) return HexFormat.of().formatHex(b);
        try {
            return b.length + " bytes, sha-256 " + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
