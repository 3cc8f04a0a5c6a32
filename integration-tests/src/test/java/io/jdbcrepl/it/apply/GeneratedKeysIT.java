package io.jdbcrepl.it.apply;

import com.zaxxer.hikari.HikariDataSource;
import io.jdbcrepl.api.NodeStatus;
import io.jdbcrepl.api.PeerStatus;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.verify.TableVerifier;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * SPEC 8.2: three nodes with {@code repl.keys.step=3} and offsets 1, 2, 3 insert at once into
 * tables whose keys the database generates (serial, identity, AUTO_INCREMENT, Hibernate's
 * {@code IDENTITY} and {@code SEQUENCE} ids), starting from the same existing rows: no key is handed
 * out twice, so no uniqueness conflict, and every row is on every node.
 */
class GeneratedKeysIT extends ClusterTest {

    /** Rows every writer thread inserts per table; two writers per node. */
    private static final int ROWS = 60;
    private static final int WRITERS = 2;
    /** Rows every node has before it starts (ids 1..SEED, the sequences past them). */
    private static final int SEED = 10;

    private final List<HikariDataSource> pools = new ArrayList<>();
    private final List<SessionFactory> factories = new ArrayList<>();

    @AfterEach
    void closeApplication() {
        factories.forEach(SessionFactory::close);
        pools.forEach(HikariDataSource::close);
    }

    /** PostgreSQL, MariaDB, mixed (ClusterTest's trios) and H2. */
    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> triosAndH2() {
        return java.util.stream.Stream.concat(trios(), java.util.stream.Stream.of(
                org.junit.jupiter.params.provider.Arguments.of(List.of(Vendor.H2, Vendor.H2, Vendor.H2))));
    }

    @ParameterizedTest
    @MethodSource("triosAndH2")
    void plainInsertsOnThreeNodesAtOnceNeverCollide(List<Vendor> vendors) throws Exception {
        start(vendors, "keys", GeneratedKeysIT::plainTables);
        for (int i = 0; i < cluster.size(); i++) pools.add(cluster.pool(i, WRITERS));
        concurrently(node -> {
            try (Connection c = pools.get(node).getConnection();
                    PreparedStatement serial = c.prepareStatement("INSERT INTO k_serial (node, n) VALUES (?, ?)");
                    PreparedStatement ident = c.prepareStatement("INSERT INTO k_ident (node, n) VALUES (?, ?)")) {
                for (int i = 0; i < ROWS; i++) {
                    for (PreparedStatement ps : List.of(serial, ident)) {
                        ps.setString(1, Cluster.name(node));
                        ps.setInt(2, i);
                        ps.executeUpdate();
                    }
                    c.commit();
                }
            }
        });
        assertEverywhere("k_serial", "k_ident");
        for (int i = 0; i < cluster.size(); i++) {
            NodeStatus status = cluster.admin(i).status();
            assertThat(status.keyWarnings()).as("status of " + Cluster.name(i)).isEmpty();
        }
    }

    @ParameterizedTest
    @MethodSource("trios")
    void hibernateIdentityAndSequenceIdsOnThreeNodesNeverCollide(List<Vendor> vendors) throws Exception {
        cluster = keyed(databases.nodes("hibkeys", vendors.toArray(new Vendor[0])));
        for (int i = 0; i < cluster.size(); i++) {
            TestDatabase db = cluster.db(i);
            try (SessionFactory ddl = hibernate(db.rawUrl(), db.user(), db.password())
                    .setProperty(AvailableSettings.HBM2DDL_AUTO, "create").buildSessionFactory()) {
                assertThat(ddl.isOpen()).isTrue();
            }
        }
        cluster.ddl(v -> List.of()); // installs the driver's tables, which arranges Hibernate's sequences
        for (int i = 0; i < cluster.size(); i++) {
            HikariDataSource pool = cluster.pool(i, WRITERS + 1);
            pools.add(pool);
            Configuration c = new Configuration().addAnnotatedClass(IdentityRow.class).addAnnotatedClass(SequenceRow.class);
            c.getProperties().put(AvailableSettings.DATASOURCE, pool);
            c.setProperty(AvailableSettings.HBM2DDL_AUTO, "none");
            factories.add(c.buildSessionFactory());
        }
        concurrently(node -> {
            SessionFactory sf = factories.get(node);
            for (int i = 0; i < ROWS; i++) {
                int n = i;
                sf.inTransaction(s -> {
                    s.persist(new IdentityRow(Cluster.name(node), n));
                    s.persist(new SequenceRow(Cluster.name(node), n));
                });
            }
        });
        assertEverywhere("hib_key_identity", "hib_key_sequence");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = Vendor.class, names = {"POSTGRESQL", "H2"})
    void generatedAlwaysIdentityIsReplicated(Vendor vendor) throws Exception {
        start(List.of(vendor, vendor, vendor), "keysalways", v -> List.of(
                "CREATE TABLE k_always (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, node VARCHAR(8), n INT)"));
        for (int i = 0; i < cluster.size(); i++) pools.add(cluster.pool(i, WRITERS));
        concurrently(node -> {
            try (Connection c = pools.get(node).getConnection();
                    PreparedStatement ps = c.prepareStatement("INSERT INTO k_always (node, n) VALUES (?, ?)");
                    PreparedStatement given = c.prepareStatement(
                            "INSERT INTO k_always (id, node, n) OVERRIDING SYSTEM VALUE VALUES (?, ?, ?)")) {
                for (int i = 0; i < ROWS; i++) {
                    ps.setString(1, Cluster.name(node));
                    ps.setInt(2, i);
                    ps.executeUpdate();
                    c.commit();
                }
                // a value the application gives itself, in no node's key range: its own thread's row
                given.setLong(1, 1_000_000L + node * 1000L + Thread.currentThread().getId() % 1000);
                given.setString(2, Cluster.name(node));
                given.setInt(3, -1);
                given.executeUpdate();
                c.commit();
            }
        });
        assertEverywhere("k_always");
        assertThat(cluster.count(0, "SELECT count(*) FROM k_always")).isEqualTo(3L * WRITERS * (ROWS + 1));
    }

    @Test
    void aTableCreatedThroughTheDriverIsArranged() throws Exception {
        start(List.of(Vendor.POSTGRESQL, Vendor.POSTGRESQL), "keyslate", v -> List.of());
        cluster.execute(1, "CREATE TABLE k_late (id serial PRIMARY KEY, node VARCHAR(8))");
        try (Connection c = cluster.db(1).openRaw(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT increment_by, start_value FROM pg_sequences WHERE sequencename = 'k_late_id_seq'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(3);
        }
        cluster.execute(1, "INSERT INTO k_late (node) VALUES ('n2')");
        cluster.execute(1, "INSERT INTO k_late (node) VALUES ('n2')");
        try (Connection c = cluster.db(1).openRaw(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id FROM k_late ORDER BY id")) {
            List<Long> ids = new ArrayList<>();
            while (rs.next()) ids.add(rs.getLong(1));
            assertThat(ids).containsExactly(2L, 5L);
        }
    }

    @Test
    void withoutAKeySchemeStatusWarnsAboutGeneratedKeys() throws Exception {
        cluster = new Cluster(databases.nodes("keysnone", Vendor.POSTGRESQL, Vendor.MARIADB));
        cluster.ddl(GeneratedKeysIT::plainTables);
        for (int i = 0; i < cluster.size(); i++) {
            assertThat(cluster.admin(i).status().keyWarnings()).as(Cluster.name(i))
                    .anySatisfy(w -> assertThat(w).contains("k_serial").contains("no key scheme"))
                    .anySatisfy(w -> assertThat(w).contains("k_ident").contains("no key scheme"));
        }
    }

    @Test
    void aSequenceTheDriverMayNotAlterIsReported() throws Exception {
        cluster = keyed(databases.nodes("keysowner", Vendor.POSTGRESQL, Vendor.POSTGRESQL));
        TestDatabase db = cluster.db(0);
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            s.execute("DROP ROLE IF EXISTS keys_app");
            s.execute("CREATE ROLE keys_app LOGIN");
            s.execute("CREATE TABLE k_foreign (id serial PRIMARY KEY, v INT)");
            s.execute("GRANT ALL ON SCHEMA public TO keys_app");
            s.execute("GRANT ALL ON ALL TABLES IN SCHEMA public TO keys_app");
            s.execute("GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO keys_app");
            s.execute("CREATE SCHEMA repl AUTHORIZATION keys_app");
        }
        try {
            Properties app = new Properties();
            app.setProperty("user", "keys_app");
            try (Connection c = java.sql.DriverManager.getConnection(cluster.url(0), app)) {
                NodeStatus status = c.unwrap(io.jdbcrepl.api.ReplAdmin.class).status();
                assertThat(status.keyWarnings()).anySatisfy(w -> assertThat(w).contains("k_foreign_id_seq")
                        .contains("is not arranged").contains("owner"));
            }
            try (Connection c = db.openRaw(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT increment_by FROM pg_sequences WHERE sequencename = 'k_foreign_id_seq'")) {
                rs.next();
                assertThat(rs.getLong(1)).as("left as it was").isEqualTo(1);
            }
        } finally {
            cluster.close();
            try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA repl CASCADE");
                s.execute("REASSIGN OWNED BY keys_app TO CURRENT_USER");
                s.execute("DROP OWNED BY keys_app");
                s.execute("DROP ROLE keys_app");
            }
        }
    }

    @Test
    void twoNodesWithTheSameOffsetStopApplyingEachOther() throws Exception {
        cluster = new Cluster(databases.nodes("keysclash", Vendor.POSTGRESQL, Vendor.MARIADB))
                .with(0, Map.of("repl.keys.step", "2", "repl.keys.offset", "1"))
                .with(1, Map.of("repl.keys.step", "2", "repl.keys.offset", "1"));
        cluster.ddl(GeneratedKeysIT::plainTables);
        cluster.execute(0, "INSERT INTO k_serial (node, n) VALUES ('n1', 1)");
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        List<PeerStatus> stopped = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            stopped.clear();
            for (int i = 0; i < cluster.size(); i++) {
                for (PeerStatus p : cluster.admin(i).status().peers()) {
                    if ("STOPPED".equals(p.state()) && p.lastError() != null && p.lastError().contains("55000")) stopped.add(p);
                }
            }
            if (stopped.size() == 2) break;
            Thread.sleep(200);
        }
        assertThat(stopped).hasSize(2).allSatisfy(p -> assertThat(p.lastError()).contains("n1").contains("n2")
                .contains("repl.keys.offset=1"));
        for (int i = 0; i < cluster.size(); i++) {
            assertThat(cluster.admin(i).status().keyWarnings()).as(Cluster.name(i))
                    .anySatisfy(w -> assertThat(w).contains("both have repl.keys.offset=1"));
        }
        assertThat(cluster.count(1, "SELECT count(*) FROM k_serial WHERE node = 'n1'")).as("nothing applied at n2").isEqualTo(0);
    }

    @Test
    void anOffsetAboveTheStepIsRefusedAndChangesNothing() throws Exception {
        TestDatabase db = databases.create(Vendor.POSTGRESQL, "keysbad");
        for (Map<String, String> bad : List.of(Map.of("repl.node", "n1", "repl.keys.step", "3", "repl.keys.offset", "4"),
                Map.of("repl.node", "n1", "repl.keys.step", "0", "repl.keys.offset", "1"),
                Map.of("repl.node", "n1", "repl.keys.offset", "2"))) {
            SQLException e = catchThrowableOfType(SQLException.class, () -> db.openRepl(bad).close());
            assertThat((Throwable) e).as(bad.toString()).isNotNull();
            assertThat(e.getSQLState()).as(e.getMessage()).isEqualTo("22023");
            assertThat(e.getMessage()).contains("repl.keys.");
        }
        try (Connection c = db.openRaw(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM information_schema.schemata WHERE schema_name = 'repl'")) {
            rs.next();
            assertThat(rs.getInt(1)).as("no driver schema made").isZero();
        }
    }

    // ---- the tables and the cluster

    /** Two tables with generated keys and the same {@link #SEED} rows on every node, the generators past them. */
    private static List<String> plainTables(Vendor v) {
        if (v.isMariaDbServer()) {
            return List.of("CREATE TABLE k_serial (id INT AUTO_INCREMENT PRIMARY KEY, node VARCHAR(8), n INT)",
                    "CREATE TABLE k_ident (id BIGINT AUTO_INCREMENT PRIMARY KEY, node VARCHAR(8), n INT)",
                    "INSERT INTO k_serial (id, node, n) SELECT seq, 'seed', seq FROM seq_1_to_" + SEED,
                    "INSERT INTO k_ident (id, node, n) SELECT seq, 'seed', seq FROM seq_1_to_" + SEED);
        }
        if (v == Vendor.H2) {
            return List.of("CREATE TABLE k_serial (id INT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, node VARCHAR(8), n INT)",
                    "CREATE TABLE k_ident (id BIGINT AUTO_INCREMENT PRIMARY KEY, node VARCHAR(8), n INT)",
                    "INSERT INTO k_serial (node, n) SELECT 'seed', X FROM SYSTEM_RANGE(1, " + SEED + ")",
                    "INSERT INTO k_ident (node, n) SELECT 'seed', X FROM SYSTEM_RANGE(1, " + SEED + ")");
        }
        return List.of("CREATE TABLE k_serial (id serial PRIMARY KEY, node VARCHAR(8), n INT)",
                "CREATE TABLE k_ident (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, node VARCHAR(8), n INT)",
                "INSERT INTO k_serial (node, n) SELECT 'seed', g FROM generate_series(1, " + SEED + ") g",
                "INSERT INTO k_ident (node, n) SELECT 'seed', g FROM generate_series(1, " + SEED + ") g");
    }

    private void start(List<Vendor> vendors, String label, java.util.function.Function<Vendor, List<String>> ddl)
            throws SQLException {
        cluster = keyed(databases.nodes(label, vendors.toArray(new Vendor[0])));
        cluster.ddl(ddl);
    }

    /** Nodes n1..nk with step 3 and offsets 1..k. */
    private static Cluster keyed(List<TestDatabase> dbs) {
        Cluster c = new Cluster(dbs);
        for (int i = 0; i < dbs.size(); i++) c.with(i, Map.of("repl.keys.step", "3", "repl.keys.offset", String.valueOf(i + 1)));
        return c;
    }

    /** After every node applied every other's changes: no conflict, no error, the same rows, each node's keys its own. */
    private void assertEverywhere(String... tables) throws SQLException {
        cluster.waitForAll();
        for (int i = 0; i < cluster.size(); i++) {
            assertThat(cluster.count(i, "SELECT count(*) FROM repl_conflict")).as("conflicts at " + Cluster.name(i)).isZero();
            assertThat(cluster.count(i, "SELECT count(*) FROM repl_error")).as("error queue of " + Cluster.name(i)).isZero();
        }
        for (String table : tables) {
            TableVerifier.Report report = cluster.verify(table);
            assertThat(report.differences()).as("differences in " + table).isEmpty();
            for (int i = 0; i < cluster.size(); i++) {
                assertThat(cluster.count(0, "SELECT count(*) FROM " + table + " WHERE node = '" + Cluster.name(i) + "'"))
                        .as(table + " rows of " + Cluster.name(i)).isGreaterThanOrEqualTo((long) WRITERS * ROWS);
                long offset = (i + 1) % 3;
                assertThat(cluster.count(0, "SELECT count(*) FROM " + table + " WHERE node = '" + Cluster.name(i)
                        + "' AND n >= 0 AND MOD(id, 3) <> " + offset)).as(table + " keys of " + Cluster.name(i) + " not \u2261 "
                        + offset + " (mod 3)").isZero();
            }
        }
    }

    private interface NodeWork {
        void run(int node) throws Exception;
    }

    /** {@link #WRITERS} threads per node, every node at once; the first failure is rethrown. */
    private void concurrently(NodeWork work) throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(cluster.size() * WRITERS);
        try {
            List<Future<Object>> done = new ArrayList<>();
            for (int node = 0; node < cluster.size(); node++) {
                for (int w = 0; w < WRITERS; w++) {
                    int n = node;
                    done.add(executor.submit(() -> {
                        work.run(n);
                        return null;
                    }));
                }
            }
            for (Future<Object> f : done) f.get(5, TimeUnit.MINUTES);
        } finally {
            executor.shutdownNow();
        }
    }

    private static Configuration hibernate(String url, String user, String password) {
        Configuration c = new Configuration().addAnnotatedClass(IdentityRow.class).addAnnotatedClass(SequenceRow.class);
        c.setProperty(AvailableSettings.JAKARTA_JDBC_URL, url);
        c.setProperty(AvailableSettings.JAKARTA_JDBC_USER, user);
        c.setProperty(AvailableSettings.JAKARTA_JDBC_PASSWORD, password == null ? "" : password);
        return c;
    }

    @Entity(name = "IdentityRow")
    @Table(name = "hib_key_identity")
    public static class IdentityRow {
        @Id
        @GeneratedValue(strategy = GenerationType.IDENTITY)
        Long id;
        String node;
        int n;

        public IdentityRow() {
        }

        IdentityRow(String node, int n) {
            this.node = node;
            this.n = n;
        }
    }

    /** allocationSize 1: the sequence steps by repl.keys.step once arranged (docs/keys.md says why not 50). */
    @Entity(name = "SequenceRow")
    @Table(name = "hib_key_sequence")
    public static class SequenceRow {
        @Id
        @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "hib_key_seq")
        @SequenceGenerator(name = "hib_key_seq", sequenceName = "hib_key_seq", allocationSize = 1)
        Long id;
        String node;
        int n;

        public SequenceRow() {
        }

        SequenceRow(String node, int n) {
            this.node = node;
            this.n = n;
        }
    }
}
