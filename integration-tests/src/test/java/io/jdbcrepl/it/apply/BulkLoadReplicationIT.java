package io.jdbcrepl.it.apply;

import io.jdbcrepl.it.support.LogCapture;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bulk loads into a replicated table reach the peers: PostgreSQL's copy API (through {@code unwrap}) and
 * MariaDB's {@code LOAD DATA LOCAL INFILE} are captured exactly, row for row; a load the driver cannot
 * capture (LOAD DATA … REPLACE) is refused before it runs, or runs uncaptured with
 * {@code repl.unsupported=passthrough}.
 */
class BulkLoadReplicationIT extends ClusterTest {

    static final int ROWS = 300;

    private static List<String> ddl(Vendor v) {
        return List.of(v.isMariaDbServer()
                ? "CREATE TABLE item (id int PRIMARY KEY, name varchar(100) NOT NULL, qty int, note text) CHARACTER SET utf8mb4"
                : "CREATE TABLE item (id int PRIMARY KEY, name varchar(100) NOT NULL, qty int, note text)");
    }

    /** Tab-separated rows {@code first..first+n-1}: NULLs (\N), non-ASCII text, an escaped tab. */
    static String tsv(int first, int n) {
        StringBuilder sb = new StringBuilder();
        for (int id = first; id < first + n; id++) {
            sb.append(id).append('\t').append("nom ").append(id).append(" Zoë 日本語 🚀").append('\t')
                    .append(id % 4 == 0 ? "\\N" : String.valueOf(id * 7 - 1000)).append('\t')
                    .append(id % 3 == 0 ? "\\N" : "note\\twith tab " + id).append('\n');
        }
        return sb.toString();
    }

    @Test
    void copyOnPostgresqlAndLoadDataOnMariaDbReachThePeer() throws Exception {
        cluster = new Cluster(databases.nodes("bulkload", Vendor.MARIADB, Vendor.POSTGRESQL))
                .with(0, Map.of("allowLocalInfile", "true"));
        cluster.ddl(BulkLoadReplicationIT::ddl);
        Path file = Files.createTempFile("repl-load-", ".tsv");
        try {
            Files.writeString(file, tsv(1, ROWS), StandardCharsets.UTF_8);
            try (Connection c = cluster.open(0); Statement s = c.createStatement()) {
                assertThat(s.executeUpdate("LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE item CHARACTER SET utf8mb4"
                        + " (id, name, qty, note)")).as("rows loaded on MariaDB").isEqualTo(ROWS);
            }
        } finally {
            Files.delete(file);
        }
        try (Connection c = cluster.open(1)) {
            c.setAutoCommit(false);
            long copied = c.unwrap(PGConnection.class).getCopyAPI()
                    .copyIn("COPY item (id, name, qty, note) FROM STDIN", new StringReader(tsv(ROWS + 1, ROWS)));
            assertThat(copied).as("rows copied on PostgreSQL").isEqualTo(ROWS);
            c.commit();
        }
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_log"))
                .as("LCRs of the LOAD DATA").isEqualTo(ROWS);
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_log")).as("LCRs of the COPY").isEqualTo(ROWS);
        cluster.waitForAll();
        List<String> first = cluster.rows(0, "item", "id");
        assertThat(first).hasSize(2 * ROWS);
        assertThat(cluster.rows(1, "item", "id")).as("PostgreSQL (actual) vs MariaDB (expected)").isEqualTo(first);
        assertThat(first.get(2)).isEqualTo("id=3, name=nom 3 Zoë 日本語 🚀, qty=-979, note=null");
        assertThat(first.get(3)).isEqualTo("id=4, name=nom 4 Zoë 日本語 🚀, qty=null, note=note\twith tab 4");
    }

    @Test
    void loadDataThatCannotBeCapturedIsRefusedOrRunsUncapturedWithPassthrough() throws Exception {
        TestDatabase db = databases.create(Vendor.MARIADB, "bulkload_refused");
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement()) {
            for (String sql : ddl(Vendor.MARIADB)) s.execute(sql);
            s.execute("CREATE TABLE scratch (id int PRIMARY KEY, v varchar(10))");
        }
        Path file = Files.createTempFile("repl-load-", ".tsv");
        try {
            Files.writeString(file, "1\tone\t\\N\t\\N\n2\ttwo\t2\tx\n", StandardCharsets.UTF_8);
            String replace = "LOAD DATA LOCAL INFILE '" + file + "' REPLACE INTO TABLE item";
            try (Connection c = open(db, Map.of("repl.node", "n1", "repl.exclude", "scratch"));
                    Statement s = c.createStatement()) {
                assertThatThrownBy(() -> s.executeUpdate(replace)).isInstanceOf(SQLException.class)
                        .hasMessageContaining("REPLACE").hasMessageContaining("item")
                        .hasMessageContaining("repl.unsupported")
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(refusalState()));
                assertThat(s.executeUpdate("LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE scratch (id, v)"))
                        .as("a table that is not replicated loads as written").isEqualTo(2);
            }
            assertThat(count(db, "item")).as("nothing ran").isZero();
            assertThat(count(db, "n1_log")).as("no LCR").isZero();
            try (LogCapture log = LogCapture.start();
                    Connection c = open(db, Map.of("repl.node", "n1", "repl.unsupported", "passthrough"));
                    Statement s = c.createStatement()) {
                assertThat(s.executeUpdate(replace)).isEqualTo(2);
                assertThat(log.text()).contains("repl.unsupported=passthrough").contains("REPLACE");
            }
            assertThat(count(db, "item")).isEqualTo(2);
            assertThat(count(db, "n1_log")).as("uncaptured, as passthrough says").isZero();
        } finally {
            Files.delete(file);
        }
    }

    @Test
    void loadDataLocalIsPartOfTheTransactionAndSkipsDuplicateKeysAsTheServerDoes() throws Exception {
        TestDatabase db = databases.create(Vendor.MARIADB, "bulkload_tx");
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement()) {
            for (String sql : ddl(Vendor.MARIADB)) s.execute(sql);
            s.execute("INSERT INTO item VALUES (2, 'already there', 0, NULL)");
        }
        Path file = Files.createTempFile("repl-load-", ".tsv");
        try {
            Files.writeString(file, tsv(1, 5), StandardCharsets.UTF_8);
            String load = "LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE item CHARACTER SET utf8mb4";
            try (Connection c = open(db, Map.of("repl.node", "n1")); Statement s = c.createStatement()) {
                c.setAutoCommit(false);
                assertThat(s.executeUpdate(load)).as("LOCAL: the duplicate key 2 is skipped, as by the server").isEqualTo(4);
                c.rollback();
                assertThat(count(db, "item")).isEqualTo(1);
                assertThat(count(db, "n1_log")).as("rolled back with the rows").isZero();
                assertThat(s.executeUpdate(load)).isEqualTo(4);
                assertThat(s.executeUpdate("UPDATE item SET qty = 1 WHERE id = 2")).isEqualTo(1);
                c.commit();
            }
            assertThat(count(db, "item")).isEqualTo(5);
            assertThat(count(db, "n1_log")).isEqualTo(5);
            try (Connection raw = db.openRaw(); Statement s = raw.createStatement();
                    var rs = s.executeQuery("SELECT count(DISTINCT tx_id), min(command_type), max(command_type) FROM repl_log")) {
                rs.next();
                assertThat(rs.getInt(1)).as("one transaction").isEqualTo(1);
                assertThat(rs.getString(2) + "," + rs.getString(3)).isEqualTo("INSERT,UPDATE");
            }
        } finally {
            Files.delete(file);
        }
    }

    private static Connection open(TestDatabase db, Map<String, String> repl) throws SQLException {
        return DriverManager.getConnection(TestDatabase.withQuery(db.replUrl(repl), Map.of("allowLocalInfile", "true")),
                db.credentials());
    }

    /** Rows of {@code item}, or with {@code n1_log} the LCRs in the node's log. */
    private static long count(TestDatabase db, String what) throws SQLException {
        String table = what.equals("n1_log") ? "repl_log" : what;
        try (Connection c = db.openRaw(); Statement s = c.createStatement();
                var rs = s.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String refusalState() {
        return new io.jdbcrepl.capture.CaptureException("x").getSQLState();
    }
}
