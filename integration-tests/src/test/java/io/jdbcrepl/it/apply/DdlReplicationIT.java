package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * DDL replication (SPEC 8.3): DDL and TRUNCATE on replicated tables through a node's connection
 * reach its peers at the same point of its order as the DML around them; a DDL that fails on a
 * peer goes to its error queue and applies on retry; on MariaDB, whose DDL commits on its own, a
 * JVM that halts between the statement and its LCR loses nothing and doubles nothing.
 */
class DdlReplicationIT extends ClusterTest {

    static Stream<Arguments> sameVendor() {
        return Stream.of(Arguments.of(List.of(Vendor.POSTGRESQL, Vendor.POSTGRESQL)),
                Arguments.of(List.of(Vendor.MARIADB, Vendor.MARIADB)),
                Arguments.of(List.of(Vendor.H2, Vendor.H2)));
    }

    /** The same vendors, and PostgreSQL ⇄ MariaDB, where the statements are translated. */
    static Stream<Arguments> everyPair() {
        return Stream.concat(sameVendor(), Stream.of(Arguments.of(List.of(Vendor.POSTGRESQL, Vendor.MARIADB)),
                Arguments.of(List.of(Vendor.MARIADB, Vendor.POSTGRESQL))));
    }

    private void start(List<Vendor> vendors, Map<String, String> extra) throws SQLException {
        cluster = new Cluster(databases.nodes("ddlrep", vendors.toArray(Vendor[]::new)), extra);
        for (int i = 0; i < vendors.size(); i++) cluster.open(i).close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyPair")
    void aTablesLifeThroughOneNodeReachesThePeerInOrder(List<Vendor> vendors) throws Exception {
        start(vendors, Map.of());
        cluster.execute(0, "CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(40))");
        cluster.execute(0, "INSERT INTO item (id, name) VALUES (1, 'a'), (2, 'b')");
        try (Connection c = cluster.open(0); Statement s = c.createStatement()) { // DDL and DML in one transaction
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO item (id, name) VALUES (3, 'c')");
            s.execute("ALTER TABLE item ADD COLUMN qty INT DEFAULT 7 NOT NULL");
            s.executeUpdate("UPDATE item SET qty = 9 WHERE id = 3");
            c.commit();
        }
        cluster.waitForAll();
        cluster.execute(1, "INSERT INTO item (id, name, qty) VALUES (4, 'd', 10)"); // the peer writes the new column
        cluster.waitForAll(); // else n1's RENAME below may come first, and n2's INSERT of "name" rightly fails there
        cluster.execute(0, "CREATE INDEX item_name ON item (name)");
        cluster.execute(0, "ALTER TABLE item RENAME COLUMN name TO title");
        cluster.execute(0, "UPDATE item SET title = 'z' WHERE id = 1");
        cluster.waitForAll();
        cluster.execute(1, "ALTER TABLE item DROP COLUMN qty");
        cluster.execute(1, "UPDATE item SET title = 'y' WHERE id = 2");
        cluster.waitForAll();
        assertThat(columns(1, "item")).isEqualTo(columns(0, "item")).contains("title", "id").doesNotContain("qty", "name");
        assertThat(indexes(1, "item")).contains("item_name").isEqualTo(indexes(0, "item"));
        assertThat(cluster.rows(1, "item", "id")).containsExactlyElementsOf(cluster.rows(0, "item", "id"))
                .containsExactly("id=1, title=z", "id=2, title=y", "id=3, title=c", "id=4, title=d");
        assertThat(cluster.verify("item").differences()).as("differences").isEmpty();

        cluster.execute(1, "TRUNCATE TABLE item");
        cluster.execute(1, "INSERT INTO item (id, title) VALUES (5, 'e')");
        cluster.waitForAll();
        assertThat(cluster.rows(0, "item", "id")).containsExactly("id=5, title=e");

        cluster.execute(0, "DROP TABLE item");
        cluster.waitForAll();
        assertThat(columns(1, "item")).isEmpty();
        for (int i = 0; i < 2; i++) {
            assertThat(cluster.count(i, "SELECT count(*) FROM repl_error")).as("error queue of n" + (i + 1)).isZero();
            assertThat(cluster.count(i, "SELECT count(*) FROM repl_ddl")).as("repl_ddl of n" + (i + 1)).isZero();
        }
        // each statement once in its node's log: 4 + TRUNCATE + DROP at n1, 2 at n2 (and TRUNCATE)
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_log WHERE command_type = 'DDL'")
                + cluster.count(1, "SELECT count(*) FROM repl_log WHERE command_type = 'DDL'"))
                .as("DDL LCRs not yet purged are at most the statements run").isLessThanOrEqualTo(7);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sameVendor")
    void rolledBackDdlLeavesNothing(List<Vendor> vendors) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(vendors.get(0) == Vendor.POSTGRESQL, "transactional DDL only");
        start(vendors, Map.of());
        cluster.execute(0, "CREATE TABLE item (id INT PRIMARY KEY)");
        try (Connection c = cluster.open(0); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("ALTER TABLE item ADD COLUMN gone INT");
            c.rollback();
        }
        cluster.execute(0, "INSERT INTO item (id) VALUES (1)");
        cluster.waitForAll();
        assertThat(columns(1, "item")).containsExactly("id");
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_log WHERE command_type = 'DDL'")
                + cluster.count(1, "SELECT count(*) FROM repl_error")).isLessThanOrEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sameVendor")
    void aDdlThatFailsOnThePeerIsQueuedAndAppliesOnRetry(List<Vendor> vendors) throws Exception {
        start(vendors, Map.of());
        cluster.execute(0, "CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(40))");
        cluster.waitForAll();
        try (Connection c = cluster.db(1).openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE INDEX clash ON item (id)"); // the peer's own index, named as the source's will be
        }
        cluster.execute(0, "CREATE INDEX clash ON item (name)");
        cluster.execute(0, "INSERT INTO item (id, name) VALUES (1, 'a')");
        cluster.waitForAll();
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error")).as("the CREATE INDEX queued").isEqualTo(1);
        assertThat(cluster.rows(1, "item", "id")).as("what followed applied").containsExactly("id=1, name=a");

        try (Connection c = cluster.db(1).openRaw(); Statement s = c.createStatement()) {
            s.execute(vendors.get(1).isMariaDbServer() ? "DROP INDEX clash ON item" : "DROP INDEX clash");
        }
        assertThat(cluster.admin(1).retryAllErrors()).isEqualTo(1);
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error")).isZero();
        assertThat(indexColumns(1, "item", "clash")).containsExactly("name");
    }

    @Test
    void ddlThatCannotBeTranslatedForThePeerIsQueuedSayingWhy() throws Exception {
        start(List.of(Vendor.POSTGRESQL, Vendor.MARIADB), Map.of());
        cluster.execute(0, "CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(40))");
        cluster.execute(0, "ALTER TABLE item ALTER COLUMN name TYPE VARCHAR(80)"); // MariaDB needs the whole column
        cluster.execute(0, "INSERT INTO item (id, name) VALUES (1, 'a')");
        cluster.waitForAll();
        List<io.jdbcrepl.api.ErrorEntry> errors = cluster.admin(1).errors();
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0).errorCode()).isEqualTo("0AR01");
        assertThat(errors.get(0).errorMessage()).containsIgnoringCase("mariadb").contains("errors");
        assertThat(cluster.rows(1, "item", "id")).as("what followed applied").containsExactly("id=1, name=a");
        // the user runs the equivalent on the peer and drops the entry
        try (Connection c = cluster.db(1).openRaw(); Statement s = c.createStatement()) {
            s.execute("ALTER TABLE item MODIFY name VARCHAR(80)");
        }
        cluster.admin(1).deleteError(errors.get(0).id());
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error")).isZero();
    }

    @Test
    void truncateCascadesAndRestartsIdentitiesAsTheDatabaseDoes() throws Exception {
        // RESTART IDENTITY starts every node's sequence again: a key scheme keeps them apart afterwards too
        cluster = new Cluster(databases.nodes("ddlrep", Vendor.POSTGRESQL, Vendor.POSTGRESQL), Map.of("repl.keys.step", "2"))
                .with(0, Map.of("repl.keys.offset", "1")).with(1, Map.of("repl.keys.offset", "2"));
        for (int i = 0; i < 2; i++) cluster.open(i).close();
        cluster.execute(0, "CREATE TABLE parent (id INT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, v INT)");
        cluster.execute(0, "CREATE TABLE child (id INT PRIMARY KEY, parent_id INT REFERENCES parent (id))");
        cluster.execute(0, "INSERT INTO parent (v) VALUES (1), (2)");
        cluster.execute(0, "INSERT INTO child SELECT 10, min(id) FROM parent");
        cluster.waitForAll();
        cluster.execute(0, "TRUNCATE parent RESTART IDENTITY CASCADE");
        cluster.execute(0, "INSERT INTO parent (v) VALUES (3)");
        cluster.waitForAll();
        for (int i = 0; i < 2; i++) {
            assertThat(cluster.rows(i, "parent", "id")).as("n" + (i + 1)).hasSize(1).allMatch(r -> r.endsWith("v=3"));
            assertThat(cluster.rows(i, "child", "id")).as("n" + (i + 1)).isEmpty();
        }
        assertThat(cluster.count(0, "SELECT max(id) FROM parent")).as("restarted: the first key of n1's scheme")
                .isLessThanOrEqualTo(3);
        try (Connection c = cluster.open(1); Statement s = c.createStatement()) { // n2's identity restarted, arranged again
            s.executeUpdate("INSERT INTO parent (v) VALUES (4)");
        }
        cluster.waitForAll();
        assertThat(cluster.rows(1, "parent", "id")).containsExactlyElementsOf(cluster.rows(0, "parent", "id")).hasSize(2);
        assertThat(cluster.count(1, "SELECT id % 2 FROM parent WHERE v = 4")).as("n2's key, by its offset").isZero();
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error")).isZero();
    }

    @Test
    void ddlThatAPeerMayNotRunIsRefusedBeforeItRuns() throws Exception {
        start(List.of(Vendor.POSTGRESQL, Vendor.POSTGRESQL), Map.of());
        cluster.execute(0, "CREATE TABLE item (id INT PRIMARY KEY)");
        assertThatThrownBy(() -> cluster.execute(0, "ALTER TABLE item ADD COLUMN v TEXT DEFAULT pg_read_file('/etc/hostname')"))
                .isInstanceOf(SQLException.class).hasMessageContaining("pg_read_file").hasMessageContaining("repl.ddl=local");
        assertThat(columns(0, "item")).containsExactly("id");
    }

    /** MariaDB commits around DDL: a JVM halted right before or right after the statement. */
    @ParameterizedTest(name = "halted {0} the ALTER")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"before", "after"})
    void aJvmHaltedAroundMariaDbDdlLosesAndDoublesNothing(String point) throws Exception {
        start(List.of(Vendor.MARIADB, Vendor.MARIADB), Map.of());
        cluster.execute(0, "CREATE TABLE item (id INT PRIMARY KEY)");
        cluster.execute(0, "INSERT INTO item (id) VALUES (1)");
        cluster.waitForAll();
        cluster.close(); // this JVM's nodes go: the child's DDL is found out by the next first connection

        TestDatabase a = cluster.db(0);
        Path out = Files.createTempFile("ddl-crash", ".log");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), DdlCrash.class.getName(), cluster.url(0), a.user(), a.password(),
                point, "ALTER TABLE item ADD COLUMN added INT").redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(Files.readString(out)).isEqualTo(DdlCrash.HALTED);
        boolean ran = point.equals("after");
        assertThat(columns(0, "item").contains("added")).isEqualTo(ran);
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_ddl")).as("the intent left behind").isEqualTo(1);

        // the node restarts: its first connection in a new JVM finds the DDL out
        Process restart = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), DdlCrash.class.getName(), cluster.url(0), a.user(), a.password(),
                "restart").redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(restart.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(restart.exitValue()).as(Files.readString(out)).isZero();
        for (int i = 0; i < 2; i++) cluster.open(i).close();
        cluster.waitForAll();
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_ddl")).isZero();
        assertThat(columns(1, "item").contains("added")).as("the peer has the column iff the source does").isEqualTo(ran);
        cluster.execute(0, ran ? "INSERT INTO item (id, added) VALUES (2, 22)" : "INSERT INTO item (id) VALUES (2)");
        cluster.open(0).close();
        cluster.waitForAll();
        assertThat(cluster.rows(1, "item", "id")).containsExactlyElementsOf(cluster.rows(0, "item", "id")).hasSize(2);
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error")).as("applied once: a second ALTER would fail").isZero();
    }

    /** The child JVM: runs one DDL statement through the driver, halting at the crash point named. */
    public static final class DdlCrash {
        static final int HALTED = 77;

        public static void main(String[] args) throws Exception {
            if (args[3].equals("restart")) {
                DriverManager.getConnection(args[0], args[1], args[2]).close();
                System.exit(0); // no waiting for the inbound server's threads
            }
            java.lang.reflect.Field hook = Class.forName("io.jdbcrepl.capture.ddl.DdlCapture").getDeclaredField("crashPoint");
            hook.setAccessible(true);
            String at = args[3];
            hook.set(null, (java.util.function.Consumer<String>) point -> {
                if (point.equals(at)) Runtime.getRuntime().halt(HALTED);
            });
            try (Connection c = DriverManager.getConnection(args[0], args[1], args[2]); Statement s = c.createStatement()) {
                s.execute(args[4]);
            }
            System.exit(1); // not halted: the test fails
        }
    }

    /** Column names (lower case) of a table on node i, as DatabaseMetaData reports them. */
    private List<String> columns(int i, String table) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = cluster.db(i).openRaw()) {
            for (String t : List.of(table, table.toUpperCase(Locale.ROOT))) {
                try (ResultSet rs = meta(c).getColumns(catalog(c, i), schema(c, i), t, null)) {
                    while (rs.next()) out.add(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                }
                if (!out.isEmpty()) break;
            }
        }
        return out;
    }

    private TreeSet<String> indexes(int i, String table) throws SQLException {
        TreeSet<String> out = new TreeSet<>();
        try (Connection c = cluster.db(i).openRaw()) {
            for (String t : List.of(table, table.toUpperCase(Locale.ROOT))) {
                try (ResultSet rs = meta(c).getIndexInfo(catalog(c, i), schema(c, i), t, false, false)) {
                    while (rs.next()) {
                        String name = rs.getString("INDEX_NAME");
                        if (name != null && !name.toLowerCase(Locale.ROOT).contains("pk")
                                && !name.equalsIgnoreCase("PRIMARY") && !name.toLowerCase(Locale.ROOT).startsWith("primary")) {
                            out.add(name.toLowerCase(Locale.ROOT));
                        }
                    }
                }
            }
        }
        return out;
    }

    private List<String> indexColumns(int i, String table, String index) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = cluster.db(i).openRaw()) {
            for (String t : List.of(table, table.toUpperCase(Locale.ROOT))) {
                try (ResultSet rs = meta(c).getIndexInfo(catalog(c, i), schema(c, i), t, false, false)) {
                    while (rs.next()) {
                        if (index.equalsIgnoreCase(rs.getString("INDEX_NAME"))) {
                            out.add(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                        }
                    }
                }
            }
        }
        return out;
    }

    private static DatabaseMetaData meta(Connection c) throws SQLException {
        return c.getMetaData();
    }

    private String catalog(Connection c, int i) throws SQLException {
        return cluster.db(i).vendor().isMariaDbServer() ? c.getCatalog() : null;
    }

    private String schema(Connection c, int i) throws SQLException {
        return cluster.db(i).vendor().isMariaDbServer() ? null : c.getSchema();
    }
}
