package io.jdbcrepl.it;

import io.jdbcrepl.it.support.DatabaseServers;
import io.jdbcrepl.it.support.ForEachVendor;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The test support itself: databases are created and dropped, URLs are formed per vendor, and
 * the connection counter sees connections (else every "no leaked connection" check would be empty).
 */
class DatabaseSupportIT {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    @ForEachVendor
    void createsAndDropsItsDatabase(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "support"); // dropped here by close(), else after the test
        try {
            assertThat(db.name()).matches("repl_it_support_[0-9a-f]{8}");
            try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (id int PRIMARY KEY)");
            }
            assertThat(exists(db)).isTrue();
        } finally {
            db.close();
        }
        assertThat(exists(db)).as("dropped by close()").isFalse();
        db.close(); // idempotent
    }

    @ForEachVendor
    void dropsADatabaseThatStillHasSessions(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "support_busy");
        Connection leaked = db.openRaw();
        try (Statement s = leaked.createStatement()) {
            s.execute("CREATE TABLE t (id int PRIMARY KEY)");
        }
        try {
            db.close();
            assertThat(exists(db)).isFalse();
        } finally {
            try {
                leaked.close();
            } catch (SQLException alreadyEnded) {
                // ended by close(), as intended
            }
        }
    }

    @ForEachVendor
    void countsServerConnections(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "support_count");
        assertThat(db.serverConnections()).isZero();
        try (Connection raw = db.openRaw(); Connection repl = db.openRepl()) {
            assertThat(raw.isValid(5) && repl.isValid(5)).isTrue();
            assertThat(db.serverConnections()).isEqualTo(2);
        }
        assertThat(db.awaitServerConnectionsAtMost(0)).isZero();
    }

    @ForEachVendor
    void nodesAreSeparateDatabases(Vendor vendor) throws Exception {
        List<TestDatabase> nodes = databases.nodes(vendor, "support_nodes", 3);
        assertThat(nodes).extracting(TestDatabase::name).doesNotHaveDuplicates()
                .allMatch(n -> n.startsWith("repl_it_support_nodes_n"));
        try (Connection first = nodes.get(0).openRaw(); Statement s = first.createStatement()) {
            s.execute("CREATE TABLE only_here (id int PRIMARY KEY)");
        }
        try (Connection second = nodes.get(1).openRaw(); Statement s = second.createStatement()) {
            s.execute("CREATE TABLE only_here (id int PRIMARY KEY)"); // would fail if it were the same database
        }
    }

    @ForEachVendor
    void replUrlCarriesEncodedParameters(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "support_url");
        assertThat(db.replUrl()).isEqualTo("jdbc:repl:" + db.rawUrl().substring("jdbc:".length()));
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("repl.tables", "hr.*,orders");
        keys.put("repl.exclude", "a b&c");
        String url = db.replUrl(keys);
        assertThat(url).startsWith(db.replUrl() + "?")
                .endsWith("repl.tables=hr.*%2Corders&repl.exclude=a+b%26c");
        assertThat(TestDatabase.withQuery("jdbc:x://h/d?ssl=false", Map.of("repl.node", "n1")))
                .isEqualTo("jdbc:x://h/d?ssl=false&repl.node=n1");
    }

    @Test
    void mysqlConnectorOnMariaDbDropsMicrosecondsOfBoundTimestamps() throws Exception {
        // documents the trap that Vendor.MYSQL_DRIVER_ON_MARIADB describes; if a connector release
        // fixes it, this test says so and the flag can go
        TestDatabase db = databases.create(Vendor.MYSQL_DRIVER_ON_MARIADB, "support_frac");
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE ts (id int PRIMARY KEY, at datetime(6))");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO ts VALUES (?, ?)")) {
                ps.setInt(1, 1);
                ps.setTimestamp(2, Timestamp.valueOf("2024-01-02 03:04:05.123456"));
                ps.executeUpdate();
                ps.setInt(1, 2);
                ps.setString(2, "2024-01-02 03:04:05.123456");
                ps.executeUpdate();
            }
            try (ResultSet rs = s.executeQuery("SELECT id, at FROM ts ORDER BY id")) {
                rs.next();
                assertThat(rs.getTimestamp(2).getNanos()).as("bound as Timestamp").isZero();
                rs.next();
                assertThat(rs.getTimestamp(2).getNanos()).as("bound as String").isEqualTo(123_456_000);
            }
        }
        assertThat(Vendor.MYSQL_DRIVER_ON_MARIADB.keepsFractionalSecondsOfBoundTimestamps()).isFalse();
    }

    private static boolean exists(TestDatabase db) throws SQLException {
        String sql = switch (db.vendor().server()) {
            case POSTGRESQL -> "SELECT count(*) FROM pg_database WHERE datname = ?";
            case MARIADB -> "SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?";
            case NONE -> null;
        };
        if (sql == null) {
            // H2 in memory: after SHUTDOWN a new connection finds an empty database
            try (Connection c = db.openRaw(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'PUBLIC'")) {
                rs.next();
                boolean hasTables = rs.getInt(1) > 0;
                if (!hasTables) s.execute("SHUTDOWN"); // do not leave the probe's empty database behind
                return hasTables;
            }
        }
        try (Connection admin = DatabaseServers.openAdmin(db.vendor().server());
                PreparedStatement ps = admin.prepareStatement(sql)) {
            ps.setString(1, db.name());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }
}
