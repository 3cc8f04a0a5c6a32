package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.api.ErrorEntry;
import io.jdbcrepl.api.PeerStatus;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.lcr.Json;
import io.jdbcrepl.lcr.ValueType;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC 8.8, "one bad change never stops replication", as a fuzz: the source captures transactions
 * through the driver, then random mutations are made to the LCRs as stored in its repl_log (a value
 * replaced by one of another kind, a column dropped or added, a value type changed, a command
 * type or table changed, an image removed, and on MariaDB, where the log is text, text cut short)
 * before the peer reads them. Then:
 * <ul>
 * <li>the applier never stops: it is RUNNING at the end and a transaction committed after all the
 * mutated ones is applied;</li>
 * <li>each transaction is applied or queued, exactly one of the two: each writes a marker row,
 * which is at the destination exactly when the transaction is not in the error queue;</li>
 * <li>a transaction left alone arrives exactly: its rows (a key range of its own) are the same at
 * both nodes.</li>
 * </ul>
 * The seed is printed; {@code -Dfuzz.seed=N} replays one, {@code -Dfuzz.transactions=N} runs longer.
 */
class LcrMutationFuzzIT extends ClusterTest {

    private static final int TRANSACTIONS = Integer.getInteger("fuzz.transactions", 60);
    private static final int ROWS_PER_TX = 100; // transaction k owns ids k*100 .. k*100+99

    static Stream<Arguments> pairsAndSeeds() {
        long base = Long.getLong("fuzz.seed", System.nanoTime());
        return Stream.of(Arguments.of(List.of(Vendor.POSTGRESQL, Vendor.POSTGRESQL), base),
                Arguments.of(List.of(Vendor.MARIADB, Vendor.MARIADB), base + 1),
                Arguments.of(List.of(Vendor.POSTGRESQL, Vendor.MARIADB), base + 2),
                Arguments.of(List.of(Vendor.MARIADB, Vendor.POSTGRESQL), base + 3));
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("pairsAndSeeds")
    void mutatedLcrsAreAppliedOrQueuedAndTheApplierGoesOn(List<Vendor> vendors, long seed) throws Exception {
        System.out.println("LcrMutationFuzzIT " + vendors + " seed " + seed);
        Random random = new Random(seed);
        cluster = new Cluster(databases.nodes("fuzz", vendors.toArray(Vendor[]::new)), Map.of("repl.apply", "false"));
        cluster.ddl(v -> List.of("CREATE TABLE f (id INT PRIMARY KEY, n INT, s VARCHAR(40), d DECIMAL(12,2), t "
                        + timestampType(v) + ", b BOOLEAN)",
                "CREATE TABLE marker (tx INT PRIMARY KEY)"));
        try (Connection c = cluster.open(0)) {
            c.setAutoCommit(false);
            for (int k = 1; k <= TRANSACTIONS; k++) {
                workload(c, k, random);
                c.commit();
            }
        }
        boolean textLog = vendors.get(0).isMariaDbServer(); // PostgreSQL's json columns refuse what is not JSON
        Set<Integer> mutated = mutate(random, textLog);
        assertThat(mutated).isNotEmpty();
        cluster.execute(0, "INSERT INTO marker VALUES (" + (TRANSACTIONS + 1) + ")"); // after all of them

        cluster.admin(1).startApply();
        cluster.admin(1).waitForPeers(Cluster.WAIT);

        PeerStatus status = cluster.admin(1).status().peers().get(0);
        assertThat(status.state()).as("applier state, last error %s", status.lastError()).isEqualTo("RUNNING");
        Set<Integer> arrived = new HashSet<>(ints(1, "SELECT tx FROM marker"));
        assertThat(arrived).as("the transaction after the mutated ones").contains(TRANSACTIONS + 1);
        Map<Long, Integer> markers = new java.util.HashMap<>(); // error id -> transaction, from the LCRs as stored
        String newValues = vendors.get(1) == Vendor.POSTGRESQL ? "new_values::text" : "new_values";
        try (Connection c = cluster.db(1).openRaw(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT error_id, " + newValues + " FROM " + cluster.db(1).driverTable("repl_error_lcr")
                        + " WHERE table_name = 'marker'")) {
            while (rs.next()) {
                int tx = new BigDecimal(String.valueOf(Json.readObject(rs.getString(2)).get("tx"))).intValue();
                assertThat(markers.put(rs.getLong(1), tx)).as("one marker per entry").isNull();
            }
        }
        Set<Integer> queued = new HashSet<>();
        for (ErrorEntry entry : cluster.admin(1).errors()) {
            assertThat(entry.errorMessage()).as("reason of entry %s", entry.id()).isNotBlank();
            Integer tx = markers.get(entry.id());
            assertThat(tx).as("the marker of queued entry %s (%s)", entry.id(), entry.errorMessage()).isNotNull();
            assertThat(queued.add(tx)).as("transaction %s queued once", tx).isTrue();
        }
        for (int k = 1; k <= TRANSACTIONS; k++) {
            assertThat(arrived.contains(k) ^ queued.contains(k)).as("transaction %d applied xor queued (mutated: %s)", k,
                    mutated.contains(k)).isTrue();
        }
        assertThat(queued).as("only mutated transactions are queued").isSubsetOf(mutated);
        for (int k = 1; k <= TRANSACTIONS; k++) {
            if (mutated.contains(k)) continue;
            String range = "id >= " + k * ROWS_PER_TX + " AND id < " + (k + 1) * ROWS_PER_TX;
            assertThat(rows(1, range)).as("transaction %d, left alone", k).isEqualTo(rows(0, range));
        }
    }

    /** Transaction k: inserts into its own key range, then updates and deletes some of them, and its marker. */
    private static void workload(Connection c, int k, Random random) throws SQLException {
        int base = k * ROWS_PER_TX;
        int rows = 1 + random.nextInt(5);
        try (PreparedStatement ins = c.prepareStatement("INSERT INTO f VALUES (?, ?, ?, ?, ?, ?)")) {
            for (int i = 0; i < rows; i++) {
                ins.setInt(1, base + i);
                ins.setInt(2, random.nextInt());
                ins.setString(3, random.nextBoolean() ? null : "s" + random.nextInt(1000) + " \u00e9\u4e2d");
                ins.setBigDecimal(4, BigDecimal.valueOf(random.nextInt(1_000_000), 2));
                ins.setTimestamp(5, new java.sql.Timestamp(1_600_000_000_000L + random.nextInt(1_000_000_000)));
                ins.setBoolean(6, random.nextBoolean());
                ins.addBatch();
            }
            ins.executeBatch();
        }
        try (Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE f SET n = n / 2, s = 'u" + k + "' WHERE id >= " + base + " AND id < " + (base + rows)
                    + " AND MOD(id, 2) = 0");
            if (rows > 2) s.executeUpdate("DELETE FROM f WHERE id = " + (base + rows - 1));
            s.executeUpdate("INSERT INTO marker VALUES (" + k + ")");
        }
    }

    /** Mutates one or two of table f's LCRs in about a third of the transactions; returns their numbers. */
    private Set<Integer> mutate(Random random, boolean textLog) throws SQLException {
        Set<Integer> mutated = new HashSet<>();
        String log = cluster.db(0).driverTable("repl_log");
        boolean pg = !cluster.db(0).vendor().isMariaDbServer();
        String json = pg ? "::json" : "";
        String text = pg ? "::text" : "";
        List<long[]> fLcrs = new ArrayList<>(); // position, transaction number
        try (Connection c = cluster.db(0).openRaw(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT position, old_values" + text + ", new_values" + text
                        + " FROM " + log + " WHERE table_name = 'f' ORDER BY position")) {
            while (rs.next()) {
                String values = rs.getString(2) != null ? rs.getString(2) : rs.getString(3); // the key is in the old image
                int id = new BigDecimal(String.valueOf(Json.readObject(values).get("id"))).intValue();
                fLcrs.add(new long[] {rs.getLong(1), id / ROWS_PER_TX});
            }
        }
        try (Connection c = cluster.db(0).openRaw()) {
            for (long[] lcr : fLcrs) {
                if (random.nextInt(8) != 0) continue;
                Map<String, String> row = new LinkedHashMap<>();
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT command_type, table_name,"
                        + " old_values" + text + ", new_values" + text + ", column_types" + text + " FROM " + log
                        + " WHERE position = " + lcr[0])) {
                    rs.next();
                    for (String column : List.of("command_type", "table_name", "old_values", "new_values", "column_types")) {
                        row.put(column, rs.getString(column));
                    }
                }
                Map<String, String> changed = new TreeMap<>(mutation(random, row, textLog));
                if (changed.isEmpty()) continue;
                List<String> sets = new ArrayList<>();
                List<String> params = new ArrayList<>();
                for (var e : changed.entrySet()) {
                    boolean isJson = e.getKey().endsWith("_values") || e.getKey().equals("column_types");
                    sets.add(e.getKey() + " = ?" + (isJson ? json : ""));
                    params.add(e.getValue());
                }
                try (PreparedStatement ps = c.prepareStatement("UPDATE " + log + " SET " + String.join(", ", sets)
                        + " WHERE position = " + lcr[0])) {
                    for (int i = 0; i < params.size(); i++) ps.setString(i + 1, params.get(i));
                    assertThat(ps.executeUpdate()).isEqualTo(1);
                }
                mutated.add((int) lcr[1]);
            }
        }
        return mutated;
    }

    /** The columns one random mutation changes (a column to null for an image removed). */
    private static Map<String, String> mutation(Random random, Map<String, String> row, boolean textLog) {
        String image = row.get("new_values") != null ? "new_values" : "old_values";
        Map<String, Object> values = Json.readObject(row.get(image));
        Map<String, Object> types = Json.readObject(row.get("column_types"));
        List<String> columns = new ArrayList<>(values.keySet());
        String column = columns.get(random.nextInt(columns.size()));
        switch (random.nextInt(textLog ? 11 : 8)) {
            case 0 -> values.put(column, odd(random));
            case 1 -> values.remove(column);
            case 2 -> values.put("no_such_column", odd(random));
            case 3 -> {
                ValueType[] known = ValueType.values();
                types.put(column, random.nextInt(4) == 0 ? "BOGUS" : known[random.nextInt(known.length)].logName());
                return Map.of("column_types", Json.write(types));
            }
            case 4 -> {
                List<String> commands = List.of("INSERT", "UPDATE", "DELETE", "", "UPSERT");
                return Map.of("command_type", commands.get(random.nextInt(commands.size())));
            }
            case 5 -> {
                return Map.of("table_name", random.nextBoolean() ? "no_such_table" : "F ; DROP TABLE f");
            }
            case 6 -> {
                Map<String, String> nulled = new java.util.HashMap<>();
                nulled.put(image, null);
                return nulled;
            }
            case 7 -> {
                types.remove(column);
                return Map.of("column_types", Json.write(types));
            }
            case 8 -> {
                String stored = row.get(image);
                return Map.of(image, stored.substring(0, random.nextInt(stored.length())));
            }
            case 9 -> { // raw control characters in a string, which PostgreSQL's json refuses
                return Map.of(image, row.get(image).replaceFirst(":\"", ":\"\u0000\n"));
            }
            default -> {
                return Map.of("table_name", "f\u0000");
            }
        }
        return Map.of(image, Json.write(values));
    }

    /** A value of a kind the column may not expect. */
    private static Object odd(Random random) {
        return switch (random.nextInt(10)) {
            case 0 -> null;
            case 1 -> "not a number \u0000\uD83D\uDE80";
            case 2 -> new BigDecimal("1e400");
            case 3 -> new BigDecimal("-99999999999999999999999999.999");
            case 4 -> Boolean.TRUE;
            case 5 -> List.of(1, "a");
            case 6 -> Map.of("k", "v");
            case 7 -> "2024-02-30T25:61:00";
            case 8 -> "x".repeat(70_000);
            default -> BigDecimal.valueOf(random.nextLong());
        };
    }

    private List<Integer> ints(int node, String sql) throws SQLException {
        List<Integer> out = new ArrayList<>();
        try (Connection c = cluster.db(node).openRaw(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) out.add(rs.getInt(1));
        }
        return out;
    }

    /** Table f's rows in a key range, as text comparable across vendors. */
    private List<String> rows(int node, String where) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = cluster.db(node).openRaw(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, n, s, d, t, b FROM f WHERE " + where + " ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getInt(1) + "|" + rs.getObject(2) + "|" + rs.getString(3) + "|" + rs.getBigDecimal(4) + "|"
                        + rs.getTimestamp(5) + "|" + rs.getBoolean(6));
            }
        }
        return out;
    }
}
