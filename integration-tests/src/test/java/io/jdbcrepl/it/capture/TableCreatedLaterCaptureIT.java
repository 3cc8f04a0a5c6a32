package io.jdbcrepl.it.capture;

import io.jdbcrepl.it.support.ForEachVendor;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A statement that first met a missing table is captured once the table exists. */
class TableCreatedLaterCaptureIT {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    @ForEachVendor
    void aTableCreatedAfterAFailedStatementIsCaptured(Vendor vendor) throws Exception {
        if (vendor == Vendor.MYSQL_DRIVER_ON_MARIADB) return; // the same server as MARIADB
        TestDatabase db = databases.create(vendor, "later");
        String insert = "INSERT INTO late (id, v) VALUES (1, 'a')";
        try (Connection c = db.openRepl(properties()); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeUpdate(insert)).isInstanceOf(SQLException.class);
            s.execute("CREATE TABLE late (id INT PRIMARY KEY, v VARCHAR(10))");
            assertThat(s.executeUpdate(insert)).isEqualTo(1);
        }
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM repl_log")) {
            rs.next();
            assertThat(rs.getInt(1)).as("LCRs of the insert into the table created later").isEqualTo(1);
        }
    }

    private static java.util.Properties properties() {
        java.util.Properties p = new java.util.Properties();
        Map.of("repl.node", "n1").forEach(p::setProperty);
        return p;
    }
}
