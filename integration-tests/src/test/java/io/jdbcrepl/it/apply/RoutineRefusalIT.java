package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.it.support.LogCapture;
import io.jdbcrepl.it.support.Vendor;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CALL and DO on a {@code repl.node} connection (issue 20): what the routine changes is out of the
 * driver's sight, so by default they are refused before they run (0AR01, saying why and how to
 * proceed); {@code repl.unsupported=passthrough} runs them uncaptured with a WARN. A JDBC
 * {@code {? = call f(?)}} that the vendor's driver sends as a SELECT is a query and runs as one.
 */
public class RoutineRefusalIT extends ClusterTest { // public: H2 calls its alias method

    /** H2's alias {@code bump}: a routine that changes a replicated table through the session's own connection. */
    public static void bump(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE item SET qty = qty + 1");
        }
    }

    private static List<String> ddl(Vendor v) {
        List<String> ddl = new ArrayList<>(List.of("CREATE TABLE item (id INT PRIMARY KEY, qty INT)",
                "INSERT INTO item VALUES (1, 1)"));
        ddl.addAll(switch (v) {
            case POSTGRESQL -> List.of(
                    "CREATE PROCEDURE bump() LANGUAGE plpgsql AS $$ BEGIN UPDATE item SET qty = qty + 1; END $$",
                    "CREATE FUNCTION add_one(i int) RETURNS int LANGUAGE sql AS 'SELECT i + 1'");
            case MARIADB -> List.of("CREATE PROCEDURE bump() UPDATE item SET qty = qty + 1",
                    "CREATE FUNCTION add_one(i INT) RETURNS INT DETERMINISTIC RETURN i + 1");
            default -> List.of("CREATE ALIAS bump FOR '" + RoutineRefusalIT.class.getName() + ".bump'");
        });
        return ddl;
    }

    /** The statements that run the routine on {@code v}: each changes item's qty by one when it runs. */
    private static List<String> routines(Vendor v) {
        return v == Vendor.POSTGRESQL
                ? List.of("CALL bump()", "DO $$ BEGIN UPDATE item SET qty = qty + 1; END $$")
                : List.of("CALL bump()", "{call bump()}");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void callAndDoAreRefusedBeforeTheyRun(Vendor vendor) throws Exception {
        cluster = new Cluster(databases.nodes(vendor, "routines", 2), Map.of("repl.apply", "false"));
        cluster.ddl(RoutineRefusalIT::ddl);
        try (Connection c = cluster.open(0)) {
            for (String sql : routines(vendor)) {
                String kind = sql.startsWith("DO") ? "DO" : "CALL";
                SQLException plain = refusal(() -> {
                    try (Statement s = c.createStatement()) {
                        s.execute(sql);
                    }
                });
                assertThat(plain.getSQLState()).as("%s: %s", sql, plain.getMessage()).isEqualTo("0AR01");
                assertThat(plain.getMessage()).as(sql).startsWith(kind + " cannot be captured")
                        .contains("out of the driver's sight", "diverge", "through the driver", "repl.unsupported=passthrough");
                SQLException callable = refusal(() -> {
                    try (CallableStatement cs = c.prepareCall(sql)) {
                        cs.execute();
                    }
                });
                assertThat(callable.getSQLState()).as("prepareCall(%s)", sql).isEqualTo("0AR01");
            }
            // refused before it reached the server: an open transaction goes on
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                refusal(() -> s.execute("CALL bump()"));
                s.executeUpdate("INSERT INTO item VALUES (2, 0)");
            }
            c.commit();
        }
        assertThat(cluster.rows(0, "item", "id")).as("nothing but the insert ran").containsExactly("id=1, qty=1", "id=2, qty=0");
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_log")).as("the insert's LCR only").isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB"})
    void aFunctionCallTheDriverSendsAsASelectIsAQuery(Vendor vendor) throws Exception {
        cluster = new Cluster(databases.nodes(vendor, "routines", 2), Map.of("repl.apply", "false"));
        cluster.ddl(RoutineRefusalIT::ddl);
        try (Connection c = cluster.open(0); CallableStatement cs = c.prepareCall("{? = call add_one(?)}")) {
            cs.registerOutParameter(1, Types.INTEGER);
            cs.setInt(2, 41);
            cs.execute();
            assertThat(cs.getInt(1)).isEqualTo(42);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void passthroughRunsThemUncapturedWithAWarning(Vendor vendor) throws Exception {
        cluster = new Cluster(databases.nodes(vendor, "routines", 2),
                Map.of("repl.apply", "false", "repl.unsupported", "passthrough"));
        cluster.ddl(RoutineRefusalIT::ddl);
        List<String> routines = routines(vendor);
        String log;
        try (LogCapture capture = LogCapture.start(); Connection c = cluster.open(0); Statement s = c.createStatement()) {
            for (String sql : routines) {
                if (!sql.startsWith("{")) s.execute(sql);
                else try (CallableStatement cs = c.prepareCall(sql)) { // MariaDB's Statement leaves the escape as it is
                    cs.execute();
                }
            }
            log = capture.text();
        }
        assertThat(log).contains("Not captured (repl.unsupported=passthrough, node n1)");
        assertThat(cluster.rows(0, "item", "id")).as("they ran").containsExactly("id=1, qty=" + (1 + routines.size()));
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_log")).as("uncaptured").isZero();
        cluster.admin(1).startApply();
        cluster.admin(1).waitForPeers(Cluster.WAIT);
        assertThat(cluster.rows(1, "item", "id")).as("the peer never gets the routine's change").containsExactly("id=1, qty=1");
    }

    @FunctionalInterface
    private interface Attempt {
        void run() throws Exception;
    }

    private static SQLException refusal(Attempt attempt) throws Exception {
        try {
            attempt.run();
        } catch (SQLException e) {
            return e;
        }
        throw new AssertionError("not refused");
    }
}
