package io.jdbcrepl.it.capture.locking;

import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.lcr.Json;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.jdbcrepl.it.capture.locking.LockingLog.table;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 3, the UPDATEs that are not paged by key (key updates, a subquery in WHERE, ORDER BY/LIMIT)
 * changing more rows than a page (2,500, a thousand a page), so that their rows go through a
 * temporary table on the server: each gives the raw driver's count or exception and table contents,
 * and exactly one LCR per changed row whose old values are the row's before the statement and whose
 * new values are the row's after it; a failing one leaves nothing and the transaction goes on.
 * MariaDB checks unique keys row by row (a shift up needs ORDER BY id DESC), H2 once per statement
 * (a shift up without order works, a page at a time it would not). On MariaDB DELETEs with a
 * subquery or ORDER BY/LIMIT too; and INSERT … SELECT (with ON DUPLICATE KEY UPDATE on MariaDB), whose
 * returned rows MariaDB streams.
 */
class SpilledStatementCaptureIT {

    private static final int ROWS = 2500;

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    private static List<String> statements(Vendor vendor) {
        List<String> out = new ArrayList<>();
        out.add(vendor == Vendor.H2 ? "UPDATE sp SET id = id + 1" : "UPDATE sp SET id = id + 1 ORDER BY id DESC");
        out.add("UPDATE sp SET id = id + 1"); // MariaDB: a duplicate key on the first row
        out.add("UPDATE sp SET id = MOD(id, 2000) + 1 WHERE g >= 0"); // a duplicate on both
        out.add("UPDATE sp SET id = id - 1, payload = CONCAT('k', payload) WHERE g IN (0, 1, 2)");
        out.add("UPDATE sp SET id = id + 10000 WHERE id IN (SELECT id FROM sp s2 WHERE s2.g = 1)");
        // As the rows were: read once, before any changes (re-read, the average would move)
        out.add("UPDATE sp SET g = g + 3 WHERE g * 1.0 <= (SELECT AVG(g) FROM sp s2)");
        out.add("UPDATE sp SET payload = CONCAT('s', payload) WHERE EXISTS (SELECT 1 FROM sp s2 WHERE s2.id = sp.id + 1)");
        // a unique column that is not the key: H2 shifts it (it would be paged by key, a page at a
        // time it fails on the next page's first row), MariaDB fails as raw does, or orders it
        out.add("UPDATE sp SET u = u + 1 WHERE g >= 0");
        if (vendor == Vendor.MARIADB) {
            out.add("UPDATE sp SET u = u + 1 WHERE g >= 0 ORDER BY u DESC");
            out.add("UPDATE sp SET payload = CONCAT('o', id) ORDER BY g DESC, id LIMIT 2000");
            out.add("UPDATE sp SET payload = CONCAT('a', payload) ORDER BY id");
            out.add("UPDATE sp SET id = id - 20000 ORDER BY id LIMIT 1800");
            // DELETEs not in key order, of a few rows and of more than a page (one statement, its rows streamed)
            out.add("DELETE FROM sp WHERE id IN (SELECT s2.id FROM sp s2 WHERE s2.u < 30)");
            out.add("DELETE FROM sp WHERE g * 1.0 <= (SELECT AVG(g) + 1 FROM sp s2) ORDER BY u DESC LIMIT 1300");
            out.add("DELETE FROM sp WHERE EXISTS (SELECT 1 FROM sp s2 WHERE s2.id = sp.id + 1)");
        }
        // INSERT … SELECT of 3,000 rows: on MariaDB its rows are streamed, their LCRs set aside until
        // the result ends; the failing ones fail on their last row (in the transaction, which goes on),
        // the others run in auto-commit (their last LCRs go with the driver's COMMIT)
        String rows = vendor == Vendor.H2 ? "SYSTEM_RANGE(1, 3000)" : "seq_1_to_3000";
        String n = vendor == Vendor.H2 ? "X" : "seq";
        out.add(AUTO_COMMIT + "INSERT INTO sp SELECT " + n + " + 100000, MOD(" + n + ", 3), CONCAT('i', " + n + "), " + n + " + 100000 FROM " + rows);
        out.add("INSERT INTO sp SELECT " + n + " + 200000, 0, 'f', CASE WHEN " + n + " = 3000 THEN 100001 ELSE "
                + n + " + 200000 END FROM " + rows);
        if (vendor == Vendor.MARIADB) {
            out.add(AUTO_COMMIT + "INSERT INTO sp SELECT seq + 100000, 1, CONCAT('d', seq), seq + 100000 FROM seq_1_to_3000"
                    + " ON DUPLICATE KEY UPDATE payload = VALUES(payload)"); // 2 a row: every row updated
            out.add("INSERT INTO sp SELECT seq + 100000, 1, 'e', CASE WHEN seq = 3000 THEN 100001 ELSE seq + 100000 END"
                    + " FROM seq_1_to_3000 ON DUPLICATE KEY UPDATE u = VALUES(u)");
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"MARIADB", "H2"})
    void unpagedUpdatesOfMoreThanAPageAreExact(Vendor vendor) throws Exception {
        TestDatabase captured = databases.create(vendor, "sp_repl");
        TestDatabase reference = databases.create(vendor, "sp_raw");
        for (TestDatabase db : List.of(captured, reference)) {
            try (Connection raw = db.openRaw(); Statement s = raw.createStatement()) {
                s.execute("CREATE TABLE sp (id INT PRIMARY KEY, g INT NOT NULL, payload VARCHAR(40) NOT NULL, u INT NOT NULL UNIQUE)");
                try (PreparedStatement ps = raw.prepareStatement("INSERT INTO sp VALUES (?, ?, ?, ?)")) {
                    for (int i = 1; i <= ROWS; i++) {
                        ps.setInt(1, i);
                        ps.setInt(2, i % 3);
                        ps.setString(3, "p" + i);
                        ps.setInt(4, i);
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            }
        }
        String log = captured.driverTable("repl_log");
        try (Connection repl = LockingLog.repl(captured); Connection raw = reference.openRaw();
                Connection look = captured.openRaw()) {
            repl.setAutoCommit(false);
            raw.setAutoCommit(false);
            int failures = 0;
            for (String sql : statements(vendor)) {
                Map<String, Map<String, String>> before = rows(look);
                long logged = LockingLog.count(look, "SELECT COUNT(*) FROM " + log);
                String expected = run(raw, sql);
                String actual = run(repl, sql);
                assertThat(actual).as(sql).isEqualTo(expected);
                raw.commit();
                repl.commit();
                Map<String, Map<String, String>> after = rows(look);
                assertThat(after).as(sql).isEqualTo(rows(raw));
                List<String[]> lcrs = lcrs(look, log, logged);
                if (expected.startsWith("failed")) {
                    failures++;
                    assertThat(lcrs).as(sql).isEmpty();
                    assertThat(after).as(sql).isEqualTo(before);
                    continue;
                }
                assertThat(expected).as(sql).isNotEqualTo("count 0");
                int count = Integer.parseInt(expected.substring("count ".length()));
                assertThat(lcrs).as(sql).hasSize(sql.contains("DUPLICATE KEY") ? count / 2 : count);
                Set<String> oldKeys = new HashSet<>();
                Set<String> newKeys = new HashSet<>();
                for (String[] lcr : lcrs) {
                    if (lcr[0] == null) { // an INSERT's
                        Map<String, Object> now = Json.readObject(lcr[1]);
                        String key = String.valueOf(now.get(column(vendor, "id")));
                        assertThat(newKeys.add(key)).as(sql + ": one LCR a row").isTrue();
                        assertThat(before).as(sql + ": inserted " + key).doesNotContainKey(key);
                        assertThat(matches(after.get(key), now)).as(sql + ": new values of " + key + " " + lcr[1]).isTrue();
                        continue;
                    }
                    Map<String, Object> old = Json.readObject(lcr[0]);
                    if (lcr[1] == null) { // a DELETE's
                        String key = String.valueOf(old.get(column(vendor, "id")));
                        assertThat(oldKeys.add(key)).as(sql + ": one LCR a row").isTrue();
                        assertThat(matches(before.get(key), old)).as(sql + ": old values of " + key + " " + lcr[0]).isTrue();
                        assertThat(after).as(sql + ": deleted " + key).doesNotContainKey(key);
                        continue;
                    }
                    Map<String, Object> now = Json.readObject(lcr[1]);
                    String oldKey = String.valueOf(old.get(column(vendor, "id")));
                    String newKey = String.valueOf(now.getOrDefault(column(vendor, "id"), oldKey));
                    assertThat(oldKeys.add(oldKey) && newKeys.add(newKey)).as(sql + ": one LCR a row").isTrue();
                    assertThat(matches(before.get(oldKey), old)).as(sql + ": old values of " + oldKey + " " + lcr[0]).isTrue();
                    assertThat(matches(after.get(newKey), now)).as(sql + ": new values of " + newKey + " " + lcr[1]).isTrue();
                    assertThat(before.get(oldKey)).as(sql + ": a changed row " + oldKey).isNotEqualTo(after.get(oldKey));
                }
            }
            assertThat(failures).isEqualTo(vendor == Vendor.H2 ? 2 : 5);
        }
    }

    private static final String AUTO_COMMIT = "/* auto-commit */ ";

    /** The count or the SQLState; in auto-commit mode when the statement starts with {@link #AUTO_COMMIT}. */
    private static String run(Connection c, String sql) throws SQLException {
        boolean autoCommit = sql.startsWith(AUTO_COMMIT);
        if (autoCommit) c.setAutoCommit(true);
        try (Statement s = c.createStatement()) {
            return "count " + s.executeUpdate(sql);
        } catch (SQLException e) {
            return "failed " + e.getSQLState();
        } finally {
            if (autoCommit) c.setAutoCommit(false);
        }
    }

    private static String column(Vendor vendor, String name) {
        return vendor == Vendor.H2 ? name.toUpperCase() : name;
    }

    /** Every value of the image equals the row's, as text. */
    private static boolean matches(Map<String, String> row, Map<String, Object> image) {
        if (row == null) return false;
        for (Map.Entry<String, Object> e : image.entrySet()) {
            if (!String.valueOf(e.getValue()).equals(row.get(e.getKey()))) return false;
        }
        return true;
    }

    /** The table's rows by id, each column as text. */
    private static Map<String, Map<String, String>> rows(Connection c) throws SQLException {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM sp ORDER BY id")) {
            while (rs.next()) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) row.put(rs.getMetaData().getColumnLabel(i), rs.getString(i));
                out.put(rs.getString(1), row);
            }
        }
        return out;
    }

    /** Old and new values of the LCRs after the first {@code skip}, in log order. */
    private static List<String[]> lcrs(Connection c, String log, long skip) throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT old_values, new_values FROM " + log + " ORDER BY position")) {
            for (long i = 0; rs.next(); i++) if (i >= skip) out.add(new String[] {rs.getString(1), rs.getString(2)});
        }
        return out;
    }
}
