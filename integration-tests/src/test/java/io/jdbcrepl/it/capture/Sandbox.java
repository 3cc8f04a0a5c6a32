package io.jdbcrepl.it.capture;

import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Trace;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One test's schema, on the node and on the mirror database of a {@link CapturePair}: its tables,
 * connections into it (capturing, raw, mirror), its change log, and the comparisons the capture
 * tests make.
 */
final class Sandbox {

    /** What a test does with a connection; each JDBC call it makes is a step of the trace. */
    @FunctionalInterface
    interface Scenario {
        void run(Connection c, Trace t) throws Exception;
    }

    private final CapturePair pair;
    private final String schema;
    private final List<String> ddl;
    private final List<String> seeds = new ArrayList<>();

    Sandbox(CapturePair pair, String schema, String... ddl) throws SQLException {
        this.pair = pair;
        this.schema = schema;
        this.ddl = List.of(ddl);
        create(pair.node(), schema, this.ddl);
        create(pair.mirror(), schema, this.ddl);
    }

    private static void create(TestDatabase db, String schema, List<String> ddl) throws SQLException {
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + schema);
            s.execute("SET search_path TO " + schema);
            for (String sql : ddl) s.execute(sql);
        }
    }

    String schema() {
        return schema;
    }

    /** The schema of this sandbox's own driver tables ({@code repl.schema}): one change log per sandbox. */
    String logSchema() {
        return schema + "_repl";
    }

    TestDatabase nodeDatabase() {
        return pair.node();
    }

    /** The Properties a capturing connection gets: credentials, the schema, {@code repl.node} and {@code repl}. */
    Properties properties(Map<String, String> repl) {
        Properties p = pair.node().credentials();
        p.setProperty("currentSchema", schema);
        p.setProperty("repl.node", CapturePair.NODE);
        p.setProperty("repl.schema", logSchema());
        p.putAll(repl);
        return p;
    }

    /** A capturing connection: {@code jdbc:repl:} with {@code repl.node} and the given repl.* keys and values. */
    Connection capturing(String... keysAndValues) throws SQLException {
        return capturing(map(keysAndValues));
    }

    Connection capturing(Map<String, String> repl) throws SQLException {
        return java.sql.DriverManager.getConnection(pair.node().replUrl(), properties(repl));
    }

    /** A raw connection to the node's database, in this schema. */
    Connection raw() throws SQLException {
        return open(pair.node());
    }

    /** A raw connection to the mirror database, in this schema. */
    Connection mirror() throws SQLException {
        return open(pair.mirror());
    }

    private Connection open(TestDatabase db) throws SQLException {
        Properties p = db.credentials();
        p.setProperty("currentSchema", schema);
        return java.sql.DriverManager.getConnection(db.rawUrl(), p);
    }

    /** Runs {@code sql} through raw connections on the node and the mirror: the starting state, not captured. */
    void seed(String... sql) throws SQLException {
        for (Connection c : List.of(raw(), mirror())) {
            try (c; Statement s = c.createStatement()) {
                for (String q : sql) s.execute(q);
            }
        }
        seeds.addAll(List.of(sql));
    }

    /** The node's change log, checked for what every LCR of this sandbox must say about itself. */
    List<LoggedLcr> log() throws SQLException {
        List<LoggedLcr> lcrs;
        try (Connection c = raw()) {
            lcrs = ChangeLogReader.read(c, logSchema());
        }
        for (LoggedLcr l : lcrs) {
            assertThat(l.sourceNode()).as("source node of %s", l).isEqualTo(CapturePair.NODE);
            assertThat(l.schema()).as("schema of %s", l).isEqualTo(schema);
            assertThat(l.userName()).as("user of %s", l).isEqualTo(pair.node().user());
            assertThat(l.tag()).as("tag of %s", l).isNull();
        }
        return lcrs;
    }

    /** The log as {@link LoggedLcr#brief()} lines, in position order. */
    List<String> briefs() throws SQLException {
        return log().stream().map(LoggedLcr::brief).toList();
    }

    /** Asserts the log, line by line, in position order. */
    void assertLog(String... expected) throws SQLException {
        assertThat(briefs()).as("repl_log of %s (in position order)", schema).containsExactly(expected);
    }

    /**
     * Asserts the log transaction by transaction: one list per source transaction, in the order
     * the transactions first appear in the log; within a transaction the LCRs may come in any order
     * (a multi-row statement's rows have none by contract).
     */
    @SafeVarargs
    final void assertTransactions(List<String>... expected) throws SQLException {
        Map<String, List<String>> byTx = new LinkedHashMap<>();
        for (LoggedLcr l : log()) byTx.computeIfAbsent(l.txId(), k -> new ArrayList<>()).add(l.brief());
        List<List<String>> actual = byTx.values().stream().map(g -> g.stream().sorted().toList()).toList();
        List<List<String>> wanted = java.util.Arrays.stream(expected).map(g -> g.stream().sorted().toList()).toList();
        assertThat(actual).as("repl_log of %s, one list per transaction (LCRs sorted within each)", schema)
                .isEqualTo(wanted);
    }

    /** A table's rows as PostgreSQL's own row text, sorted: exact and comparable across databases. */
    static List<String> contents(Connection c, String table) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT r::text FROM " + table + " AS r ORDER BY 1")) {
            while (rs.next()) rows.add(rs.getString(1));
        }
        return rows;
    }

    List<String> nodeContents(String table) throws SQLException {
        try (Connection c = raw()) {
            return contents(c, table);
        }
    }

    /** Asserts that each table has the same rows on the node and on the mirror. */
    void assertSameContents(String... tables) throws SQLException {
        try (Connection n = raw(); Connection m = mirror()) {
            for (String t : tables) {
                assertThat(contents(n, t)).as("table %s through jdbc:repl: (actual) vs the raw driver (expected)", t)
                        .isEqualTo(contents(m, t));
            }
        }
    }

    /**
     * Runs {@code scenario} on a capturing connection (with {@code repl}) and on a raw mirror
     * connection; asserts the mirror run went as the scenario expects and the capturing run
     * observed exactly the same. Returns the trace.
     */
    Trace compare(Map<String, String> repl, Scenario scenario) throws Exception {
        Trace expected = new Trace();
        try (Connection m = mirror()) {
            expected.run(() -> scenario.run(m, expected));
        }
        assertThat(expected.unexpected()).as("the raw run must go as the scenario expects:%n%s", expected.text()).isEmpty();
        Trace actual = new Trace();
        try (Connection c = capturing(repl)) {
            actual.run(() -> scenario.run(c, actual));
        }
        assertThat(actual.text()).as("what the application saw through jdbc:repl: with capture (actual) vs the raw"
                + " driver (expected)").isEqualTo(expected.text());
        return expected;
    }

    Trace compare(Scenario scenario) throws Exception {
        return compare(Map.of(), scenario);
    }

    /**
     * Replays the node's whole log onto fresh copies of the sandbox's tables (same DDL, same seed,
     * in another schema of the mirror database) and asserts that each table ends exactly as on the node.
     */
    void assertLogReplays(Map<String, List<String>> keys, String... tables) throws SQLException {
        String copy = schema + "_replay";
        create(pair.mirror(), copy, ddl);
        try (Connection c = open(pair.mirror())) {
            try (Statement s = c.createStatement()) {
                s.execute("SET search_path TO " + copy);
                for (String q : seeds) s.execute(q);
            }
            new Replayer(c, copy, keys).applyAll(log());
            try (Connection n = raw()) {
                for (String t : tables) {
                    assertThat(contents(c, copy + "." + t)).as("%s rebuilt from the seed and the change log (actual)"
                            + " vs %s on the node (expected)", t, t).isEqualTo(contents(n, t));
                }
            }
        }
    }

    static Map<String, String> map(String... keysAndValues) {
        if (keysAndValues.length % 2 != 0) throw new IllegalArgumentException("keys and values in pairs");
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) m.put(keysAndValues[i], keysAndValues[i + 1]);
        return m;
    }
}
