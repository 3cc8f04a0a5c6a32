package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdbcrepl.api.ErrorEntry;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.config.LogSignature;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC 8.7, {@code repl.log.key}: with the key on both nodes every captured LCR carries an
 * HMAC-SHA-256 (computed in SQL on PostgreSQL, in Java on MariaDB: both equal to
 * {@link LogSignature}'s) and replication works both ways; LCRs written into n1's repl_log by hand
 * (unsigned, replayed into another transaction with their signature, altered under their signature,
 * with a made-up signature) are queued at n2 with 42501, stay queued on retry, and the legitimate
 * transaction committed after them is applied.
 */
class SignedLogIT extends ClusterTest {

    private static final String KEY = "correct horse battery staple ✓";
    private static final String LOG_COLUMNS = "source_node, command_type, schema_name, table_name, old_values,"
            + " new_values, column_types, change_vector, signature";

    private static List<String> ddl(Vendor v) {
        return List.of("CREATE TABLE employees (employee_id INT PRIMARY KEY, salary DECIMAL(10,2), name VARCHAR(200),"
                + " notes " + (v.isMariaDbServer() ? "MEDIUMTEXT" : "TEXT") + ")");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void signedLcrsReplicateBothWays(List<Vendor> vendors) throws Exception {
        cluster = new Cluster(databases.nodes("signed", vendors.toArray(Vendor[]::new)), Map.of("repl.log.key", KEY));
        cluster.ddl(SignedLogIT::ddl);
        String big = "é✓".repeat(40_000); // > 64 KB
        try (Connection c = cluster.open(0)) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO employees VALUES (1, 100, 'Ana', NULL), (2, 200, 'Zoë 🎉', ''),"
                        + " (3, 300, NULL, NULL)");
                s.executeUpdate("UPDATE employees SET salary = salary + 1 WHERE employee_id IN (1, 2)");
                s.executeUpdate("DELETE FROM employees WHERE employee_id = 3");
                s.executeUpdate(vendors.get(0).isMariaDbServer()
                        ? "INSERT INTO employees (employee_id, salary) VALUES (1, 150), (4, 400) ON DUPLICATE KEY UPDATE salary = VALUES(salary)"
                        : "INSERT INTO employees (employee_id, salary) VALUES (1, 150), (4, 400) ON CONFLICT (employee_id) DO UPDATE SET salary = EXCLUDED.salary");
            }
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("UPDATE employees SET notes = ? WHERE employee_id = ?")) {
                ps.setString(1, big);
                ps.setInt(2, 4);
                ps.executeUpdate();
            }
            c.commit();
        }
        cluster.execute(1, "INSERT INTO employees VALUES (5, 500, 'from n2', NULL)");
        cluster.waitForAll();

        for (int node = 0; node < 2; node++) {
            assertThat(cluster.admin(node).errors()).as("n" + (node + 1) + "'s error queue").isEmpty();
            assertThat(cluster.count(node, "SELECT count(*) FROM repl_log WHERE signature IS NULL")).isZero();
        }
        assertThat(cluster.rows(1, "employees", "employee_id")).isEqualTo(cluster.rows(0, "employees", "employee_id"))
                .hasSize(4);
        // the stored signatures (PostgreSQL: computed by SQL) are LogSignature's over the stored columns
        LogSignature signature = LogSignature.of(KEY);
        for (int node = 0; node < 2; node++) {
            int checked = 0;
            String tx = cluster.db(node).vendor().isMariaDbServer() ? "tx_id" : "tx_id::text";
            try (Connection c = cluster.db(node).openRaw(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT position, " + tx + ", source_node, command_type, schema_name,"
                            + " table_name, old_values, new_values, column_types, change_vector, signature FROM "
                            + cluster.db(node).driverTable("repl_log"))) {
                while (rs.next()) {
                    assertThat(rs.getBytes(11)).as("signature of position " + rs.getLong(1)).isEqualTo(signature.sign(
                            rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                            rs.getString(6), rs.getString(9), rs.getString(10), rs.getString(7), rs.getString(8)));
                    checked++;
                }
            }
            assertThat(checked).as("LCRs at n" + (node + 1)).isGreaterThanOrEqualTo(node == 0 ? 8 : 1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void forgedLcrsAreQueuedNotApplied(List<Vendor> vendors) throws Exception {
        cluster = new Cluster(databases.nodes("forged", vendors.toArray(Vendor[]::new)),
                Map.of("repl.log.key", KEY, "repl.apply", "false"));
        cluster.ddl(SignedLogIT::ddl);
        for (int id = 11; id <= 14; id++) cluster.execute(0, "INSERT INTO employees VALUES (" + id + ", 100, 'x', NULL)");
        ForgedLog forger = new ForgedLog(cluster.db(0), LOG_COLUMNS);
        List<String> templates = forger.txIds();
        assertThat(templates).hasSize(4);
        Vendor source = vendors.get(0);
        boolean pg = !source.isMariaDbServer();

        forger.forge(templates.get(0), "signature", "NULL");                     // unsigned
        forger.forge(templates.get(1), "signature", "signature");                // replayed into another transaction
        forger.forge(templates.get(2), "new_values", pg                          // altered under its signature
                ? "REPLACE(new_values::text, '100', '999')::json" : "REPLACE(new_values, '100', '999')");
        forger.forge(templates.get(3), "signature", pg ? "sha256('made up'::bytea)" : "UNHEX(SHA2('made up', 256))");
        cluster.execute(0, "INSERT INTO employees VALUES (99, 1, 'legit', NULL)"); // legitimate, after all of them

        ReplAdmin n2 = cluster.admin(1);
        n2.startApply();
        n2.waitForPeers(Cluster.WAIT);

        assertThat(cluster.rows(1, "employees", "employee_id")).containsExactly(
                "employee_id=99, salary=1, name=legit, notes=null");
        List<ErrorEntry> queued = n2.errors();
        assertThat(queued).hasSize(4).allSatisfy(e -> {
            assertThat(e.sourceDatabase()).isEqualTo("n1");
            assertThat(e.errorCode()).isEqualTo("42501");
            assertThat(e.errorMessage()).contains("of transaction " + e.sourceTransactionId(), "employees");
        });
        assertThat(queued).extracting(ErrorEntry::errorMessage).satisfiesExactly( // in source position order
                m -> assertThat(m).contains("unsigned LCR"),
                m -> assertThat(m).contains("LCR signature does not match"),
                m -> assertThat(m).contains("LCR signature does not match"),
                m -> assertThat(m).contains("LCR signature does not match"));

        // a retry does not make a forged entry applicable
        for (ErrorEntry e : queued) {
            assertThatThrownBy(() -> n2.retryError(e.id())).isInstanceOf(SQLException.class)
                    .satisfies(x -> assertThat(((SQLException) x).getSQLState()).isEqualTo("42501"))
                    .hasMessageContaining("employees");
        }
        assertThat(n2.errors()).hasSize(4);
        assertThat(cluster.count(1, "SELECT count(*) FROM employees")).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void aShortKeyIsRefusedWithoutShowingIt(List<Vendor> vendors) throws Exception {
        cluster = new Cluster(databases.nodes("shortkey", vendors.toArray(Vendor[]::new)),
                Map.of("repl.log.key", "tooshort", "repl.apply", "false"));
        assertThatThrownBy(() -> cluster.open(0).close()).isInstanceOf(SQLException.class)
                .satisfies(x -> assertThat(((SQLException) x).getSQLState()).isEqualTo("22023"))
                .hasMessageContaining("repl.log.key").hasMessageNotContaining("tooshort");
    }

    @org.junit.jupiter.api.Test
    void aConnectionThatLostTheKeyRefusesToCaptureRatherThanWriteUnsigned() throws Exception {
        cluster = new Cluster(databases.nodes("resetkey", Vendor.POSTGRESQL, Vendor.POSTGRESQL),
                Map.of("repl.log.key", KEY, "repl.apply", "false"));
        cluster.ddl(SignedLogIT::ddl);
        try (Connection c = cluster.open(0); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO employees VALUES (1, 100, 'before', NULL)");
            s.execute("RESET ALL"); // as a pool's reset query might
            assertThatThrownBy(() -> s.executeUpdate("INSERT INTO employees VALUES (2, 200, 'after', NULL)"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("repl.log.key is no longer set");
        }
        assertThat(cluster.count(0, "SELECT count(*) FROM employees")).isEqualTo(1);
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_log")).isEqualTo(1);
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_log WHERE signature IS NULL")).isZero();
    }
}
