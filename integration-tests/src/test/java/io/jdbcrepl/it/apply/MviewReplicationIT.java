package io.jdbcrepl.it.apply;

import io.jdbcrepl.it.mview.MviewSql;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.mview.MaterializedViews;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Materialized view logs on replicated tables (SPEC 6 with 4.4): each node's views stay right,
 * the changes the apply side brings from a peer reaching the node's log and its ON COMMIT view in
 * the applying transaction; neither the applied changes nor the logs' and views' rows are captured.
 */
class MviewReplicationIT extends ClusterTest {

    private static final String AGGREGATE = "select grp, count(*) as n, sum(val) as s from t group by grp";
    private static final String ROWS = "select id, val from t where val > 1";

    static Stream<Arguments> pairs() {
        return Stream.of(Arguments.of(Vendor.POSTGRESQL, Vendor.POSTGRESQL), Arguments.of(Vendor.MARIADB, Vendor.MARIADB),
                Arguments.of(Vendor.H2, Vendor.POSTGRESQL), Arguments.of(Vendor.POSTGRESQL, Vendor.MARIADB));
    }

    @ParameterizedTest(name = "{0} and {1}")
    @MethodSource("pairs")
    void viewsStayRightOnEveryNode(Vendor first, Vendor second) throws Exception {
        Cluster c = new Cluster(databases.nodes("mvrepl", first, second));
        cluster = c;
        c.ddl(v -> List.of("create table t (id int primary key, grp varchar(10), val int)"));
        for (int i = 0; i < c.size(); i++) {
            try (Connection conn = c.open(i); Statement s = conn.createStatement()) {
                s.execute("create materialized view log on t with primary key (grp, val) including new values");
                s.execute("create materialized view mv_c refresh fast on commit as " + AGGREGATE);
                s.execute("create materialized view mv_d refresh fast on demand as " + ROWS);
            }
        }
        for (int i = 0; i < c.size(); i++) {
            int base = i * 100;
            try (Connection conn = c.open(i); Statement s = conn.createStatement()) {
                conn.setAutoCommit(false);
                for (int k = 1; k <= 10; k++) s.executeUpdate("insert into t values (" + (base + k) + ", 'g" + (k % 3) + "', " + k + ")");
                conn.commit();
                s.executeUpdate("update t set val = val * 10 where id between " + (base + 1) + " and " + (base + 4));
                s.executeUpdate("update t set grp = 'moved' where id = " + (base + 5));
                s.executeUpdate("update t set id = " + (base + 50) + " where id = " + (base + 6));
                s.executeUpdate("delete from t where id = " + (base + 7));
                conn.commit();
                conn.setAutoCommit(true);
                s.executeUpdate("insert into t values (" + (base + 60) + ", null, 3)");
            }
        }
        c.waitForAll();
        List<String> expected = c.rows(0, "t", "id");
        assertThat(expected).hasSize(2 * 10);
        for (int i = 0; i < c.size(); i++) {
            assertThat(c.rows(i, "t", "id")).as("t at " + Cluster.name(i)).isEqualTo(expected);
            try (Connection conn = c.db(i).openRaw()) {
                assertThat(sorted(conn, "select * from mv_c")).as("mv_c at " + Cluster.name(i)).isEqualTo(sorted(conn, AGGREGATE));
            }
            try (Connection conn = c.open(i)) {
                assertThat(count(conn, "select count(*) from mlog$_t")).as("log at " + Cluster.name(i)).isPositive();
                conn.unwrap(MaterializedViews.class).refresh("mv_d");
                assertThat(sorted(conn, "select * from mv_d")).as("mv_d at " + Cluster.name(i)).isEqualTo(sorted(conn, ROWS));
                // both views have consumed every row
                assertThat(count(conn, "select count(*) from mlog$_t")).as("log at " + Cluster.name(i)).isZero();
            }
            assertThat(c.count(i, "select count(*) from repl_log where source_node <> '" + Cluster.name(i) + "'"))
                    .as("applied changes captured at " + Cluster.name(i)).isZero();
            assertThat(c.count(i, "select count(*) from repl_log where lower(table_name) <> 't'"))
                    .as("log or view rows captured at " + Cluster.name(i)).isZero();
            assertThat(c.count(i, "select count(*) from repl_error")).as("error queue of " + Cluster.name(i)).isZero();
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<String> sorted(Connection c, String sql) throws SQLException {
        List<String> out = MviewSql.rows(c, sql);
        out.sort(null);
        return out;
    }
}
