package io.jdbcrepl.it.mview;

import io.jdbcrepl.it.support.DriverTables;
import io.jdbcrepl.it.support.ForEachVendor;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.mview.MaterializedViews;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import static io.jdbcrepl.it.mview.MviewSql.rows;
import static io.jdbcrepl.it.mview.MviewSql.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The DDL and calls around the seed's: errors that name what is wrong, COMPLETE and FORCE views,
 * DROP MATERIALIZED VIEW, PURGE_LOG, the ways to run them (prepared, with repl.node) and the log
 * name rule.
 */
class MviewDdlIT {

    private static void fails(Connection c, String sql, String state, String... mentions) {
        assertThatThrownBy(() -> run(c, sql)).as(sql)
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getSQLState()).isEqualTo(state);
                    for (String m : mentions) assertThat(e.getMessage().toLowerCase()).contains(m.toLowerCase());
                });
    }

    @ForEachVendor
    void badStatementsFailClearly(Vendor vendor) throws SQLException {
        try (TestDatabase db = TestDatabase.create(vendor, "mv_bad"); Connection c = db.openRepl()) {
            run(c, "create table k (id int primary key, a varchar(10), b int)", "create table h (a int, b int)");
            fails(c, "create materialized view log on nosuch", "42P01", "does not exist");
            fails(c, "create materialized view log on k with (zz)", "42703", "no column zz");
            fails(c, "create materialized view log on h with rowid (a)", "0AR01", "ROWID", "primary key");
            fails(c, "create materialized view log on h", "0AR01", "no primary key");
            fails(c, "drop materialized view log on k", "42704", "no materialized view log");
            fails(c, "create materialized view mv refresh fast as select id, a from k", "0AR01",
                    "cannot refresh fast", "no materialized view log");
            run(c, "create materialized view log on k with primary key (a)");
            fails(c, "create materialized view log on k", "42710", "already has a materialized view log");
            fails(c, "create materialized view mv refresh fast as select a, count(*) from k group by a", "0AR01",
                    "lacks INCLUDING NEW VALUES");
            fails(c, "create materialized view mv refresh fast as select a, sum(b) from k group by a", "0AR01", "lacks column b");
            fails(c, "create materialized view mv refresh fast as select a from k", "0AR01", "primary key column id");
            fails(c, "create materialized view mv refresh fast as select a from k join h on k.b = h.b", "0AR01", "one table");
            fails(c, "create materialized view mv refresh fast as select distinct id from k", "0AR01", "DISTINCT");
            fails(c, "call dbms_mview.refresh('nosuch')", "42P01", "does not exist");
            run(c, "create materialized view mv refresh complete as select a, sum(b) as s from k group by a");
            fails(c, "create materialized view mv refresh complete as select a from k", "42710", "already exists");
            fails(c, "call dbms_mview.refresh('mv', 'f')", "0AR01", "REFRESH COMPLETE");
            fails(c, "call dbms_mview.purge_log('h')", "42704", "no materialized view log");
        }
    }

    @ForEachVendor
    void completeForceDropAndPurge(Vendor vendor) throws SQLException {
        try (TestDatabase db = TestDatabase.create(vendor, "mv_ddl"); Connection c = db.openRepl()) {
            run(c, "create table k (id int primary key, a varchar(10), b int)",
                    "insert into k values (1, 'x', 1)", "insert into k values (2, 'y', 2)",
                    "create materialized view log on k with primary key (a, b) including new values");
            // FORCE: fast where it can; a COMPLETE view needs no log and keeps none alive
            run(c, "create materialized view mv_force refresh on commit as select a, count(*) as n from k group by a",
                    "create materialized view mv_sub refresh force on demand as select id from k where b in (select b from k)",
                    "create materialized view mv_full refresh complete on commit as select max(b) as m from k");
            run(c, "insert into k values (3, 'x', 7)");
            assertThat(rows(c, "select a, n from mv_force order by a")).containsExactly("x 2", "y 1");
            assertThat(rows(c, "select m from mv_full")).containsExactly("7");
            assertThat(rows(c, "select count(*) from mv_sub")).containsExactly("2");
            // the CLI's refresh, as DBMS_MVIEW.REFRESH
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            java.io.PrintStream print = new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8);
            int exit = io.jdbcrepl.cli.Main.run(new String[] {"refresh", "--url", db.replUrl(), "--user", db.user(),
                    "--password", db.password(), "mv_sub"}, print, print);
            assertThat(exit).as(out.toString(java.nio.charset.StandardCharsets.UTF_8)).isZero();
            assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8)).startsWith("Refreshed mv_sub in ");
            assertThat(rows(c, "select count(*) from mv_sub")).containsExactly("3");
            assertThat(rows(c, "select count(*) from mlog$_k")).containsExactly("0"); // mv_force is the only fast view

            // a second fast view keeps the rows until it refreshes; PURGE_LOG('DELETE') drops them, it then refreshes completely
            run(c, "create materialized view mv_rows refresh fast as select id, b from k");
            run(c, "update k set b = 10 where id = 1");
            assertThat(rows(c, "select count(*) from mlog$_k")).containsExactly("2");
            run(c, "call dbms_mview.purge_log('k')");
            assertThat(rows(c, "select count(*) from mlog$_k")).containsExactly("2"); // mv_rows still needs them
            run(c, "call dbms_mview.purge_log('k', 'DELETE')");
            assertThat(rows(c, "select count(*) from mlog$_k")).containsExactly("0");
            c.unwrap(MaterializedViews.class).refresh("mv_rows");
            assertThat(rows(c, "select id, b from mv_rows order by id")).containsExactly("1 10", "2 2", "3 7");

            // dropping the log: the views refresh completely until there is one again
            run(c, "drop materialized view log on k");
            run(c, "update k set a = 'z' where id = 2");
            assertThat(rows(c, "select a, n from mv_force order by a")).containsExactly("x 2", "z 1");
            run(c, "create materialized view log on k with primary key (a, b) including new values");
            run(c, "delete from k where id = 3");
            assertThat(rows(c, "select a, n from mv_force order by a")).containsExactly("x 1", "z 1");

            run(c, "drop materialized view mv_rows");
            assertThatThrownBy(() -> run(c, "select * from mv_rows")).isInstanceOf(SQLException.class);
            run(c, "update k set b = 5");
            assertThat(rows(c, "select count(*) from mlog$_k")).containsExactly("0"); // nobody else needs the rows
            assertThat(rows(c, "select m from mv_full")).containsExactly("5");
        }
    }

    @ForEachVendor
    void preparedStatementsAndCaptureConnections(Vendor vendor) throws SQLException {
        try (TestDatabase db = TestDatabase.create(vendor, "mv_node");
                Connection c = db.openRepl(Map.of("repl.node", "n1"))) {
            run(c, "create table long_table_name_for_the_rule (id int primary key, a int)",
                    "create table long_table_name_for_the_rule_2 (id int primary key, a int)");
            try (PreparedStatement ps = c.prepareStatement("create materialized view log on long_table_name_for_the_rule"
                    + " with primary key (a) including new values")) {
                assertThat(ps.executeUpdate()).isZero();
            }
            run(c, "create materialized view log on long_table_name_for_the_rule_2");
            // the first 20 characters, a number on a clash
            assertThat(rows(c, "select count(*) from mlog$_long_table_name_for_")).containsExactly("0");
            assertThat(rows(c, "select count(*) from mlog$_long_table_name_for_1")).containsExactly("0");
            try (Statement s = c.createStatement()) {
                assertThat(s.execute("create materialized view mv refresh fast on commit as"
                        + " select a, count(*) as n, sum(id) as s from long_table_name_for_the_rule group by a")).isFalse();
                assertThat(s.getUpdateCount()).isZero();
            }
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("insert into long_table_name_for_the_rule values (?, ?)")) {
                for (int i = 1; i <= 5; i++) {
                    ps.setInt(1, i);
                    ps.setInt(2, i % 2);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
            assertThat(rows(c, "select a, n, s from mv order by a")).containsExactly("0 2 6", "1 3 9");
            // captured for replication as usual, the log's and view's rows not
            assertThat(rows(c, DriverTables.qualify(c, "select count(*) from repl_log where command_type <> 'DDL'"))).containsExactly("5");
            assertThatThrownBy(() -> c.prepareStatement("call dbms_mview.refresh(?)")) // the name must be a literal
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42601"))
                    .hasMessageContaining("string literal");
            c.rollback();
            c.setAutoCommit(true);
        }
    }
}
