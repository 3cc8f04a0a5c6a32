package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.jdbcrepl.it.support.DatabaseServers;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The driver's tables in a schema of their own (SPEC 2, {@code repl.schema}): {@code repl} on
 * PostgreSQL and H2, {@code <database>_repl} on MariaDB, created when missing, so that schema tools
 * see only the application's tables; peers find each other's logs by the same rule or by
 * {@code repl.peer.<peer>.schema}.
 */
class DriverSchemaIT extends ClusterTest {

    private static final String NOTE = "CREATE TABLE note (id INT PRIMARY KEY, body VARCHAR(40))";

    /**
     * Flyway refuses to migrate a non-empty schema without its history table: a node's application
     * schema must be empty when the application has not created anything yet, and a migration's DML
     * through {@code jdbc:repl:} replicates.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB"})
    void flywayMigratesTheEmptyApplicationSchemaOfANode(Vendor vendor) throws Exception {
        // each node's application runs its own migrations (repl.ddl=local): Flyway's history stays local
        cluster = new Cluster(databases.nodes(vendor, "flyway", 2), Map.of("repl.exclude", "flyway_schema_history",
                "repl.ddl", "local"));
        cluster.ddl(v -> List.of()); // installs the driver's tables on both nodes
        try (Connection c = cluster.db(1).openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE shop_item (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL)"); // n2's own V1
        }
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(cluster.url(0));
        config.setUsername(cluster.db(0).user());
        config.setPassword(cluster.db(0).password());
        config.setMaximumPoolSize(2);
        try (HikariDataSource dataSource = new HikariDataSource(config)) {
            MigrateResult result = Flyway.configure().dataSource(dataSource).locations("classpath:db/schemaitflyway")
                    .load().migrate();
            assertThat(result.success).isTrue();
            assertThat(result.migrationsExecuted).isEqualTo(2);
        }
        cluster.waitForAll();
        assertThat(cluster.rows(1, "shop_item", "id")).containsExactly("id=1, name=pen", "id=2, name=blue ink");
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error")).isZero();
        assertThat(applicationTables(cluster.db(0))).containsExactlyInAnyOrder("flyway_schema_history", "shop_item");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void nodesWithDefaultSettingsReplicateThroughTheDriverSchema(Vendor vendor) throws Exception {
        cluster = new Cluster(databases.nodes(vendor, "dflt", 2));
        cluster.ddl(v -> List.of(NOTE));
        cluster.execute(0, "INSERT INTO note VALUES (1, 'hello')");
        cluster.execute(1, "INSERT INTO note VALUES (2, 'world')");
        cluster.waitForAll();
        for (int i = 0; i < 2; i++) {
            assertThat(cluster.rows(i, "note", "id")).containsExactly("id=1, body=hello", "id=2, body=world");
            assertThat(cluster.count(i, "SELECT count(*) FROM repl_log")).as("LCRs in n%d's driver schema", i + 1)
                    .isEqualTo(1);
            assertThat(cluster.count(i, "SELECT count(*) FROM repl_progress")).isEqualTo(1);
            assertThat(applicationTables(cluster.db(i))).as("tables of n%d's application schema", i + 1)
                    .containsExactly("note");
        }
    }

    /** {@code repl.tables=*.*} matches no table of the driver schema, whatever its name. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void aTableInTheDriverSchemaIsNeverCaptured(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "own");
        try (Connection c = db.openRepl(Map.of("repl.node", "n1", "repl.tables", "*.*")); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + db.driverTable("notes") + " (id INT PRIMARY KEY)");
            s.execute(NOTE);
            assertThat(s.executeUpdate("INSERT INTO " + db.driverTable("notes") + " VALUES (1)")).isEqualTo(1);
            assertThat(s.executeUpdate("INSERT INTO note VALUES (1, 'x')")).isEqualTo(1);
        }
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement();
                ResultSet rs = s.executeQuery(db.driverTables("SELECT command_type, table_name FROM repl_log ORDER BY position"))) {
            List<String> logged = new ArrayList<>();
            while (rs.next()) logged.add(rs.getString(1) + " " + rs.getString(2).toLowerCase(Locale.ROOT));
            assertThat(logged).containsExactly("DDL note", "INSERT note");
        }
    }

    /** A node whose log is elsewhere: its peers find it by {@code repl.peer.<peer>.schema}. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void aPeerLogsElsewhereAndIsFoundByPeerSchema(Vendor vendor) throws Exception {
        List<TestDatabase> dbs = databases.nodes(vendor, "peersch", 2);
        String n1Log = vendor.isMariaDbServer() ? dbs.get(0).name() + "_n1log" : "n1log";
        try {
            cluster = new Cluster(dbs)
                    .with(0, Map.of("repl.schema", n1Log, "repl.peer.n2.schema", dbs.get(1).driverSchema()))
                    .with(1, Map.of("repl.peer.n1.schema", n1Log));
            cluster.ddl(v -> List.of(NOTE));
            cluster.execute(0, "INSERT INTO note VALUES (1, 'from n1')");
            cluster.execute(1, "INSERT INTO note VALUES (2, 'from n2')");
            cluster.waitForAll();
            for (int i = 0; i < 2; i++) {
                assertThat(cluster.rows(i, "note", "id")).containsExactly("id=1, body=from n1", "id=2, body=from n2");
            }
            assertThat(cluster.count(0, "SELECT count(*) FROM " + n1Log + ".repl_log")).isEqualTo(1);
            assertThat(schemaExists(dbs.get(0), dbs.get(0).driverSchema())).as("n1's default driver schema").isFalse();
        } finally {
            cluster.close();
            dropMariaDbDatabase(vendor, n1Log);
        }
    }

    /** {@code repl.schema} naming the application's own schema keeps the log beside its tables, as before. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB"})
    void anExplicitApplicationSchemaWorksAsBefore(Vendor vendor) throws Exception {
        List<TestDatabase> dbs = databases.nodes(vendor, "appsch", 2);
        cluster = new Cluster(dbs);
        for (int i = 0; i < 2; i++) {
            cluster.with(i, Map.of("repl.schema", vendor.isMariaDbServer() ? dbs.get(i).name() : "public"));
        }
        cluster.ddl(v -> List.of(NOTE));
        cluster.execute(0, "INSERT INTO note VALUES (1, 'a')");
        cluster.execute(1, "INSERT INTO note VALUES (2, 'b')");
        cluster.waitForAll();
        for (int i = 0; i < 2; i++) {
            assertThat(cluster.rows(i, "note", "id")).containsExactly("id=1, body=a", "id=2, body=b");
            assertThat(applicationTables(dbs.get(i))).contains("note", "repl_log", "repl_progress");
            assertThat(schemaExists(dbs.get(i), dbs.get(i).driverSchema())).isFalse();
        }
    }

    /** A missing {@code repl.schema} is created ({@code auto}) or named in the error ({@code none}). */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void aMissingDriverSchemaIsCreatedOrNamed(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "fresh");
        String schema = vendor.isMariaDbServer() ? db.name() + "_fresh" : "fresh";
        try {
            assertThatThrownBy(() -> db.openRepl(Map.of("repl.node", "n1", "repl.schema", schema, "repl.install", "none")))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("3F000"))
                    .hasMessageContainingAll(vendor == Vendor.H2 ? "FRESH" : schema, "does not exist", "repl.install=none");
            assertThat(schemaExists(db, schema)).isFalse();
            try (Connection c = db.openRepl(Map.of("repl.node", "n1", "repl.schema", schema)); Statement s = c.createStatement()) {
                s.execute(NOTE);
                s.executeUpdate("INSERT INTO note VALUES (1, 'x')");
            }
            assertThat(schemaExists(db, schema)).isTrue();
            try (Connection raw = db.openRaw(); Statement s = raw.createStatement();
                    ResultSet rs = s.executeQuery("SELECT count(*) FROM " + schema + ".repl_log WHERE command_type = 'INSERT'")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(1);
            }
            if (vendor.isMariaDbServer()) {
                assertThat(mariaDbCharset(schema)).isEqualTo("utf8mb4");
            }
        } finally {
            dropMariaDbDatabase(vendor, schema);
        }
    }

    /** A user who may not create the driver's schema is told which one to create, or to set repl.schema. */
    @Test
    void aUserWhoMayNotCreateTheSchemaIsToldWhichOne() throws Exception {
        TestDatabase db = databases.create(Vendor.POSTGRESQL, "weak");
        String role = "repl_it_weak_" + UUID.randomUUID().toString().substring(0, 8);
        try (Connection admin = DatabaseServers.openAdmin(Vendor.Server.POSTGRESQL); Statement s = admin.createStatement()) {
            s.execute("CREATE ROLE " + role + " LOGIN PASSWORD 'weak'");
        }
        try {
            Properties p = new Properties();
            p.setProperty("user", role);
            p.setProperty("password", "weak");
            assertThatThrownBy(() -> DriverManager.getConnection(db.replUrl(Map.of("repl.node", "n1")), p).close())
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42501"))
                    .hasMessageContainingAll("schema repl", "CREATE SCHEMA IF NOT EXISTS \"repl\"", "repl.schema");
            assertThat(schemaExists(db, "repl")).isFalse();
        } finally {
            db.close();
            try (Connection admin = DatabaseServers.openAdmin(Vendor.Server.POSTGRESQL); Statement s = admin.createStatement()) {
                s.execute("DROP ROLE IF EXISTS " + role);
            }
        }
    }

    /** Tests leave nothing behind: the MariaDB driver database goes with its test database. */
    @Test
    void theMariaDbDriverDatabaseIsDroppedWithItsTestDatabase() throws Exception {
        TestDatabase db = TestDatabase.create(Vendor.MARIADB, "gone");
        try {
            db.openRepl(Map.of("repl.node", "n1")).close();
            assertThat(schemaExists(db, db.driverSchema())).isTrue();
        } finally {
            db.close();
        }
        try (Connection admin = DatabaseServers.openAdmin(Vendor.Server.MARIADB);
                PreparedStatement ps = admin.prepareStatement(
                        "SELECT count(*) FROM information_schema.schemata WHERE schema_name IN (?, ?)")) {
            ps.setString(1, db.name());
            ps.setString(2, db.driverSchema());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getInt(1)).isZero();
            }
        }
    }

    /** The tables of the raw connection's current schema (MariaDB: database), lower case. */
    private static List<String> applicationTables(TestDatabase db) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = db.openRaw()) {
            DatabaseMetaData md = c.getMetaData();
            boolean mariaDb = db.vendor().isMariaDbServer();
            try (ResultSet rs = md.getTables(mariaDb ? c.getCatalog() : null, mariaDb ? null : c.getSchema(), "%",
                    new String[] {"TABLE"})) {
                while (rs.next()) out.add(rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    private static boolean schemaExists(TestDatabase db, String schema) throws SQLException {
        String stored = db.vendor() == Vendor.H2 ? schema.toUpperCase(Locale.ROOT) : schema;
        try (Connection c = db.openRaw();
                PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?")) {
            ps.setString(1, stored);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }

    private static String mariaDbCharset(String database) throws SQLException {
        try (Connection admin = DatabaseServers.openAdmin(Vendor.Server.MARIADB);
                PreparedStatement ps = admin.prepareStatement(
                        "SELECT default_character_set_name FROM information_schema.schemata WHERE schema_name = ?")) {
            ps.setString(1, database);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private static void dropMariaDbDatabase(Vendor vendor, String database) throws SQLException {
        if (!vendor.isMariaDbServer()) return;
        try (Connection admin = DatabaseServers.openAdmin(Vendor.Server.MARIADB); Statement s = admin.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS `" + database + "`");
        }
    }
}
