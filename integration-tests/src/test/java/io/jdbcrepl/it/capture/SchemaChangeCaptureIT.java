package io.jdbcrepl.it.capture;

import io.jdbcrepl.it.support.ForEachVendor;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A statement that first met a missing table is captured once the table exists; table metadata
 * the node read before DDL is not used after it: a column added or dropped through
 * the driver is in (or out of) the next LCRs, on every connection of the node; and a database that
 * vanished under the same URL (in-memory H2) gets the driver's tables again.
 */
class SchemaChangeCaptureIT {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    @ForEachVendor
    void aTableCreatedAfterAFailedStatementIsCaptured(Vendor vendor) throws Exception {
        if (vendor == Vendor.MYSQL_DRIVER_ON_MARIADB) return; // the same server as MARIADB
        TestDatabase db = databases.create(vendor, "later");
        String insert = "INSERT INTO late (id, v) VALUES (1, 'a')";
        try (Connection c = db.openRepl(properties()); Statement s = c.createStatement()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.executeUpdate(insert)).isInstanceOf(SQLException.class);
            s.execute("CREATE TABLE late (id INT PRIMARY KEY, v VARCHAR(10))");
            assertThat(s.executeUpdate(insert)).isEqualTo(1);
        }
        assertThat(newValues(db)).as("LCRs of the insert into the table created later").hasSize(1);
    }

    @ForEachVendor
    void columnsAddedAndDroppedThroughTheDriverReachTheLcrs(Vendor vendor) throws Exception {
        if (vendor == Vendor.MYSQL_DRIVER_ON_MARIADB) return;
        TestDatabase db = databases.create(vendor, "ddl");
        try (Connection c = db.openRepl(properties()); Connection other = db.openRepl(properties());
                Statement s = c.createStatement(); Statement o = other.createStatement()) {
            s.execute("CREATE TABLE acc (id INT PRIMARY KEY, n INT)");
            s.executeUpdate("INSERT INTO acc (id, n) VALUES (1, 1)"); // reads the metadata: id, n
            s.execute("ALTER TABLE acc ADD COLUMN x INT");
            s.executeUpdate("INSERT INTO acc (id, n, x) VALUES (2, 2, 22)");
            o.executeUpdate("UPDATE acc SET x = 5 WHERE id = 1"); // the node's other connection
            s.execute("ALTER TABLE acc DROP COLUMN n");
            o.executeUpdate("UPDATE acc SET x = 6 WHERE id = 2");
        }
        List<String> news = newValues(db);
        assertThat(news).hasSize(4);
        assertThat(news.get(0)).doesNotContain("\"x\"").contains("\"n\"");
        assertThat(news.get(1)).contains("\"x\"").contains("22");
        assertThat(news.get(2)).contains("\"x\"").contains("5");
        assertThat(news.get(3)).contains("\"x\"").doesNotContain("\"n\"");
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement();
                ResultSet rs = s.executeQuery(db.driverTables("SELECT old_values FROM repl_log WHERE command_type <> 'DDL' ORDER BY position"))) {
            List<String> olds = new ArrayList<>();
            while (rs.next()) olds.add(String.valueOf(rs.getString(1)).toLowerCase(Locale.ROOT));
            assertThat(olds.get(3)).as("old values of the update after DROP COLUMN").doesNotContain("\"n\"");
        }
    }

    @ForEachVendor
    void aColumnTheTableLacksIsAnSqlExceptionAndNothingRuns(Vendor vendor) throws Exception {
        if (vendor == Vendor.MYSQL_DRIVER_ON_MARIADB) return;
        TestDatabase db = databases.create(vendor, "nocol");
        try (Connection c = db.openRepl(properties()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE acc (id INT PRIMARY KEY, n INT)");
            s.executeUpdate("INSERT INTO acc (id, n) VALUES (1, 1)");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.executeUpdate("UPDATE acc SET bogus = 2 WHERE id = 1"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("bogus");
        }
        assertThat(newValues(db)).hasSize(1);
    }

    @Test
    void anInMemoryH2DatabaseThatVanishedGetsTheDriversTablesAgain() throws Exception {
        String url = "jdbc:repl:h2:mem:vanish_" + UUID.randomUUID().toString().replace("-", "") + "?repl.node=n1";
        for (int round = 1; round <= 2; round++) {
            // no DB_CLOSE_DELAY: the database goes with its last connection
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE acc (id INT PRIMARY KEY, n INT)");
                s.executeUpdate("INSERT INTO acc (id, n) VALUES (1, " + round + ")");
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM repl.repl_log WHERE command_type <> 'DDL'")) {
                    rs.next();
                    assertThat(rs.getInt(1)).as("LCRs in round " + round).isEqualTo(1);
                }
            }
        }
    }

    private static List<String> newValues(TestDatabase db) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement();
                ResultSet rs = s.executeQuery(db.driverTables("SELECT new_values FROM repl_log WHERE command_type <> 'DDL' ORDER BY position"))) {
            while (rs.next()) out.add(String.valueOf(rs.getString(1)).toLowerCase(Locale.ROOT));
        }
        return out;
    }

    private static Properties properties() {
        Properties p = new Properties();
        p.setProperty("repl.node", "n1");
        return p;
    }
}
