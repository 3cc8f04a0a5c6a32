package io.jdbcrepl.it.capture.locking;

import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Phantom safety of MariaDB's multi-table UPDATE and DELETE (SPEC 3.1, 8.3): while one runs in a
 * transaction, at READ COMMITTED (no gap locks) and REPEATABLE READ, other sessions keep inserting
 * rows its join would match and committing. Every row it changed has exactly one LCR, no other row
 * has one, and the count is the rows changed. 2,500 rows and more: several pages of keys.
 */
class MultiTableConcurrencyIT {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    private static final List<String> STATEMENTS = List.of(
            "UPDATE item JOIN grp ON grp.g = item.g SET item.n = item.n + 1 WHERE grp.active = 1",
            // two tables changed: one statement with every locked key, grp's row changed once
            "UPDATE item, grp SET item.n = item.n + 1, grp.hits = grp.hits + 1 WHERE grp.g = item.g AND grp.active = 1",
            "DELETE item FROM item JOIN grp ON grp.g = item.g WHERE grp.active = 1");

    @ParameterizedTest
    @ValueSource(strings = {"READ-COMMITTED", "REPEATABLE-READ"})
    void rowsInsertedMeanwhileAreChangedWithTheirLcrOrNotAtAll(String isolation) throws Exception {
        TestDatabase db = databases.create(Vendor.MARIADB, "mt_phantom");
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement()) {
            s.execute("CREATE TABLE item (id INT PRIMARY KEY, g INT NOT NULL, n INT NOT NULL, KEY (g)) ENGINE=InnoDB");
            s.execute("CREATE TABLE grp (g INT PRIMARY KEY, active INT NOT NULL, hits INT NOT NULL) ENGINE=InnoDB");
            s.execute("INSERT INTO grp VALUES (1, 1, 0)");
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Connection repl = LockingLog.repl(db); Connection raw = db.openRaw()) {
            try (Statement s = repl.createStatement()) {
                s.execute("SET SESSION TRANSACTION ISOLATION LEVEL " + isolation.replace('-', ' '));
            }
            for (int round = 0; round < STATEMENTS.size() * 2; round++) {
                String statement = STATEMENTS.get(round % STATEMENTS.size());
                int base = round * 1_000_000;
                try (Statement s = raw.createStatement()) {
                    s.execute("DELETE FROM item");
                    s.execute("DELETE FROM " + db.driverTable("repl_log"));
                }
                Set<Integer> used = ConcurrentHashMap.newKeySet();
                try (PreparedStatement ps = raw.prepareStatement("INSERT INTO item VALUES (?, 1, 0)")) {
                    for (int i = 0; i < 2500; i++) {
                        used.add(base + 10 * i);
                        ps.setInt(1, base + 10 * i); // gaps for the inserters
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
                Set<Integer> before = ids(raw, "SELECT id FROM item");
                AtomicBoolean stop = new AtomicBoolean();
                AtomicInteger next = new AtomicInteger();
                Set<Integer> inserted = ConcurrentHashMap.newKeySet();
                List<Future<?>> inserters = new java.util.ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    int offset = t + 1;
                    inserters.add(pool.submit(() -> {
                        try (Connection c = db.openRaw(); PreparedStatement ps = c.prepareStatement(
                                "INSERT INTO item VALUES (?, 1, 0)")) {
                            while (!stop.get()) {
                                int i = next.getAndIncrement();
                                int id = base + 10 * (int) ((i * 7919L) % 3000) + offset + 2 * (i / 3000);
                                if (!used.add(id)) continue;
                                ps.setInt(1, id);
                                try {
                                    ps.executeUpdate(); // auto-commit
                                    inserted.add(id);
                                } catch (SQLException lockTimeout) {
                                    // the range is locked: go on with the next
                                }
                            }
                        }
                        return null;
                    }));
                }
                repl.setAutoCommit(false);
                Thread.sleep(5); // let the inserters start; correctness does not depend on it
                int count;
                try (Statement s = repl.createStatement()) {
                    count = s.executeUpdate(statement);
                }
                repl.commit();
                repl.setAutoCommit(true);
                stop.set(true);
                for (Future<?> f : inserters) f.get(60, TimeUnit.SECONDS);

                boolean update = statement.startsWith("UPDATE");
                Set<Integer> changed = update ? ids(raw, "SELECT id FROM item WHERE n = 1") : new HashSet<>(before);
                if (!update) {
                    changed.addAll(inserted);
                    changed.removeAll(ids(raw, "SELECT id FROM item"));
                }
                Map<Integer, Integer> lcrsPerRow = new HashMap<>();
                int grpLcrs = 0;
                for (LockingLog.Row row : LockingLog.read(raw, Vendor.MARIADB)) {
                    if (row.table().equals("grp")) {
                        grpLcrs++;
                        continue;
                    }
                    assertThat(row.command()).isEqualTo(update ? "UPDATE" : "DELETE");
                    int id = Integer.parseInt(row.oldValues().replaceAll("^\\{\"id\":([0-9]+),.*", "$1"));
                    lcrsPerRow.merge(id, 1, Integer::sum);
                }
                Set<Integer> missing = new TreeSet<>(changed);
                missing.removeAll(lcrsPerRow.keySet());
                Set<Integer> extra = new TreeSet<>(lcrsPerRow.keySet());
                extra.removeAll(changed);
                String what = isolation + ", round " + round + ", " + statement;
                assertThat(missing).as("%s: rows changed without an LCR", what).isEmpty();
                assertThat(extra).as("%s: LCRs of rows not changed", what).isEmpty();
                assertThat(lcrsPerRow.values()).allMatch(n -> n == 1);
                boolean twoTables = statement.contains("hits");
                assertThat(grpLcrs).as(what).isEqualTo(twoTables ? 1 : 0);
                assertThat(count).as(what).isEqualTo(lcrsPerRow.size() + grpLcrs).isGreaterThanOrEqualTo(2500);
                if (update) {
                    assertThat(ids(raw, "SELECT id FROM item WHERE n > 1")).as("%s: changed twice", what).isEmpty();
                } else {
                    assertThat(ids(raw, "SELECT id FROM item")).doesNotContainAnyElementsOf(lcrsPerRow.keySet());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static Set<Integer> ids(Connection c, String sql) throws SQLException {
        Set<Integer> out = new HashSet<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) out.add(rs.getInt(1));
        }
        return out;
    }
}
