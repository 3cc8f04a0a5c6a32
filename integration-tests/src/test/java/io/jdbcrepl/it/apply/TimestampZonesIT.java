package io.jdbcrepl.it.apply;

import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A MariaDB {@code TIMESTAMP} holds an instant, shown in the session's {@code time_zone}: written
 * on MariaDB (through either connector) from sessions at +05:00 and -08:00, it must arrive as the
 * same instant on PostgreSQL ({@code timestamptz}) and on a second MariaDB node whose sessions
 * (its applier's included) are at -03:00; written on PostgreSQL, it must arrive on both MariaDB
 * nodes as that instant. MariaDB values are read with {@code UNIX_TIMESTAMP(col)}, which does not
 * depend on any zone.
 */
class TimestampZonesIT extends ClusterTest {

    static Stream<Vendor> connectors() {
        return Stream.of(Vendor.MARIADB, Vendor.MYSQL_DRIVER_ON_MARIADB);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("connectors")
    void timestampArrivesAsTheSameInstant(Vendor mariaDb) throws Exception {
        cluster = new Cluster(databases.nodes("tzinst", Vendor.POSTGRESQL, mariaDb, Vendor.MARIADB))
                .withRawOption(2, "sessionVariables=time_zone='-03:00'");
        cluster.ddl(v -> List.of("CREATE TABLE instants (id INT PRIMARY KEY, at "
                + (v == Vendor.POSTGRESQL ? "timestamptz(6)" : "TIMESTAMP(6) NULL") + ", note VARCHAR(40))"));
        try (Connection c = cluster.open(2); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT @@session.time_zone")) {
            rs.next();
            assertThat(rs.getString(1)).as("n3's sessions' zone").isEqualTo("-03:00");
        }
        Map<Integer, Instant> expected = new TreeMap<>();
        try (Connection c = cluster.open(1); Statement s = c.createStatement()) {
            s.execute("SET time_zone = '+05:00'");
            s.executeUpdate("INSERT INTO instants VALUES (1, '2024-01-01 12:00:00.123456', 'literal at +05:00')");
            expected.put(1, Instant.parse("2024-01-01T07:00:00.123456Z"));
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO instants VALUES (?, ?, 'bound at +05:00')")) {
                ps.setInt(1, 2);
                ps.setString(2, "2024-07-01 00:30:00.000001");
                ps.executeUpdate();
                expected.put(2, Instant.parse("2024-06-30T19:30:00.000001Z"));
            }
        }
        try (Connection c = cluster.open(1); Statement s = c.createStatement()) {
            s.execute("SET time_zone = '-08:00'");
            s.executeUpdate("INSERT INTO instants VALUES (3, '2024-01-01 12:00:00.654321', 'literal at -08:00')");
            expected.put(3, Instant.parse("2024-01-01T20:00:00.654321Z"));
            // an update: its old value is compared on apply with the row each node holds
            s.executeUpdate("UPDATE instants SET at = '2024-02-29 23:59:59.999999' WHERE id = 1");
            expected.put(1, Instant.parse("2024-03-01T07:59:59.999999Z"));
        }
        try (Connection c = cluster.open(0); PreparedStatement ps = c.prepareStatement("INSERT INTO instants VALUES (?, ?, 'PostgreSQL')")) {
            ps.setInt(1, 4);
            ps.setObject(2, OffsetDateTime.parse("2024-03-10T01:02:03.456789+02:00"));
            ps.executeUpdate();
            expected.put(4, Instant.parse("2024-03-09T23:02:03.456789Z"));
        }
        cluster.waitForAll();
        try (Connection c = cluster.open(0); PreparedStatement ps = c.prepareStatement("UPDATE instants SET at = ? WHERE id = 3")) {
            ps.setObject(1, OffsetDateTime.parse("1999-12-31T23:59:59.5-05:00"));
            ps.executeUpdate();
            expected.put(3, Instant.parse("2000-01-01T04:59:59.500Z"));
        }
        cluster.waitForAll();

        for (int node = 0; node < 3; node++) {
            assertThat(cluster.admin(node).errors()).as("error queue of %s", Cluster.name(node)).isEmpty();
            assertThat(instants(cluster.db(node))).as("instants held by %s (%s)", Cluster.name(node), cluster.db(node).vendor())
                    .isEqualTo(expected);
        }
    }

    /** Each row's instant, read without depending on a zone (MariaDB: UNIX_TIMESTAMP, with MariaDB's own connector). */
    private static Map<Integer, Instant> instants(TestDatabase db) throws SQLException {
        Map<Integer, Instant> out = new TreeMap<>();
        String url = db.rawUrl().replaceFirst("^jdbc:mysql:", "jdbc:mariadb:");
        boolean mariaDb = db.vendor().isMariaDbServer();
        try (Connection c = DriverManager.getConnection(url, db.credentials()); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, " + (mariaDb ? "UNIX_TIMESTAMP(at)" : "at") + " FROM instants ORDER BY id")) {
            while (rs.next()) {
                if (mariaDb) {
                    BigDecimal seconds = rs.getBigDecimal(2);
                    out.put(rs.getInt(1), Instant.ofEpochSecond(seconds.longValue(),
                            seconds.remainder(BigDecimal.ONE).movePointRight(9).longValueExact()));
                } else {
                    out.put(rs.getInt(1), rs.getObject(2, OffsetDateTime.class).toInstant());
                }
            }
        }
        return out;
    }
}
