package io.jdbcrepl.it;

import io.jdbcrepl.it.support.ForEachVendor;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SPEC 2: repl.* keys may come from the URL, the connect Properties or a repl.config file, and
 * all of them are removed before the vendor's driver sees the URL and properties; the vendor's
 * own parameters in the same URL reach it untouched. Seen through DatabaseMetaData.getURL, which
 * the proxy forwards: every driver reports the URL it was given, and MariaDB Connector/J adds the
 * Properties it did not recognise, so a repl.* key left in the Properties shows there too.
 */
class ReplKeysNeverReachTheVendorDriverIT {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    @ForEachVendor
    void keysInUrlPropertiesAndFileAreStripped(Vendor vendor, @TempDir Path dir) throws Exception {
        TestDatabase db = databases.create(vendor, "strip");
        Path file = dir.resolve("repl.properties");
        Files.writeString(file, "repl.supplemental=ALL\nrepl.fk.retry=10s\n");

        Map<String, String> inUrl = new LinkedHashMap<>();
        if (vendor != Vendor.H2) { // H2 takes its settings as ;KEY=value, never after '?'
            inUrl.put(vendorParameter(vendor), "5000");
        }
        inUrl.put("repl.tables", "*.*");
        inUrl.put("repl.config", "file:" + file);
        inUrl.put("repl.exclude", "audit_*");
        String url = db.replUrl(inUrl);
        Properties properties = db.credentials();
        properties.setProperty("repl.unsupported", "passthrough");
        properties.setProperty("repl.apply.batch", "100");

        try (Connection c = java.sql.DriverManager.getConnection(url, properties);
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
            assertThat(rs.next()).isTrue();
            String seenByVendor = c.getMetaData().getURL();
            assertThat(seenByVendor).as("the URL the vendor driver was given").doesNotContain("repl.")
                    .doesNotContain("jdbc:repl:");
            if (vendor != Vendor.H2) {
                assertThat(seenByVendor).as("the vendor's own parameter kept").contains(vendorParameter(vendor));
            }
        }
        assertThat(db.awaitServerConnectionsAtMost(0)).isZero();
    }

    /** A harmless parameter of the vendor's own driver, written in the URL next to the repl.* keys. */
    private static String vendorParameter(Vendor vendor) {
        return vendor == Vendor.POSTGRESQL ? "loginTimeout" : "connectTimeout";
    }
}
