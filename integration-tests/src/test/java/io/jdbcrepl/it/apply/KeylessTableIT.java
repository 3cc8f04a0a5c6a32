package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.it.support.ForEachVendor;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.verify.TableVerifier;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * SPEC 3.3: a replicated table with neither primary nor substitute key (a JPA element collection,
 * TPC-C's HISTORY) is keyed by every comparable column. Identical rows are changed one at a time
 * on every node (an LCR that matches several changes one), a change of a row missing here is a
 * delete conflict, verify compares such tables as multisets, {@code status} lists them, and a
 * table with no comparable column is refused naming it.
 */
class KeylessTableIT extends ClusterTest {

    private static final String HISTORY = "CREATE TABLE history (h_id INT, amount DECIMAL(6,2), note VARCHAR(20))";
    private static final String ORDER = "h_id, amount, note";

    /** {@code change} of one of the rows matching {@code where}: PostgreSQL by ctid, the others with LIMIT 1. */
    private static String oneOf(Vendor v, String change, String where) {
        return v == Vendor.POSTGRESQL ? change + " WHERE ctid = (SELECT ctid FROM history WHERE " + where + " LIMIT 1)"
                : change + " WHERE " + where + " LIMIT 1";
    }

    @ForEachVendor
    void identicalRowsAreChangedOneAtATimeOnEveryNode(Vendor vendor) throws Exception {
        List<TestDatabase> dbs = databases.nodes(vendor, "keyless", 2);
        cluster = new Cluster(dbs);
        cluster.ddl(v -> List.of(HISTORY, "CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(20))",
                "INSERT INTO history VALUES (1, 10.00, NULL), (1, 10.00, NULL), (2, 5.00, 'x'), (2, 5.00, 'x')"));

        cluster.execute(0, oneOf(vendor, "UPDATE history SET amount = 11", "h_id = 1"));
        cluster.execute(0, oneOf(vendor, "DELETE FROM history", "h_id = 2"));
        cluster.execute(0, "INSERT INTO history VALUES (3, 1.00, NULL), (3, 1.00, NULL)");
        cluster.execute(0, "UPDATE history SET note = 'both' WHERE h_id = 3"); // two LCRs with the same old values
        cluster.execute(0, "UPDATE history SET note = 'null matched' WHERE h_id = 1 AND amount = 11");
        cluster.waitForAll();

        List<String> expected = List.of("h_id=1, amount=10, note=null", "h_id=1, amount=11, note=null matched",
                "h_id=2, amount=5, note=x", "h_id=3, amount=1, note=both", "h_id=3, amount=1, note=both");
        assertThat(cluster.rows(0, "history", ORDER)).as("node n1").isEqualTo(expected);
        assertThat(cluster.rows(1, "history", ORDER)).as("node n2: each LCR changed one of the identical rows")
                .isEqualTo(expected);
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error")).as("error queue of n2").isZero();

        List<String> keyless = cluster.admin(0).status().keylessTables();
        assertThat(keyless).as("status lists the tables without key").hasSize(1);
        assertThat(keyless.get(0)).endsWithIgnoringCase(".history");
    }

    @ForEachVendor
    void rowsEqualInTheKeyThatGetDifferentNewValuesAreRefusedOnMariaDbAndH2(Vendor vendor) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(vendor != Vendor.POSTGRESQL, "PostgreSQL tells rows apart by ctid");
        List<TestDatabase> dbs = databases.nodes(vendor, "keyless_lob_update", 2);
        String lob = vendor == Vendor.H2 ? "CLOB" : "LONGTEXT";
        cluster = new Cluster(dbs, Map.of("repl.apply", "false"));
        cluster.ddl(v -> List.of("CREATE TABLE notes (n INT, doc " + lob + ")", "INSERT INTO notes VALUES (1, 'a'), (1, 'b')"));
        try (Connection c = cluster.open(0); Statement s = c.createStatement()) {
            SQLException e = catchThrowableOfType(() -> s.executeUpdate("UPDATE notes SET doc = CONCAT(doc, 'x') WHERE n = 1"),
                    SQLException.class);
            assertThat((Object) e).as("rows equal in their key (n) got different docs").isNotNull();
            assertThat(e.getSQLState()).isEqualTo("0AR01");
            assertThat(e.getMessage()).containsIgnoringCase("notes").contains("repl.key");
            // the same statement where the new values agree is captured
            assertThat(s.executeUpdate("UPDATE notes SET doc = 'same' WHERE n = 1")).isEqualTo(2);
        }
        assertThat(cluster.rows(0, "notes", "n")).containsExactly("n=1, doc=same", "n=1, doc=same");
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_log")).as("two LCRs: the refused statement logged none")
                .isEqualTo(2);
    }

    @ForEachVendor
    void aChangeOfARowMissingHereIsADeleteConflict(Vendor vendor) throws Exception {
        List<TestDatabase> dbs = databases.nodes(vendor, "keyless_conflict", 2);
        cluster = new Cluster(dbs, Map.of("repl.apply", "false"));
        cluster.ddl(v -> List.of(HISTORY, "INSERT INTO history VALUES (1, 10.00, NULL), (2, 5.00, 'x')"));
        try (Connection c = dbs.get(1).openRaw(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE history SET amount = 6 WHERE h_id = 2"); // not captured: n2 differs
        }
        cluster.execute(0, "UPDATE history SET note = 'y' WHERE h_id = 2");
        cluster.execute(0, "DELETE FROM history WHERE h_id = 1");
        cluster.admin(0).startApply();
        cluster.admin(1).startApply();
        cluster.waitForAll();

        assertThat(cluster.count(1, "SELECT count(*) FROM repl_conflict WHERE operation = 'UPDATE'"
                + " AND conflict_type = 'ROW_MISSING' AND conflict_kind = 'DELETE'")).as("the conflict on n2").isEqualTo(1);
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error WHERE error_code = 'ROW_MISSING'"))
                .as("the transaction queued on n2").isEqualTo(1);
        assertThat(cluster.rows(1, "history", ORDER)).as("n2: the delete of the other row applied")
                .containsExactly("h_id=2, amount=6, note=x");
    }

    private static Dialect dialect(Vendor v) {
        return switch (v.server()) {
            case POSTGRESQL -> Dialect.named("postgresql");
            case MARIADB -> Dialect.named("mariadb");
            case NONE -> Dialect.named("h2");
        };
    }

    @ForEachVendor
    void verifyComparesIdenticalRowsAsMultisets(Vendor vendor) throws Exception {
        List<TestDatabase> dbs = databases.nodes(vendor, "keyless_verify", 2);
        List<Connection> connections = new ArrayList<>();
        try {
            List<TableVerifier.Side> sides = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Connection c = dbs.get(i).openRaw();
                connections.add(c);
                try (Statement s = c.createStatement()) {
                    s.execute(HISTORY);
                    s.execute("INSERT INTO history VALUES (1, 10.00, NULL), (1, 10.00, NULL), (2, 5.00, 'x'), (0, 1.00, NULL)");
                }
                sides.add(new TableVerifier.Side("n" + (i + 1), c, dialect(vendor)));
            }
            TableVerifier.Report same = new TableVerifier(10).compare(sides, "history");
            assertThat(same.keyless()).isTrue();
            assertThat(same.agree()).as("identical multisets: %s", same.differences()).isTrue();
            assertThat(same.nodes()).allSatisfy(n -> assertThat(n.rows()).isEqualTo(4));

            try (Statement s = connections.get(1).createStatement()) {
                s.executeUpdate(oneOf(vendor, "DELETE FROM history", "h_id = 1"));
                s.executeUpdate("UPDATE history SET note = 'y' WHERE h_id = 2");
            }
            TableVerifier.Report differ = new TableVerifier(10).compare(sides, "history");
            assertThat(differ.agree()).isFalse();
            assertThat(differ.differences()).extracting(d -> d.key().get(0), TableVerifier.Difference::kind,
                    TableVerifier.Difference::nodes).containsExactly(
                            org.assertj.core.groups.Tuple.tuple("1", TableVerifier.Kind.COUNT, List.of("n2")),
                            org.assertj.core.groups.Tuple.tuple("2", TableVerifier.Kind.MISSING, List.of("n2")),
                            org.assertj.core.groups.Tuple.tuple("2", TableVerifier.Kind.MISSING, List.of("n1")));
        } finally {
            for (Connection c : connections) c.close();
        }
    }

    @ForEachVendor
    void aTableWithNoComparableColumnIsRefusedNamingIt(Vendor vendor) throws Exception {
        List<TestDatabase> dbs = databases.nodes(vendor, "keyless_lob", 2);
        String lob = switch (vendor.server()) {
            case POSTGRESQL -> "json";
            case MARIADB -> "LONGTEXT";
            case NONE -> "CLOB";
        };
        cluster = new Cluster(dbs);
        cluster.ddl(v -> List.of("CREATE TABLE docs (body " + lob + ")"));
        try (Connection c = cluster.open(0); Statement s = c.createStatement()) {
            SQLException e = catchThrowableOfType(() -> s.executeUpdate("INSERT INTO docs VALUES ('{}')"), SQLException.class);
            assertThat((Object) e).as("INSERT into a table with only a %s column", lob).isNotNull();
            assertThat(e.getSQLState()).isEqualTo("0AR01");
            assertThat(e.getMessage()).containsIgnoringCase("docs").contains("repl.key");
        }
        assertThat(cluster.count(0, "SELECT count(*) FROM docs")).as("nothing ran").isZero();
    }
}
