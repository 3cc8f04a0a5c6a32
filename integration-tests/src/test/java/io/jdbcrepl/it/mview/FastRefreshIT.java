package io.jdbcrepl.it.mview;

import io.jdbcrepl.it.support.ForEachVendor;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.mview.MaterializedViews;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static io.jdbcrepl.it.mview.MviewSql.rows;
import static io.jdbcrepl.it.mview.MviewSql.run;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fast refresh gives what the view's query gives: random INSERT, UPDATE (also of the key) and
 * DELETE on the master, in transactions that commit or roll back and in auto-commit mode; the ON
 * COMMIT views are compared with their queries after every round, the ON DEMAND ones after each
 * refresh. A rollback leaves neither log rows nor view changes.
 */
class FastRefreshIT {

    private static final Map<String, String> VIEWS = Map.of(
            "mv_agg_c", "select grp, count(*) as n, count(val) as nv, sum(val) as s, avg(val) as a from m where id > 2 group by grp",
            "mv_agg_d", "select grp, count(*) as n, sum(val) as s from m group by grp having count(*) > 1",
            "mv_proj_c", "select id, grp, val from m where val < 50",
            "mv_proj_d", "select id, val * 2 as v2, note from m",
            "mv_all_c", "select count(*) as n, sum(val) as s, max(val) as mx from m");

    @ForEachVendor
    void fastRefreshEqualsTheQuery(Vendor vendor) throws SQLException {
        try (TestDatabase db = TestDatabase.create(vendor, "mv_fast"); Connection c = db.openRepl()) {
            run(c, "create table m (id int primary key, grp varchar(10), val int, note varchar(20))",
                    "create materialized view log on m with rowid, primary key (grp, val, note) including new values");
            for (int i = 1; i <= 20; i++) run(c, "insert into m values (" + i + ", 'g" + (i % 4) + "', " + i * 3 + ", 'n" + i + "')");
            for (Map.Entry<String, String> v : VIEWS.entrySet()) {
                String when = v.getKey().endsWith("_c") ? "on commit" : "on demand";
                run(c, "create materialized view " + v.getKey() + " refresh fast " + when + " as " + v.getValue());
            }
            assertAllMatch(c, true);

            Random random = new Random(7);
            Workload w = new Workload(random);
            w.ids.addAll(java.util.stream.IntStream.rangeClosed(1, 20).boxed().toList());
            for (int round = 0; round < 60; round++) {
                boolean auto = random.nextInt(4) == 0;
                c.setAutoCommit(auto);
                TreeSet<Integer> before = new TreeSet<>(w.ids);
                int statements = 1 + random.nextInt(6);
                for (int s = 0; s < statements; s++) run(c, w.next());
                if (!auto) {
                    if (random.nextInt(5) == 0) {
                        List<String> logBefore = rows(c, "select count(*) from mlog$_m");
                        c.rollback();
                        w.ids.clear();
                        w.ids.addAll(before);
                        assertThat(rows(c, "select count(*) from mlog$_m")).isNotEqualTo(logBefore);
                    } else {
                        c.commit();
                    }
                }
                c.setAutoCommit(true);
                assertAllMatch(c, round % 5 == 4);
            }
            assertThat(rows(c, "select count(*) from m")).containsExactly(String.valueOf(w.ids.size()));
        }
    }

    @ForEachVendor
    void rollbackLeavesNoLogRowsAndNoViewChanges(Vendor vendor) throws SQLException {
        try (TestDatabase db = TestDatabase.create(vendor, "mv_rollback"); Connection c = db.openRepl()) {
            run(c, "create table m (id int primary key, grp varchar(10), val int, note varchar(20))",
                    "create materialized view log on m with rowid, primary key (grp, val, note) including new values",
                    "insert into m values (1, 'a', 1, 'x')");
            run(c, "create materialized view mv_c refresh fast on commit as " + VIEWS.get("mv_agg_c").replace("id > 2", "id > 0"),
                    "create materialized view mv_d refresh fast on demand as " + VIEWS.get("mv_proj_d"));
            List<String> log = rows(c, "select * from mlog$_m");
            List<String> viewC = rows(c, "select * from mv_c");
            List<String> viewD = rows(c, "select * from mv_d");
            c.setAutoCommit(false);
            run(c, "insert into m values (2, 'b', 2, 'y')", "update m set val = 5 where id = 1", "delete from m where id = 2");
            assertThat(rows(c, "select count(*) from mlog$_m")).containsExactly(String.valueOf(log.size() + 4));
            c.unwrap(MaterializedViews.class).refresh("mv_d"); // in the transaction: rolled back with it
            assertThat(rows(c, "select * from mv_d")).isNotEqualTo(viewD);
            c.rollback();
            assertThat(rows(c, "select * from mlog$_m")).isEqualTo(log);
            assertThat(rows(c, "select * from mv_c")).isEqualTo(viewC);
            assertThat(rows(c, "select * from mv_d")).isEqualTo(viewD);
            c.setAutoCommit(true);
            // and the log still serves: a committed change reaches both views
            run(c, "update m set val = 9 where id = 1");
            c.unwrap(MaterializedViews.class).refresh("mv_d");
            assertThat(rows(c, "select v2 from mv_d")).containsExactly("18");
            assertThat(rows(c, "select s from mv_c")).containsExactly("9");
        }
    }

    /**
     * A pass-through connection that never runs a statement of ours still refreshes the ON COMMIT
     * views its changes reach: one opened before the view existed (a pool's) and one opened after.
     */
    @ForEachVendor
    void everyPassThroughConnectionRefreshesOnCommitViews(Vendor vendor) throws SQLException {
        try (TestDatabase db = TestDatabase.create(vendor, "mv_pool"); Connection c = db.openRepl();
                Connection pooled = db.openRepl()) {
            run(c, "create table m (id int primary key, grp varchar(10), val int, note varchar(20))",
                    "create materialized view log on m with primary key (grp, val) including new values",
                    "create materialized view mv_c refresh fast on commit as select grp, count(*) as n, sum(val) as s from m group by grp");
            run(pooled, "insert into m values (1, 'a', 1, 'x')");
            pooled.setAutoCommit(false);
            run(pooled, "insert into m values (2, 'a', 2, 'y')");
            pooled.commit();
            assertThat(rows(c, "select grp, n, s from mv_c")).containsExactly("a 2 3");
            try (Connection later = db.openRepl()) {
                run(later, "update m set val = 10 where id = 1");
            }
            assertThat(rows(c, "select grp, n, s from mv_c")).containsExactly("a 2 12");
        }
    }

    /**
     * Views without aggregates are refreshed in place by their (unique) key: with a composite key,
     * with no column but the key, and a row whose view values did not change is not written again
     * (on PostgreSQL it keeps its ctid; a delete and insert would move it).
     */
    @ForEachVendor
    void rowViewsAreRefreshedInPlaceByTheirKey(Vendor vendor) throws SQLException {
        try (TestDatabase db = TestDatabase.create(vendor, "mv_inplace"); Connection c = db.openRepl()) {
            run(c, "create table m2 (a int, b int, val int, note varchar(20), primary key (a, b))",
                    "create materialized view log on m2 with primary key (val, note) including new values");
            for (int i = 1; i <= 30; i++) run(c, "insert into m2 values (" + i % 5 + ", " + i + ", " + i + ", 'n" + i + "')");
            Map<String, String> views = Map.of("mv_keys", "select a, b from m2",
                    "mv_low", "select b, a, val from m2 where val < 20",
                    "mv_note", "select a, b, val, note from m2");
            for (Map.Entry<String, String> v : views.entrySet()) {
                run(c, "create materialized view " + v.getKey() + " refresh fast on demand as " + v.getValue());
            }
            Random random = new Random(11);
            for (int round = 0; round < 25; round++) {
                int b = 1 + random.nextInt(40);
                switch (random.nextInt(4)) {
                    case 0 -> run(c, "delete from m2 where b = " + b);
                    case 1 -> run(c, "update m2 set val = " + random.nextInt(40) + " where b between " + b + " and " + (b + 3));
                    case 2 -> run(c, "update m2 set a = a + 10 where b = " + b);
                    default -> {
                        if (rows(c, "select count(*) from m2 where b = " + b).equals(List.of("0"))) {
                            run(c, "insert into m2 values (" + random.nextInt(3) + ", " + b + ", " + random.nextInt(40) + ", 'i')");
                        }
                    }
                }
                run(c, "call dbms_mview.refresh('mv_keys, mv_low, mv_note')");
                for (Map.Entry<String, String> v : views.entrySet()) {
                    assertThat(sorted(rows(c, "select * from " + v.getKey()))).as(v.getKey() + " round " + round)
                            .isEqualTo(sorted(rows(c, v.getValue())));
                }
            }
            if (vendor == Vendor.POSTGRESQL) {
                run(c, "insert into m2 values (99, 1, 5, 'x')", "call dbms_mview.refresh('mv_low')");
                List<String> before = rows(c, "select ctid from mv_low where a = 99");
                run(c, "update m2 set note = 'y' where a = 99", "call dbms_mview.refresh('mv_low')"); // note is not in mv_low
                assertThat(rows(c, "select ctid from mv_low where a = 99")).isEqualTo(before);
                run(c, "update m2 set val = 6 where a = 99", "call dbms_mview.refresh('mv_low')");
                assertThat(rows(c, "select val from mv_low where a = 99")).containsExactly("6");
            }
        }
    }

    /** Each view equals its query; the ON DEMAND ones after a refresh, when {@code refresh}. */
    private static void assertAllMatch(Connection c, boolean refresh) throws SQLException {
        if (refresh) run(c, "call dbms_mview.refresh('mv_agg_d, mv_proj_d')");
        for (Map.Entry<String, String> v : VIEWS.entrySet()) {
            if (!refresh && v.getKey().endsWith("_d")) continue;
            List<String> expected = sorted(rows(c, v.getValue()));
            assertThat(sorted(rows(c, "select * from " + v.getKey()))).as(v.getKey()).isEqualTo(expected);
        }
    }

    private static List<String> sorted(List<String> rows) {
        List<String> out = new ArrayList<>(rows);
        out.sort(null);
        return out;
    }

    /** Random statements on m that keep to the ids it knows, so none fails. */
    private static final class Workload {
        final Random random;
        final TreeSet<Integer> ids = new TreeSet<>();

        Workload(Random random) {
            this.random = random;
        }

        String next() {
            int kind = ids.isEmpty() ? 0 : random.nextInt(7);
            String grp = random.nextInt(6) == 0 ? "null" : "'g" + random.nextInt(5) + "'";
            String val = random.nextInt(6) == 0 ? "null" : String.valueOf(random.nextInt(100));
            switch (kind) {
                case 0, 1 -> {
                    int id = free();
                    ids.add(id);
                    return "insert into m values (" + id + ", " + grp + ", " + val + ", 'n" + id + "')";
                }
                case 2 -> {
                    return "update m set grp = " + grp + " where id = " + any();
                }
                case 3 -> {
                    int from = any();
                    return "update m set val = " + (random.nextBoolean() ? val : "val + 1") + ", note = 'u" + from
                            + "' where id between " + from + " and " + (from + random.nextInt(5));
                }
                case 4 -> {
                    int id = any();
                    int to = free();
                    ids.remove(id);
                    ids.add(to);
                    return "update m set id = " + to + " where id = " + id;
                }
                case 5 -> {
                    int id = any();
                    ids.remove(id);
                    return "delete from m where id = " + id;
                }
                default -> {
                    int from = any();
                    int to = from + random.nextInt(4);
                    ids.removeIf(i -> i >= from && i <= to);
                    return "delete from m where id between " + from + " and " + to;
                }
            }
        }

        private int any() {
            List<Integer> list = new ArrayList<>(ids);
            return list.get(random.nextInt(list.size()));
        }

        private int free() {
            int id;
            do {
                id = 1 + random.nextInt(200);
            } while (ids.contains(id));
            return id;
        }
    }
}
