package io.jdbcrepl.it.apply;

import io.jdbcrepl.api.ErrorEntry;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SPEC 8.8, first bullet: the edge values a database can store (PostgreSQL infinities, numeric
 * NaN, 24:00:00, BC dates, JSON arrays and scalars; MariaDB zero dates and YEAR), each written
 * through the driver in a transaction of its own, then one ordinary transaction. Where the
 * destination can hold a value it arrives exactly (compared as the destination's text); where it
 * cannot, exactly that transaction is queued with a reason naming the value, and the applier goes
 * on (the ordinary transaction after it is applied).
 */
class EdgeValuesIT extends ClusterTest {

    /** An edge value: the column it goes in, its SQL literal, whether the destination can hold it. */
    record Edge(String column, String literal, boolean arrives, String expected) {
        Edge(String column, String literal, boolean arrives) {
            this(column, literal, arrives, null);
        }
    }

    static Stream<Arguments> cases() {
        List<Edge> pgToPg = List.of(
                new Edge("c_ts", "'infinity'", true), new Edge("c_ts", "'-infinity'", true),
                new Edge("c_tstz", "'infinity'", true), new Edge("c_tstz", "'-infinity'", true),
                new Edge("c_date", "'infinity'", true), new Edge("c_date", "'-infinity'", true),
                new Edge("c_num", "'NaN'", true), new Edge("c_time", "'24:00:00'", true),
                new Edge("c_date", "'0044-03-15 BC'", true), new Edge("c_ts", "'0044-03-15 12:30:00.5 BC'", true),
                new Edge("c_bool", "'yes'", true), new Edge("c_json", "'[1, \"a\", null]'", true),
                new Edge("c_json", "'\"scalar\"'", true), new Edge("c_json", "'42'", true));
        List<Edge> pgToMaria = List.of(
                new Edge("c_ts", "'infinity'", false), new Edge("c_ts", "'-infinity'", false),
                new Edge("c_date", "'infinity'", false), new Edge("c_num", "'NaN'", false),
                new Edge("c_date", "'0044-03-15 BC'", false), new Edge("c_bool", "'yes'", true, "1"),
                new Edge("c_json", "'[1, \"a\", null]'", true), new Edge("c_json", "'42'", true));
        List<Edge> mariaToMaria = List.of(
                new Edge("c_date", "'0000-00-00'", true), new Edge("c_ts", "'0000-00-00 00:00:00'", true),
                new Edge("c_year", "2155", true), new Edge("c_year", "1901", true),
                new Edge("c_time", "'838:59:59'", true),
                new Edge("c_json", "'[1, \"a\", null]'", true), new Edge("c_json", "'42'", true));
        List<Edge> mariaToPg = List.of(
                new Edge("c_date", "'0000-00-00'", false), new Edge("c_ts", "'0000-00-00 00:00:00'", false),
                new Edge("c_year", "2155", true), new Edge("c_json", "'[1, \"a\", null]'", true));
        return Stream.of(Arguments.of(List.of(Vendor.POSTGRESQL, Vendor.POSTGRESQL), pgToPg),
                Arguments.of(List.of(Vendor.MARIADB, Vendor.POSTGRESQL), mariaToPg),
                Arguments.of(List.of(Vendor.MARIADB, Vendor.MARIADB), mariaToMaria),
                Arguments.of(List.of(Vendor.POSTGRESQL, Vendor.MARIADB), pgToMaria));
    }

    private static List<String> ddl(Vendor v) {
        if (v == Vendor.POSTGRESQL) {
            return List.of("CREATE TABLE edge (id INT PRIMARY KEY, c_ts timestamp(6), c_tstz timestamptz, c_date date,"
                    + " c_num numeric, c_time time(6), c_bool boolean, c_json jsonb, c_year int, note varchar(20))");
        }
        return List.of("SET SESSION sql_mode = ''", "CREATE TABLE edge (id INT PRIMARY KEY, c_ts DATETIME(6) NULL,"
                + " c_tstz TIMESTAMP(6) NULL, c_date DATE NULL, c_num DECIMAL(30,10), c_time TIME(6), c_bool BOOLEAN,"
                + " c_json JSON, c_year YEAR, note VARCHAR(20))");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void edgeValuesArriveExactlyOrQueueTheirTransaction(List<Vendor> vendors, List<Edge> edges) throws Exception {
        cluster = new Cluster(databases.nodes("edge", vendors.toArray(Vendor[]::new)),
                Map.of("repl.apply", "false"));
        cluster.ddl(EdgeValuesIT::ddl);
        try (Connection c = cluster.open(0); Statement s = c.createStatement()) {
            if (vendors.get(0) != Vendor.POSTGRESQL) s.execute("SET SESSION sql_mode = ''"); // zero dates allowed
            for (int i = 0; i < edges.size(); i++) {
                Edge e = edges.get(i);
                s.executeUpdate("INSERT INTO edge (id, " + e.column() + ") VALUES (" + (i + 1) + ", " + e.literal() + ")");
            }
            s.executeUpdate("INSERT INTO edge (id, note) VALUES (1000, 'after')");
        }
        cluster.admin(1).startApply();
        cluster.admin(1).waitForPeers(Cluster.WAIT);

        List<String> source = texts(0, vendors.get(0), edges);
        List<String> destination = texts(1, vendors.get(1), edges);
        List<ErrorEntry> queued = cluster.admin(1).errors();
        List<Long> queuedIds = new ArrayList<>();
        for (ErrorEntry entry : queued) {
            ErrorEntry full = cluster.admin(1).error(entry.id());
            assertThat(full.lcrs()).hasSize(1);
            queuedIds.add(Long.parseLong(full.lcrs().get(0).newValues().valuesJson().replaceAll(".*\"id\":(\\d+).*", "$1")));
        }
        for (int i = 0; i < edges.size(); i++) {
            Edge e = edges.get(i);
            if (e.arrives()) {
                assertThat(destination.get(i)).as("%s = %s", e.column(), e.literal()).isEqualTo(e.expected() == null ? source.get(i) : e.expected());
                assertThat(queuedIds).as("%s = %s queued", e.column(), e.literal()).doesNotContain((long) i + 1);
            } else {
                assertThat(destination.get(i)).as("%s = %s applied", e.column(), e.literal()).isNull();
                assertThat(queuedIds).as("%s = %s queued", e.column(), e.literal()).contains((long) i + 1);
            }
        }
        assertThat(queued).hasSize((int) edges.stream().filter(e -> !e.arrives()).count())
                .allSatisfy(entry -> assertThat(entry.errorMessage()).isNotBlank());
        assertThat(cluster.count(1, "SELECT count(*) FROM edge WHERE id = 1000")).isEqualTo(1);
    }

    /**
     * An LCR that cannot be decoded (a value type this version does not know) queues its
     * transaction, kept as stored, and the next transaction is applied.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void anUndecodableLcrQueuesItsTransactionAsStored(List<Vendor> vendors) throws Exception {
        cluster = new Cluster(databases.nodes("undecodable", vendors.toArray(Vendor[]::new)), Map.of("repl.apply", "false"));
        cluster.ddl(v -> List.of("CREATE TABLE t (id INT PRIMARY KEY, note VARCHAR(20))"));
        cluster.execute(0, "INSERT INTO t VALUES (1, 'bad')");
        cluster.execute(0, "INSERT INTO t VALUES (2, 'good')");
        try (Connection c = cluster.db(0).openRaw(); Statement s = c.createStatement()) {
            s.executeUpdate(cluster.db(0).driverTables(vendors.get(0) == Vendor.POSTGRESQL
                    ? "UPDATE repl_log SET column_types = replace(column_types::text, 'STRING', 'INTERVAL')::json"
                            + " WHERE position = (SELECT min(position) FROM repl_log)"
                    : "UPDATE repl_log SET column_types = replace(column_types, 'STRING', 'INTERVAL') ORDER BY position LIMIT 1"));
        }
        cluster.admin(1).startApply();
        cluster.admin(1).waitForPeers(Cluster.WAIT);

        assertThat(cluster.rows(1, "t", "id")).containsExactly("id=2, note=good");
        List<ErrorEntry> queued = cluster.admin(1).errors();
        assertThat(queued).singleElement().satisfies(e -> {
            assertThat(e.errorMessage()).contains("cannot be read", "INTERVAL");
            assertThat(e.errorCode()).isEqualTo("42501"); // SPEC 8.7: an unknown value type is refused
        });
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error_lcr WHERE column_types LIKE '%INTERVAL%'"
                .replace("column_types", vendors.get(1) == Vendor.POSTGRESQL ? "column_types::text" : "column_types")))
                .isEqualTo(1);
    }

    /** SPEC 8.8: the driver's MariaDB tables are utf8mb4 on a latin1 database, so an emoji is logged and arrives. */
    @org.junit.jupiter.api.Test
    void driverTablesAreUtf8mb4OnALatin1Database() throws Exception {
        cluster = new Cluster(databases.nodes("latin1", Vendor.MARIADB, Vendor.MARIADB), Map.of("repl.apply", "false"));
        cluster.ddl(v -> List.of("ALTER DATABASE CHARACTER SET latin1 COLLATE latin1_swedish_ci",
                "CREATE TABLE t (id INT PRIMARY KEY, note VARCHAR(20) CHARACTER SET utf8mb4)"));
        cluster.execute(0, "INSERT INTO t VALUES (1, 'fus\u00e9e \uD83D\uDE80')");
        cluster.admin(1).startApply();
        cluster.admin(1).waitForPeers(Cluster.WAIT);
        assertThat(cluster.rows(1, "t", "id")).containsExactly("id=1, note=fus\u00e9e \uD83D\uDE80");
        for (int node = 0; node < 2; node++) {
            assertThat(cluster.count(node, "SELECT count(*) FROM information_schema.tables WHERE table_schema = DATABASE()"
                    + " AND table_name LIKE 'repl%' AND table_collation NOT LIKE 'utf8mb4%'")).isZero();
        }
    }

    /** Row i+1's edge column as the database's own text (null when the row is absent). */
    private List<String> texts(int node, Vendor v, List<Edge> edges) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = cluster.db(node).openRaw(); Statement s = c.createStatement()) {
            for (int i = 0; i < edges.size(); i++) {
                String col = edges.get(i).column();
                String text = v == Vendor.POSTGRESQL ? col + "::text" : "CAST(" + col + " AS CHAR)";
                try (ResultSet rs = s.executeQuery("SELECT " + text + ", id FROM edge WHERE id = " + (i + 1))) {
                    out.add(rs.next() ? String.valueOf(rs.getString(1)) : null);
                }
            }
        }
        return out;
    }
}
