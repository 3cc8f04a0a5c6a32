package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.api.PeerStatus;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.it.support.LogCapture;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC 8.8: a passing failure at the destination (a full disk, a read-only database, too many
 * connections; raised here by a trigger with the SQLState the database would give) pauses the
 * applier, which retries with backoff, queues nothing, says PAUSED and why in status, and logs the
 * outage once when it begins and once when it ends; once the cause is gone every transaction is
 * applied, in order, exactly once.
 */
class TransientFaultIT extends ClusterTest {

    static Stream<Arguments> faults() {
        return Stream.of(Arguments.of(Vendor.POSTGRESQL, "53100"), Arguments.of(Vendor.POSTGRESQL, "25006"),
                Arguments.of(Vendor.MARIADB, "53100"), Arguments.of(Vendor.MARIADB, "25006"),
                Arguments.of(Vendor.MARIADB, "53300"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("faults")
    void aPassingFailurePausesTheApplierAndQueuesNothing(Vendor vendor, String sqlState) throws Exception {
        cluster = new Cluster(databases.nodes("fault", vendor, vendor), Map.of("repl.apply", "false"));
        cluster.ddl(v -> List.of("CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)", "CREATE TABLE fault (state CHAR(5))"));
        raw(1, "INSERT INTO fault VALUES ('" + sqlState + "')");
        raw(1, vendor == Vendor.POSTGRESQL ? """
                CREATE FUNCTION fail_while_faulty() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE s char(5);
                BEGIN
                  SELECT state INTO s FROM fault;
                  IF s IS NOT NULL THEN RAISE EXCEPTION 'simulated' USING ERRCODE = s; END IF;
                  RETURN NEW;
                END $$""" : "SELECT 1");
        raw(1, vendor == Vendor.POSTGRESQL
                ? "CREATE TRIGGER faulty BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION fail_while_faulty()"
                : """
                CREATE TRIGGER faulty BEFORE INSERT ON t FOR EACH ROW BEGIN
                  DECLARE s CHAR(5);
                  SELECT state INTO s FROM fault;
                  IF s IS NOT NULL THEN SIGNAL SQLSTATE '""" + sqlState + """
                ' SET MESSAGE_TEXT = 'simulated'; END IF;
                END""");
        for (int i = 1; i <= 20; i++) cluster.execute(0, "INSERT INTO t VALUES (" + i + ", " + i + ")");

        try (LogCapture log = LogCapture.start()) {
            ReplAdmin n2 = cluster.admin(1);
            n2.startApply();
            PeerStatus paused = awaitState(n2, "PAUSED");
            assertThat(paused.lastError()).contains(sqlState);
            Thread.sleep(1500); // a few retries with backoff: none of them may queue anything
            assertThat(n2.errors()).isEmpty();
            assertThat(cluster.count(1, "SELECT count(*) FROM t")).isZero();

            raw(1, "DELETE FROM fault");
            long cleared = System.nanoTime();
            n2.waitForPeers(Cluster.WAIT);
            Duration recovery = Duration.ofNanos(System.nanoTime() - cleared);
            assertThat(recovery).as("applying again within the backoff cap plus 5 s").isLessThan(Duration.ofSeconds(35));
            System.out.println("TransientFaultIT " + vendor + " " + sqlState + ": applied again " + recovery.toMillis()
                    + " ms after the fault was cleared (cap 30 s + 5 s)");
            assertThat(n2.errors()).isEmpty();
            assertThat(cluster.rows(1, "t", "id")).isEqualTo(cluster.rows(0, "t", "id")).hasSize(20);
            assertThat(awaitState(n2, "RUNNING").lastError()).isNull();
            String text = log.text();
            assertThat(count(text, "to n2 stopped, retrying with backoff")).as(text).isEqualTo(1);
            assertThat(count(text, "to n2 again after")).as(text).isEqualTo(1);
        }
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) n++;
        return n;
    }

    private static PeerStatus awaitState(ReplAdmin admin, String state) throws Exception {
        long deadline = System.nanoTime() + Cluster.WAIT.toNanos();
        PeerStatus last = null;
        while (System.nanoTime() < deadline) {
            last = admin.status().peers().get(0);
            if (state.equals(last.state())) return last;
            Thread.sleep(50);
        }
        throw new AssertionError("never " + state + ": " + last);
    }

    private void raw(int node, String sql) throws SQLException {
        try (Connection c = cluster.db(node).openRaw(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
