package io.jdbcrepl.it.mview;

import io.jdbcrepl.it.support.ForEachVendor;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import static io.jdbcrepl.it.mview.MviewSql.columns;
import static io.jdbcrepl.it.mview.MviewSql.rows;
import static io.jdbcrepl.it.mview.MviewSql.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The session of {@code seeds/002_348c1cde9512c045.txt}, statement by statement, through a
 * pass-through {@code jdbc:repl:} connection. Deviations, as docs/materialized-views.md says: {@code t_rowid} has a
 * primary key (the driver's ROWID is the primary key: no database here has a stable row
 * identifier), {@code t_oid} is an ordinary table (there are no object types) whose {@code WITH
 * OBJECT ID} log is refused, and {@code NUMBER}/{@code VARCHAR2} are {@code INT}/{@code VARCHAR}.
 */
class SeedSessionIT {

    private static final String NOT_REFRESHED = "4000-01-01";

    @ForEachVendor
    void theSeedsSession(Vendor vendor) throws SQLException {
        try (TestDatabase db = TestDatabase.create(vendor, "mv_seed"); Connection c = db.openRepl()) {
            run(c, "create table t_rowid (id int primary key, name varchar(30), num int)");
            run(c, "create materialized view log on t_rowid with rowid, sequence (name, num) including new values");
            run(c, "create table t_pk (id int primary key, name varchar(30), num int)");
            run(c, "create materialized view log on t_pk with primary key");
            run(c, "create table t_oid (id int, name varchar(30), num int)");
            assertThatThrownBy(() -> run(c, "create materialized view log on t_oid with object id"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0AR01"))
                    .hasMessageContaining("OBJECT ID").hasMessageMatching("(?is).*t_oid.*");

            assertThat(columns(c, "mlog$_t_rowid")).containsExactly("NAME", "NUM", "M_ROW$$", "SEQUENCE$$", "SNAPTIME$$",
                    "DMLTYPE$$", "OLD_NEW$$", "CHANGE_VECTOR$$");
            assertThat(columns(c, "mlog$_t_pk")).containsExactly("ID", "SNAPTIME$$", "DMLTYPE$$", "OLD_NEW$$",
                    "CHANGE_VECTOR$$");

            // one: the key, DMLTYPE$$
            c.setAutoCommit(false);
            run(c, "insert into t_pk values (1, 'a', 5)", "update t_pk set name = 'c' where id = 1", "delete from t_pk");
            assertThat(rows(c, "select id, dmltype$$ from mlog$_t_pk")).containsExactly("1 I", "1 U", "1 D");
            c.rollback();
            assertThat(rows(c, "select id from mlog$_t_pk")).isEmpty();

            // two: SNAPTIME$$, with two fast-refresh views on the log
            c.setAutoCommit(true);
            run(c, "create materialized view mv_t_rowid refresh fast on commit as select name, count(*) from t_rowid group by name");
            run(c, "create materialized view mv_t_rowid1 refresh fast as select name, count(*) from t_rowid group by name");
            c.setAutoCommit(false);
            run(c, "insert into t_rowid values (1, 'a', 5)", "update t_rowid set name = 'c' where id = 1", "delete from t_rowid");
            List<String> before = rows(c, "select snaptime$$ from mlog$_t_rowid");
            assertThat(before).hasSize(4).allSatisfy(t -> assertThat(t).startsWith(NOT_REFRESHED));
            assertThat(rows(c, "select dmltype$$, old_new$$, name, m_row$$ from mlog$_t_rowid order by sequence$$"))
                    .containsExactly("I N a 1", "U O a 1", "U N c 1", "D O c 1");
            c.commit();
            List<String> after = rows(c, "select snaptime$$ from mlog$_t_rowid");
            assertThat(after).hasSize(4); // kept: mv_t_rowid1 has not refreshed
            assertThat(after.stream().distinct().toList()).hasSize(1); // one refresh time
            assertThat(after.get(0)).doesNotStartWith(NOT_REFRESHED);
            assertThat(rows(c, "select * from mv_t_rowid")).isEmpty();
            // the last view that needed the rows refreshes: they go
            run(c, "call dbms_mview.refresh('mv_t_rowid1')");
            c.commit();
            assertThat(rows(c, "select snaptime$$ from mlog$_t_rowid")).isEmpty();

            // three: DMLTYPE$$ and OLD_NEW$$; a key update is a delete and an insert
            run(c, "insert into t_pk values (1, 'a', 5)", "insert into t_pk values (2, 'b', 7)",
                    "insert into t_pk values (3, 'c', 9)", "update t_pk set name = 'c' where id = 1",
                    "update t_pk set id = 4 where id = 2", "delete from t_pk where id = 3");
            assertThat(rows(c, "select id, dmltype$$, old_new$$ from mlog$_t_pk"))
                    .containsExactly("1 I N", "2 I N", "3 I N", "1 U U", "2 D O", "4 I N", "3 D O");
            c.commit();
            c.setAutoCommit(true);

            run(c, "drop materialized view log on t_rowid");
            assertThat(tableExists(c, "mlog$_t_rowid")).isFalse();
            run(c, "create materialized view log on t_rowid with rowid, sequence (name, num) including new values");
            assertThat(columns(c, "mlog$_t_rowid")).containsExactly("NAME", "NUM", "M_ROW$$", "SEQUENCE$$", "SNAPTIME$$",
                    "DMLTYPE$$", "OLD_NEW$$", "CHANGE_VECTOR$$");
        }
    }

    private static boolean tableExists(Connection c, String table) {
        try {
            rows(c, "select count(*) from " + table);
            return true;
        } catch (SQLException e) {
            return false;
        }
    }
}
