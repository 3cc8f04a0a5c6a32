package io.jdbcrepl.it.capture.locking;

import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.jdbcrepl.it.capture.locking.LockingLog.table;
import static org.assertj.core.api.Assertions.assertThat;

/** Phantom safety of captured UPDATEs and the commit-order proof of the epoch design (SPEC 3.1, 4.1). */
class LockingConcurrencyIT {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    /**
     * While a range UPDATE runs, other sessions insert rows in the range and commit. Afterwards every
     * row the UPDATE changed has exactly one LCR, and no row it left alone has one.
     */
    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"MARIADB", "H2"})
    void rangeUpdateIsPhantomSafe(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "lk_phantom");
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement()) {
            s.execute("CREATE TABLE item (id INT PRIMARY KEY, g INT NOT NULL, n INT NOT NULL)");
            s.execute("CREATE INDEX item_g ON item (g)");
        }
        ExecutorService pool = Executors.newFixedThreadPool(3);
        AtomicInteger ids = new AtomicInteger(1);
        try (Connection repl = LockingLog.repl(db); Connection raw = db.openRaw()) {
            for (int round = 0; round < 20; round++) {
                try (Statement s = raw.createStatement()) {
                    s.execute("DELETE FROM item");
                    for (int i = 0; i < 30; i++) s.execute("INSERT INTO item VALUES (" + ids.getAndIncrement() + ", 1, 0)");
                    s.execute("DELETE FROM " + db.driverTable("repl_log"));
                }
                AtomicBoolean stop = new AtomicBoolean();
                List<Future<?>> inserters = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    inserters.add(pool.submit(() -> {
                        try (Connection c = db.openRaw(); PreparedStatement ps = c.prepareStatement(
                                "INSERT INTO item VALUES (?, 1, 0)")) {
                            while (!stop.get()) {
                                ps.setInt(1, ids.getAndIncrement());
                                ps.executeUpdate(); // auto-commit
                            }
                        }
                        return null;
                    }));
                }
                repl.setAutoCommit(false);
                Thread.sleep(5); // let the inserters start; correctness does not depend on it
                int changed = repl.createStatement().executeUpdate("UPDATE item SET n = n + 1 WHERE g = 1");
                Thread.sleep(5);
                repl.commit();
                repl.setAutoCommit(true);
                stop.set(true);
                for (Future<?> f : inserters) f.get(30, TimeUnit.SECONDS);

                Set<Integer> updatedRows = new HashSet<>();
                try (Statement s = raw.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM item WHERE n = 1")) {
                    while (rs.next()) updatedRows.add(rs.getInt(1));
                }
                Map<Integer, Integer> lcrsPerRow = new HashMap<>();
                for (LockingLog.Row row : LockingLog.read(raw, vendor)) {
                    assertThat(row.command()).isEqualTo("UPDATE");
                    int id = Integer.parseInt(row.oldValues().replaceAll("^\\{\"[A-Za-z]+\":([0-9]+),.*", "$1"));
                    lcrsPerRow.merge(id, 1, Integer::sum);
                }
                assertThat(lcrsPerRow.keySet()).as("round %d: rows with an LCR = rows the UPDATE changed", round)
                        .isEqualTo(updatedRows);
                assertThat(lcrsPerRow.values()).allMatch(n -> n == 1);
                assertThat(changed).isEqualTo(updatedRows.size());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The same for statements of several pages (2,500 rows and more, a thousand a page): while an
     * UPDATE, then a DELETE, of a range runs in a transaction, other sessions keep inserting rows
     * into the range, before and after the statement's position, and committing. Every row changed
     * (or deleted) has exactly one LCR, no other row has one, the count equals the LCRs, and the
     * statement ends although the inserts do not stop before it does.
     */
    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"MARIADB", "H2"})
    void pagedUpdateAndDeleteArePhantomSafe(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "lk_pages");
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement()) {
            s.execute("CREATE TABLE item (id INT PRIMARY KEY, g INT NOT NULL, n INT NOT NULL)");
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Connection repl = LockingLog.repl(db); Connection raw = db.openRaw()) {
            for (int round = 0; round < 4; round++) {
                int base = round * 1_000_000;
                try (Statement s = raw.createStatement()) {
                    s.execute("DELETE FROM item");
                    s.execute("DELETE FROM " + db.driverTable("repl_log"));
                }
                // a key is never used twice in a round: a row deleted and inserted again would have two lives
                Set<Integer> used = java.util.concurrent.ConcurrentHashMap.newKeySet();
                try (PreparedStatement ps = raw.prepareStatement("INSERT INTO item VALUES (?, 1, 0)")) {
                    for (int i = 0; i < 2500; i++) {
                        used.add(base + 10 * i);
                        ps.setInt(1, base + 10 * i); // gaps for the inserters
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
                for (String statement : List.of("UPDATE item SET n = n + 1 WHERE g = 1", "DELETE FROM item WHERE g = 1")) {
                    try (Statement s = raw.createStatement()) {
                        s.execute("DELETE FROM " + db.driverTable("repl_log"));
                    }
                    Set<Integer> before = ids(raw, "SELECT id FROM item");
                    AtomicBoolean stop = new AtomicBoolean();
                    AtomicInteger next = new AtomicInteger();
                    Set<Integer> inserted = java.util.concurrent.ConcurrentHashMap.newKeySet();
                    List<Future<?>> inserters = new ArrayList<>();
                    for (int t = 0; t < 2; t++) {
                        int offset = t + 1;
                        inserters.add(pool.submit(() -> {
                            try (Connection c = db.openRaw(); PreparedStatement ps = c.prepareStatement(
                                    "INSERT INTO item VALUES (?, 1, 0)")) {
                                while (!stop.get()) {
                                    // spread over the range and past its end
                                    int i = next.getAndIncrement();
                                    int id = base + 10 * (int) ((i * 7919L) % 3000) + offset + 2 * (i / 3000);
                                    if (!used.add(id)) continue;
                                    ps.setInt(1, id);
                                    try {
                                        ps.executeUpdate(); // auto-commit
                                        inserted.add(id);
                                    } catch (java.sql.SQLException duplicateOrLockTimeout) {
                                        // the range is locked or the key taken: go on with the next
                                    }
                                }
                            }
                            return null;
                        }));
                    }
                    repl.setAutoCommit(false);
                    Thread.sleep(5);
                    int count = repl.createStatement().executeUpdate(statement);
                    repl.commit();
                    repl.setAutoCommit(true);
                    stop.set(true);
                    for (Future<?> f : inserters) f.get(60, TimeUnit.SECONDS);

                    boolean update = statement.startsWith("UPDATE");
                    Set<Integer> changed = update ? ids(raw, "SELECT id FROM item WHERE n = 1") : new HashSet<>(before);
                    if (!update) {
                        // deleted: the rows there before or inserted meanwhile that are gone
                        changed.addAll(inserted);
                        changed.removeAll(ids(raw, "SELECT id FROM item"));
                    }
                    Map<Integer, Integer> lcrsPerRow = new HashMap<>();
                    for (LockingLog.Row row : LockingLog.read(raw, vendor)) {
                        assertThat(row.command()).isEqualTo(update ? "UPDATE" : "DELETE");
                        int id = Integer.parseInt(row.oldValues().replaceAll("^\\{\"[A-Za-z]+\":([0-9]+),.*", "$1"));
                        lcrsPerRow.merge(id, 1, Integer::sum);
                    }
                    Set<Integer> missing = new java.util.TreeSet<>(changed);
                    missing.removeAll(lcrsPerRow.keySet());
                    Set<Integer> extra = new java.util.TreeSet<>(lcrsPerRow.keySet());
                    extra.removeAll(changed);
                    assertThat(missing).as("round %d, %s: rows changed without an LCR", round, statement).isEmpty();
                    assertThat(extra).as("round %d, %s: LCRs of rows not changed", round, statement).isEmpty();
                    assertThat(lcrsPerRow.values()).allMatch(n -> n == 1);
                    assertThat(count).isEqualTo(lcrsPerRow.size()).isGreaterThanOrEqualTo(2500);
                    if (!update) assertThat(ids(raw, "SELECT id FROM item")).doesNotContainAnyElementsOf(lcrsPerRow.keySet());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static Set<Integer> ids(Connection c, String sql) throws java.sql.SQLException {
        Set<Integer> out = new HashSet<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) out.add(rs.getInt(1));
        }
        return out;
    }

    /**
     * While a captured {@code INSERT … ON DUPLICATE KEY UPDATE} of 40 keys runs, other sessions insert
     * and commit rows with the same keys. Afterwards each of the keys has exactly one LCR of the
     * upsert: an INSERT of the row it inserted, or an UPDATE with the old values of the row it found
     * (committed by another session a moment before); no other LCR; its update count is 1 per
     * insert and 2 per update.
     */
    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"MARIADB"})
    void upsertIsPhantomSafe(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "lk_upsert");
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement()) {
            s.execute("CREATE TABLE item (id INT PRIMARY KEY, n INT NOT NULL)");
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        int perRound = 40;
        int sawBoth = 0;
        try (Connection repl = LockingLog.repl(db); Connection raw = db.openRaw()) {
            for (int round = 0; round < 20; round++) {
                int first = round * 1000;
                try (Statement s = raw.createStatement()) {
                    s.execute("DELETE FROM " + db.driverTable("repl_log"));
                }
                AtomicBoolean stop = new AtomicBoolean();
                List<Future<?>> inserters = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    int offset = t;
                    inserters.add(pool.submit(() -> {
                        try (Connection c = db.openRaw(); PreparedStatement ps = c.prepareStatement(
                                "INSERT IGNORE INTO item VALUES (?, 0)")) {
                            for (int k = first + offset; k < first + perRound && !stop.get(); k += 2) {
                                ps.setInt(1, k);
                                ps.executeUpdate(); // auto-commit
                            }
                        }
                        return null;
                    }));
                }
                StringBuilder sql = new StringBuilder("INSERT INTO item (id, n) VALUES ");
                for (int k = first + perRound - 1; k >= first; k--) sql.append(k < first + perRound - 1 ? ", " : "").append("(" + k + ", 100)");
                sql.append(" ON DUPLICATE KEY UPDATE n = n + 1");
                boolean transaction = round % 2 == 0;
                repl.setAutoCommit(!transaction);
                int count = repl.createStatement().executeUpdate(sql.toString());
                if (transaction) {
                    repl.commit();
                    repl.setAutoCommit(true);
                }
                stop.set(true);
                for (Future<?> f : inserters) f.get(30, TimeUnit.SECONDS);

                Map<Integer, Integer> n = new HashMap<>();
                try (Statement s = raw.createStatement(); ResultSet rs = s.executeQuery(
                        "SELECT id, n FROM item WHERE id >= " + first + " AND id < " + (first + perRound))) {
                    while (rs.next()) n.put(rs.getInt(1), rs.getInt(2));
                }
                assertThat(n).hasSize(perRound).allSatisfy((k, v) -> assertThat(v).isIn(1, 100));
                Set<String> expected = new HashSet<>();
                int expectedCount = 0;
                for (var e : n.entrySet()) {
                    if (e.getValue() == 100) {
                        expected.add("INSERT item old=null new={\"id\":" + e.getKey() + ",\"n\":100} cv=[\"id\",\"n\"]");
                        expectedCount += 1;
                    } else {
                        expected.add("UPDATE item old={\"id\":" + e.getKey() + ",\"n\":0} new={\"n\":1} cv=[\"n\"]");
                        expectedCount += 2;
                    }
                }
                List<String> lcrs = LockingLog.texts(raw, vendor);
                assertThat(lcrs).as("round %d", round).doesNotHaveDuplicates();
                assertThat(new HashSet<>(lcrs)).as("round %d", round).isEqualTo(expected);
                assertThat(count).isEqualTo(expectedCount);
                if (n.containsValue(1) && n.containsValue(100)) sawBoth++;
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.printf("upsert rounds with both inserted and updated rows: %d of 20%n", sawBoth);
    }

    /**
     * Concurrent transactions commit after random delays while a reader closes epochs and reads
     * closed epochs in (epoch, last_position) order: it sees every transaction exactly once, and a
     * closed epoch never gains a transaction after the reader read it.
     */
    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"MARIADB", "H2"})
    void readerOfClosedEpochsSeesEveryTransactionOnce(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "lk_epoch");
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement()) {
            s.execute("CREATE TABLE ev (id INT PRIMARY KEY, w INT)");
        }
        try (Connection c = LockingLog.repl(db)) {
            c.isValid(1); // installs the driver's tables
        }
        int writers = 4;
        int perWriter = 25;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        AtomicInteger ids = new AtomicInteger();
        Set<String> committed = java.util.concurrent.ConcurrentHashMap.newKeySet();
        List<Future<?>> futures = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            futures.add(pool.submit(() -> {
                try (Connection c = LockingLog.repl(db)) {
                    c.setAutoCommit(false);
                    for (int i = 0; i < perWriter; i++) {
                        int id = ids.incrementAndGet();
                        c.createStatement().executeUpdate("INSERT INTO ev VALUES (" + id + ", 0)");
                        Thread.sleep(ThreadLocalRandom.current().nextInt(15));
                        c.createStatement().executeUpdate("UPDATE ev SET w = w + 1 WHERE id = " + id);
                        Thread.sleep(ThreadLocalRandom.current().nextInt(15));
                        c.commit();
                        committed.add(String.valueOf(id));
                    }
                }
                return null;
            }));
        }
        String tx = db.driverTable("repl_tx");
        String log = db.driverTable("repl_log");
        String epochTable = db.driverTable("repl_epoch");
        List<String> readTx = new ArrayList<>();
        Map<Long, Set<String>> readPerEpoch = new HashMap<>();
        long lastClosed = 0;
        try (Connection reader = db.openRaw()) {
            reader.setAutoCommit(false);
            boolean done = false;
            while (!done) {
                done = futures.stream().allMatch(Future::isDone);
                long closed;
                try (Statement s = reader.createStatement()) {
                    s.executeUpdate("UPDATE " + epochTable + " SET epoch = epoch + 1 WHERE id = 1");
                    try (ResultSet rs = s.executeQuery("SELECT epoch FROM " + epochTable + " WHERE id = 1")) {
                        rs.next();
                        closed = rs.getLong(1) - 1;
                    }
                }
                reader.commit();
                try (PreparedStatement ps = reader.prepareStatement("SELECT t.tx_id, t.epoch, l.new_values FROM " + tx
                        + " t JOIN " + log + " l ON l.tx_id = t.tx_id WHERE t.epoch > ? AND t.epoch <= ?"
                        + " AND l.command_type = 'INSERT' ORDER BY t.epoch, t.last_position, l.position")) {
                    ps.setLong(1, lastClosed);
                    ps.setLong(2, closed);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            readTx.add(rs.getString(1));
                            readPerEpoch.computeIfAbsent(rs.getLong(2), e -> new HashSet<>()).add(rs.getString(1));
                        }
                    }
                }
                reader.commit();
                lastClosed = closed;
                Thread.sleep(10); // the reader's poll interval
            }
        } finally {
            pool.shutdown();
        }
        for (Future<?> f : futures) f.get(60, TimeUnit.SECONDS);
        assertThat(readTx).as("every transaction read exactly once").doesNotHaveDuplicates().hasSize(writers * perWriter);
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement();
                ResultSet rs = s.executeQuery("SELECT tx_id, epoch FROM " + tx)) {
            Map<Long, Set<String>> finalPerEpoch = new HashMap<>();
            while (rs.next()) finalPerEpoch.computeIfAbsent(rs.getLong(2), e -> new HashSet<>()).add(rs.getString(1));
            assertThat(finalPerEpoch).as("no transaction joined an epoch after the reader had closed and read it")
                    .isEqualTo(readPerEpoch);
        }
        assertThat(committed).hasSize(writers * perWriter);
    }
}
