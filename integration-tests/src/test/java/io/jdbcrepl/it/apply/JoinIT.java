package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.api.JoinProgress;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.verify.TableVerifier;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC 8.1: a third node joins a running two-node mesh from one of them while both keep writing
 * (inserts, updates, deletes, DELTA counter increments) and purging; afterwards every table is the
 * same on the three nodes and every increment is counted once on each, the non-donor peer's
 * included (its start position is the one the donor had applied in the copy's snapshot).
 */
class JoinIT {

    static final int PARENTS = 10_000;
    static final int CHILDREN = 80_000;
    static final int COUNTERS = 10_000;
    static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    @AfterEach
    void stop() {
        Repl.shutdown();
    }

    /** Three nodes, the third joining; whether its tables are there (empty) or the join creates them. */
    static Stream<Arguments> meshes() {
        return Stream.of(Arguments.of(List.of(Vendor.POSTGRESQL, Vendor.POSTGRESQL, Vendor.POSTGRESQL), true),
                Arguments.of(List.of(Vendor.POSTGRESQL, Vendor.POSTGRESQL, Vendor.POSTGRESQL), false),
                Arguments.of(List.of(Vendor.MARIADB, Vendor.MARIADB, Vendor.MARIADB), true),
                Arguments.of(List.of(Vendor.H2, Vendor.H2, Vendor.H2), false),
                Arguments.of(List.of(Vendor.POSTGRESQL, Vendor.POSTGRESQL, Vendor.MARIADB), false),
                Arguments.of(List.of(Vendor.MARIADB, Vendor.MARIADB, Vendor.POSTGRESQL), false));
    }

    static String name(int i) {
        return "n" + (i + 1);
    }

    /** Node i's URL, applying from {@code peers}; every node resolves counter increments with DELTA. */
    static String url(List<TestDatabase> dbs, int i, List<Integer> peers, Map<String, String> more) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("repl.node", name(i));
        List<String> names = new ArrayList<>();
        for (int j : peers) {
            names.add(name(j));
            p.putAll(dbs.get(j).asPeer(name(j)));
        }
        if (!names.isEmpty()) p.put("repl.peers", String.join(",", names));
        p.put("repl.apply.poll", "50ms");
        p.put("repl.handler.inc.table", "counter");
        p.put("repl.handler.inc.type", "DELTA");
        p.put("repl.handler.inc.columns", "n");
        p.putAll(more);
        return dbs.get(i).replUrl(p);
    }

    static Connection open(List<TestDatabase> dbs, int i, String url) throws SQLException {
        return DriverManager.getConnection(url, dbs.get(i).credentials());
    }

    static List<String> schema(Vendor v) {
        String text = v == Vendor.POSTGRESQL ? "text" : "VARCHAR(200)";
        return List.of("CREATE TABLE parent (id INT PRIMARY KEY, name " + text + " NOT NULL)",
                "CREATE TABLE child (id INT PRIMARY KEY, parent_id INT NOT NULL REFERENCES parent (id), qty INT NOT NULL,"
                        + " note " + text + ")",
                "CREATE TABLE counter (id INT PRIMARY KEY, n BIGINT NOT NULL)");
    }

    /** Rows 1..count of a series, the vendor's way. */
    static String series(Vendor v, int count, String select) {
        return switch (v) {
            case POSTGRESQL -> select.replace("{n}", "g") + " FROM generate_series(1, " + count + ") g";
            case H2 -> select.replace("{n}", "X") + " FROM SYSTEM_RANGE(1, " + count + ")";
            default -> select.replace("{n}", "seq") + " FROM seq_1_to_" + count;
        };
    }

    static void seed(TestDatabase db) throws SQLException {
        seed(db, CHILDREN);
    }

    static void seed(TestDatabase db, int children) throws SQLException {
        Vendor v = db.vendor();
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            for (String sql : schema(v)) s.execute(sql);
            s.execute("INSERT INTO parent (id, name) " + series(v, PARENTS, "SELECT {n}, CONCAT('parent ', {n})"));
            s.execute("INSERT INTO child (id, parent_id, qty, note) " + series(v, children,
                    "SELECT {n}, MOD({n}, " + PARENTS + ") + 1, MOD({n}, 97), CONCAT('child ', {n})"));
            s.execute("INSERT INTO counter (id, n) " + series(v, COUNTERS, "SELECT {n}, 0"));
        }
    }

    /** A writer on one node: random inserts, updates, deletes and counter increments until stopped. */
    static final class Writer extends Thread {
        final String url;
        final TestDatabase db;
        final int node;
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong increments;
        final ConcurrentLinkedQueue<Throwable> failures;
        long transactions;

        Writer(String url, TestDatabase db, int node, AtomicLong increments, ConcurrentLinkedQueue<Throwable> failures) {
            this.url = url;
            this.db = db;
            this.node = node;
            this.increments = increments;
            this.failures = failures;
            setDaemon(true);
        }

        @Override
        public void run() {
            int nextChild = 1_000_000 * (node + 1);
            try (Connection c = DriverManager.getConnection(url, db.credentials())) {
                c.setAutoCommit(false);
                ThreadLocalRandom r = ThreadLocalRandom.current();
                while (!stop.get()) {
                    try (Statement s = c.createStatement()) {
                        switch (r.nextInt(4)) {
                            case 0 -> s.executeUpdate("INSERT INTO child (id, parent_id, qty, note) VALUES (" + nextChild++
                                    + ", " + (1 + r.nextInt(PARENTS)) + ", 1, 'new on " + name(node) + "')");
                            // rows of this node's own range: no conflict with the other writer
                            case 1 -> s.executeUpdate("UPDATE parent SET name = 'renamed " + r.nextInt(1000) + "' WHERE id = "
                                    + (1 + node + 2 * r.nextInt(PARENTS / 2)));
                            case 2 -> s.executeUpdate("DELETE FROM child WHERE id = " + (1 + node + 2 * r.nextInt(CHILDREN / 2)));
                            default -> {
                                if (s.executeUpdate("UPDATE counter SET n = n + 1 WHERE id = " + (1 + r.nextInt(COUNTERS))) == 1) {
                                    c.commit();
                                    increments.incrementAndGet();
                                    transactions++;
                                    continue;
                                }
                            }
                        }
                        c.commit();
                        transactions++;
                    }
                }
            } catch (Throwable t) {
                failures.add(t);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("meshes")
    void aThirdNodeJoinsFromADonorWhileEveryNodeWritesAndPurges(List<Vendor> vendors, boolean tablesThere) throws Exception {
        List<TestDatabase> dbs = new ArrayList<>();
        for (int i = 0; i < 3; i++) dbs.add(databases.create(vendors.get(i), "join_n" + (i + 1)));
        seed(dbs.get(0));
        seed(dbs.get(1)); // the two nodes start identical (SPEC 4.8); the third has empty tables, or none
        if (tablesThere) {
            try (Connection c = dbs.get(2).openRaw(); Statement s = c.createStatement()) {
                for (String sql : schema(vendors.get(2))) s.execute(sql);
            }
        }
        String n1 = url(dbs, 0, List.of(1), Map.of());
        String n2 = url(dbs, 1, List.of(0), Map.of());
        open(dbs, 0, n1).close();
        open(dbs, 1, n2).close();

        AtomicLong increments = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        Writer w1 = new Writer(n1, dbs.get(0), 0, increments, failures);
        Writer w2 = new Writer(n2, dbs.get(1), 1, increments, failures);
        w1.start();
        w2.start();
        Thread.sleep(500);

        // the joiner, not applying yet: its appliers start after the join
        String joining = url(dbs, 2, List.of(0, 1), Map.of("repl.apply", "false"));
        ReplAdmin n1Admin;
        ReplAdmin n2Admin;
        try (Connection c = open(dbs, 0, n1)) {
            n1Admin = c.unwrap(ReplAdmin.class);
        }
        try (Connection c = open(dbs, 1, n2)) {
            n2Admin = c.unwrap(ReplAdmin.class);
        }
        List<JoinProgress> seen = new ArrayList<>();
        try (Connection c = open(dbs, 2, joining)) {
            c.unwrap(ReplAdmin.class).join("n1", false, p -> {
                seen.add(p);
                try { // the donor and the other peer purge while the copy runs
                    n1Admin.purge();
                    n2Admin.purge();
                } catch (SQLException e) {
                    failures.add(e);
                }
            });
        }
        Thread.sleep(500);
        w1.stop.set(true);
        w2.stop.set(true);
        w1.join();
        w2.join();
        assertThat(failures).isEmpty();
        assertThat(w1.transactions).isPositive();
        assertThat(w2.transactions).isPositive();
        assertThat(seen).filteredOn(JoinProgress::done).extracting(JoinProgress::table).hasSize(3);

        allApplyFromAllAndAgree(dbs, increments);
    }

    /**
     * The existing nodes learn about the new one (their repl.peers now name it) and it applies from
     * both; one more change on the new node; then every table agrees on the three nodes, every
     * increment is counted once on each and nothing is in an error queue.
     */
    static void allApplyFromAllAndAgree(List<TestDatabase> dbs, AtomicLong increments) throws Exception {
        Repl.shutdown();
        String[] urls = {url(dbs, 0, List.of(1, 2), Map.of()), url(dbs, 1, List.of(0, 2), Map.of()),
                url(dbs, 2, List.of(0, 1), Map.of())};
        for (int i = 0; i < 3; i++) open(dbs, i, urls[i]).close();
        try (Connection c = open(dbs, 2, urls[2]); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE counter SET n = n + 1 WHERE id = 1");
            s.executeUpdate("INSERT INTO child (id, parent_id, qty) VALUES (5000000, 1, 7)");
        }
        increments.incrementAndGet();
        for (int i = 0; i < 3; i++) {
            try (Connection c = open(dbs, i, urls[i])) {
                c.unwrap(ReplAdmin.class).waitForPeers(WAIT);
            }
        }
        for (String table : List.of("parent", "child", "counter")) {
            TableVerifier.Report report = verify(dbs, table);
            assertThat(report.agree()).as(table + ": " + report.differences()).isTrue();
        }
        for (int i = 0; i < 3; i++) {
            assertThat(sum(dbs.get(i), "SELECT sum(n) FROM counter")).as("increments counted once at " + name(i))
                    .isEqualTo(increments.get());
            assertThat(sum(dbs.get(i), dbs.get(i).driverTables("SELECT count(*) FROM repl_error"))).isZero();
        }
    }

    /**
     * The joining JVM is killed (SIGKILL) while it copies the last and largest table, the first two
     * copied; the join run again keeps those two and copies the third from a new snapshot, and the
     * appliers skip, for that table only, the changes between the two snapshots it already holds.
     */
    @ParameterizedTest
    @MethodSource("servers")
    void aJoinKilledMidCopyGoesOnWhenRunAgain(Vendor vendor) throws Exception {
        List<TestDatabase> dbs = new ArrayList<>();
        for (int i = 0; i < 3; i++) dbs.add(databases.create(vendor, "joinkill_n" + (i + 1)));
        int children = 400_000;
        seed(dbs.get(0), children);
        seed(dbs.get(1), children);
        try (Connection c = dbs.get(2).openRaw(); Statement s = c.createStatement()) {
            for (String sql : schema(vendor)) s.execute(sql);
        }
        String n1 = url(dbs, 0, List.of(1), Map.of());
        String n2 = url(dbs, 1, List.of(0), Map.of());
        open(dbs, 0, n1).close();
        open(dbs, 1, n2).close();
        AtomicLong increments = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        Writer w1 = new Writer(n1, dbs.get(0), 0, increments, failures);
        Writer w2 = new Writer(n2, dbs.get(1), 1, increments, failures);
        w1.start();
        w2.start();

        String joining = url(dbs, 2, List.of(0, 1), Map.of("repl.apply", "false"));
        open(dbs, 2, joining).close(); // the driver's tables
        Path output = Files.createTempFile("join-killed", ".txt");
        String vendorJar = Path.of((vendor == Vendor.POSTGRESQL ? org.postgresql.Driver.class : org.mariadb.jdbc.Driver.class)
                .getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-cp", System.getProperty("repl.driverJar") + java.io.File.pathSeparator + vendorJar,
                "io.jdbcrepl.cli.Main", "join", "--url", joining, "--from", "n1", "--user", dbs.get(2).user()));
        if (!dbs.get(2).password().isEmpty()) command.addAll(List.of("--password", dbs.get(2).password()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.readString(output).matches("(?s).*child\\S*: \\d+/\\d+ rows.*")) {
                assertThat(process.isAlive()).as("the join runs; it printed: %s", Files.readString(output)).isTrue();
                assertThat(System.nanoTime()).as("copying child; so far: %s", Files.readString(output)).isLessThan(deadline);
                Thread.sleep(20);
            }
            process.destroyForcibly(); // SIGKILL
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            process.destroyForcibly();
        }
        String printed = Files.readString(output);
        Files.deleteIfExists(output);
        assertThat(printed).as(printed).containsPattern("counter\\S*: 10000 rows copied")
                .containsPattern("parent\\S*: 10000 rows copied").doesNotContain("has joined");
        assertThat(sum(dbs.get(2), dbs.get(2).driverTables("SELECT count(*) FROM repl_join WHERE position = 'copying'")))
                .as("the copy of child was under way").isEqualTo(1);
        Thread.sleep(1000); // writers move on between the two snapshots

        try (Connection c = open(dbs, 2, joining)) {
            List<JoinProgress> seen = new ArrayList<>();
            c.unwrap(ReplAdmin.class).join("n1", false, seen::add);
            assertThat(seen).filteredOn(JoinProgress::done).extracting(JoinProgress::table)
                    .singleElement().asString().contains("child");
        }
        assertThat(sum(dbs.get(2), dbs.get(2).driverTables("SELECT count(*) FROM repl_join WHERE position = 'copied'")))
                .isEqualTo(3);
        w1.stop.set(true);
        w2.stop.set(true);
        w1.join();
        w2.join();
        assertThat(failures).isEmpty();
        allApplyFromAllAndAgree(dbs, increments);
    }

    static Stream<Vendor> servers() {
        return Stream.of(Vendor.POSTGRESQL, Vendor.MARIADB);
    }

    /**
     * {@code repl.join} on the new node: its first connection starts the join in the background,
     * {@code status} says JOINING meanwhile, and its appliers apply once the join has ended.
     */
    @Test
    void replJoinJoinsWhenTheNodesApplicationStarts() throws Exception {
        List<TestDatabase> dbs = new ArrayList<>();
        for (int i = 0; i < 2; i++) dbs.add(databases.create(Vendor.POSTGRESQL, "repljoin_n" + (i + 1)));
        seed(dbs.get(0), 300_000);
        try (Connection c = dbs.get(1).openRaw(); Statement s = c.createStatement()) {
            for (String sql : schema(Vendor.POSTGRESQL)) s.execute(sql);
        }
        String n1 = url(dbs, 0, List.of(1), Map.of());
        open(dbs, 0, n1).close();
        String n2 = url(dbs, 1, List.of(0), Map.of("repl.join", "n1"));
        try (Connection c = open(dbs, 1, n2)) {
            ReplAdmin admin = c.unwrap(ReplAdmin.class);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            io.jdbcrepl.api.PeerStatus peer = admin.status().peers().get(0);
            while (!peer.state().equals("JOINING")) {
                assertThat(System.nanoTime()).as("status shows JOINING; last: " + peer).isLessThan(deadline);
                Thread.sleep(10);
                peer = admin.status().peers().get(0);
            }
            assertThat(peer.lastError()).contains("joining from n1");
            try (Connection w = open(dbs, 0, n1); Statement s = w.createStatement()) {
                s.executeUpdate("UPDATE counter SET n = n + 5 WHERE id = 7");
            }
            admin.waitForPeers(WAIT);
            assertThat(admin.status().peers().get(0).state()).isEqualTo("RUNNING");
        }
        assertThat(sum(dbs.get(1), "SELECT count(*) FROM child")).isEqualTo(300_000);
        assertThat(sum(dbs.get(1), "SELECT n FROM counter WHERE id = 7")).isEqualTo(5);
        for (String table : List.of("parent", "child", "counter")) {
            assertThat(verify(dbs, table).agree()).as(table).isTrue();
        }
    }

    @Test
    void badInputChangesNothing() throws Exception {
        TestDatabase a = databases.create(Vendor.POSTGRESQL, "join_bad_a");
        TestDatabase b = databases.create(Vendor.POSTGRESQL, "join_bad_b");
        List<TestDatabase> dbs = List.of(a, b);
        seed(a);
        try (Connection c = b.openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE parent (id INT PRIMARY KEY, name text NOT NULL)");
            s.execute("INSERT INTO parent VALUES (1, 'mine')");
        }
        open(dbs, 0, url(dbs, 0, List.of(1), Map.of())).close();
        String joining = url(dbs, 1, List.of(0), Map.of("repl.apply", "false"));
        try (Connection c = open(dbs, 1, joining)) {
            ReplAdmin admin = c.unwrap(ReplAdmin.class);
            assertThatThrownBy(() -> admin.join("n9")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("n9").hasMessageContaining("not a peer")
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42704");
            assertThatThrownBy(() -> admin.join("n1")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("parent").hasMessageContaining("holds rows")
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("55000");
        }
        assertThat(sum(b, "SELECT count(*) FROM parent")).isEqualTo(1);
        assertThat(sum(b, b.driverTables("SELECT count(*) FROM repl_join"))).isZero();
        assertThat(sum(a, a.driverTables("SELECT count(*) FROM repl_subscriber"))).isZero();

        // an unreachable donor: a clear error, nothing joined
        String unreachable = b.replUrl(Map.of("repl.node", "n2", "repl.peers", "n1", "repl.apply", "false",
                "repl.peer.n1.url", "jdbc:postgresql://127.0.0.1:1/nowhere", "repl.peer.timeout", "2s"));
        try (Connection c = DriverManager.getConnection(unreachable, b.credentials())) {
            assertThatThrownBy(() -> c.unwrap(ReplAdmin.class).join("n1", true, null)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("n1").hasMessageContaining("unreachable")
                    .extracting(e -> ((SQLException) e).getSQLState()).asString().startsWith("08");
        }
        assertThat(sum(b, "SELECT count(*) FROM parent")).isEqualTo(1);

        // with replace: the table's rows go, the donor's come, the missing tables are created
        try (Connection c = open(dbs, 1, joining)) {
            c.unwrap(ReplAdmin.class).join("n1", true, null);
        }
        assertThat(sum(b, "SELECT count(*) FROM parent")).isEqualTo(PARENTS);
        assertThat(sum(b, "SELECT count(*) FROM parent WHERE name = 'mine'")).isZero();
        assertThat(sum(b, "SELECT count(*) FROM child")).isEqualTo(CHILDREN);
        for (String table : List.of("parent", "child", "counter")) assertThat(verify(dbs, table).agree()).as(table).isTrue();

        // repl.join naming a node that is not a peer is refused at connect
        assertThatThrownBy(() -> DriverManager.getConnection(url(dbs, 1, List.of(0), Map.of("repl.join", "n7")),
                b.credentials())).isInstanceOf(SQLException.class).hasMessageContaining("repl.join=n7")
                .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("22023");
    }

    static TableVerifier.Report verify(List<TestDatabase> dbs, String table) throws SQLException {
        List<TableVerifier.Side> sides = new ArrayList<>();
        List<Connection> open = new ArrayList<>();
        try {
            for (int i = 0; i < dbs.size(); i++) {
                Connection c = dbs.get(i).openRaw();
                open.add(c);
                sides.add(new TableVerifier.Side(name(i), c, Dialect.forUrl(dbs.get(i).rawUrl())));
            }
            return new TableVerifier(10).compare(sides, table);
        } finally {
            for (Connection c : open) c.close();
        }
    }

    static long sum(TestDatabase db, String sql) throws SQLException {
        try (Connection c = db.openRaw(); PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
