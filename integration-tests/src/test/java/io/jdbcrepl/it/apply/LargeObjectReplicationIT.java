package io.jdbcrepl.it.apply;

import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * PostgreSQL large objects (an {@code oid} column, what Hibernate maps {@code @Lob} to) replicated
 * PostgreSQL ⇄ PostgreSQL and PostgreSQL ⇄ MariaDB ({@code LONGBLOB}): every PostgreSQL row points
 * to an object of its own database holding the source's bytes (small, empty, 5 MB, NULL), through
 * inserts, updates to a new object and deletes; never to a number that names nothing there, or
 * another object.
 */
class LargeObjectReplicationIT extends ClusterTest {

    private static final byte[] ALL_BYTES = new byte[256];
    private static final byte[] FIVE_MB = new byte[5 * 1024 * 1024 + 7];

    static {
        for (int i = 0; i < 256; i++) ALL_BYTES[i] = (byte) i;
        new Random(42).nextBytes(FIVE_MB);
    }

    private static List<String> ddl(Vendor v) {
        return List.of(v == Vendor.POSTGRESQL
                ? "CREATE TABLE doc (id int PRIMARY KEY, data oid, note varchar(40))"
                : "CREATE TABLE doc (id INT PRIMARY KEY, data LONGBLOB, note VARCHAR(40)) CHARACTER SET utf8mb4");
    }

    @Test
    void objectsReachEveryNodeAsObjectsOfItsOwn() throws Exception {
        cluster = new Cluster(databases.nodes("lob", Vendor.POSTGRESQL, Vendor.POSTGRESQL, Vendor.MARIADB));
        cluster.ddl(LargeObjectReplicationIT::ddl);
        Map<Integer, byte[]> expected = new LinkedHashMap<>();

        // n1 (PostgreSQL) writes as Hibernate and pgjdbc's Blob do: the object first, then the row
        try (Connection c = cluster.open(0)) {
            c.setAutoCommit(false);
            insert(c, 1, ALL_BYTES);
            insert(c, 2, new byte[0]);
            insert(c, 3, FIVE_MB);
            insert(c, 4, null);
            c.commit();
        }
        expected.put(1, ALL_BYTES);
        expected.put(2, new byte[0]);
        expected.put(3, FIVE_MB);
        expected.put(4, null);
        // n2 (PostgreSQL) in autocommit, n3 (MariaDB) with plain bytes
        try (Connection c = cluster.open(1)) {
            insert(c, 5, "from n2".getBytes(StandardCharsets.UTF_8));
        }
        expected.put(5, "from n2".getBytes(StandardCharsets.UTF_8));
        try (Connection c = cluster.open(2); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO doc (id, data, note) VALUES (?, ?, 'n3')")) {
            ps.setInt(1, 6);
            ps.setBytes(2, new byte[] {(byte) 0xff, 0, 1});
            ps.executeUpdate();
        }
        expected.put(6, new byte[] {(byte) 0xff, 0, 1});
        cluster.waitForAll();
        assertEverywhere(expected);

        // updates: a new object each (Hibernate's way: the old one is left to vacuumlo), NULL both ways
        byte[] replaced = "replaced".getBytes(StandardCharsets.UTF_8);
        try (Connection c = cluster.open(0)) {
            c.setAutoCommit(false);
            update(c, 1, replaced);
            update(c, 2, null);
            update(c, 3, ALL_BYTES);
            update(c, 4, new byte[0]);
            c.commit();
        }
        try (Connection c = cluster.open(1)) {
            update(c, 6, FIVE_MB); // MariaDB's row, given a large object on PostgreSQL
        }
        expected.put(1, replaced);
        expected.put(2, null);
        expected.put(3, ALL_BYTES);
        expected.put(4, new byte[0]);
        expected.put(6, FIVE_MB);
        // an update of another column leaves the object as it is
        cluster.execute(1, "UPDATE doc SET note = 'touched' WHERE id = 5");
        cluster.waitForAll();
        assertEverywhere(expected);

        cluster.execute(0, "DELETE FROM doc WHERE id IN (1, 3)");
        cluster.execute(2, "DELETE FROM doc WHERE id = 6");
        expected.remove(1);
        expected.remove(3);
        expected.remove(6);
        cluster.waitForAll();
        assertEverywhere(expected);
        verifyIdentical();
    }

    /**
     * With the lo module's {@code lo_manage} trigger on both PostgreSQL nodes (PostgreSQL's own way to
     * unlink an object its row no longer names), the peer's trigger unlinks the peer's old object
     * where the source's unlinked the source's: both nodes end with exactly one object per row.
     */
    @Test
    void loManageUnlinksOnThePeerWhereItUnlinksOnTheSource() throws Exception {
        cluster = new Cluster(databases.nodes("lobmanage", Vendor.POSTGRESQL, Vendor.POSTGRESQL));
        cluster.ddl(v -> List.of("CREATE EXTENSION IF NOT EXISTS lo",
                "CREATE TABLE doc (id int PRIMARY KEY, data lo, note varchar(40))",
                "CREATE TRIGGER doc_lo BEFORE UPDATE OR DELETE ON doc FOR EACH ROW EXECUTE FUNCTION lo_manage(data)"));
        try (Connection c = cluster.open(0)) {
            for (int id = 1; id <= 3; id++) insert(c, id, ("v1 of " + id).getBytes(StandardCharsets.UTF_8));
        }
        cluster.waitForAll();
        try (Connection c = cluster.open(0)) {
            update(c, 1, "v2".getBytes(StandardCharsets.UTF_8));
            update(c, 2, null);
        }
        cluster.execute(0, "DELETE FROM doc WHERE id = 3");
        cluster.waitForAll();
        Map<Integer, byte[]> expected = new LinkedHashMap<>();
        expected.put(1, "v2".getBytes(StandardCharsets.UTF_8));
        expected.put(2, null);
        assertEverywhere(expected);
        for (int i = 0; i < 2; i++) {
            assertThat(cluster.count(i, "SELECT count(*) FROM pg_largeobject_metadata"))
                    .as("large objects on %s (one per row that names one)", Cluster.name(i)).isEqualTo(1);
        }
    }

    /**
     * Both nodes replace the same row's object before either has applied the other's change. A large
     * object is not compared, so the conflict is found on the driver's timestamp column, and MAXIMUM
     * on (data, time) makes the later object win on both nodes: the resolution writes it into a new
     * object of the node's own.
     */
    @Test
    void aConflictResolvedByTimestampLeavesTheLaterObjectOnBothNodes() throws Exception {
        Map<String, String> handler = new LinkedHashMap<>();
        handler.put("repl.apply", "false");
        handler.put("repl.timestamp.doc", "time");
        handler.put("repl.handler.lww.table", "doc");
        handler.put("repl.handler.lww.type", "MAXIMUM");
        handler.put("repl.handler.lww.columns", "data,time");
        handler.put("repl.handler.lww.resolution", "time");
        List<TestDatabase> dbs = databases.nodes("lobconflict", Vendor.POSTGRESQL, Vendor.POSTGRESQL);
        cluster = new Cluster(dbs, handler);
        cluster.ddl(v -> List.of("CREATE TABLE doc (id int PRIMARY KEY, data oid, time timestamp(6))"));
        try (Connection c = cluster.open(0)) {
            insertWithTime(c, 1, "first".getBytes(StandardCharsets.UTF_8));
        }
        cluster.admin(0).startApply();
        cluster.admin(1).startApply();
        cluster.waitForAll();
        io.jdbcrepl.admin.Repl.shutdown();
        cluster = new Cluster(dbs, handler); // appliers stopped: both nodes change the row
        try (Connection c = cluster.open(0)) {
            update(c, 1, "n1's".getBytes(StandardCharsets.UTF_8));
        }
        try (Connection c = cluster.open(1)) {
            update(c, 1, "n2's, later".getBytes(StandardCharsets.UTF_8));
        }
        cluster.admin(0).startApply();
        cluster.admin(1).startApply();
        cluster.waitForAll();
        Map<Integer, byte[]> expected = new LinkedHashMap<>();
        expected.put(1, "n2's, later".getBytes(StandardCharsets.UTF_8));
        assertEverywhere(expected);
        assertThat(cluster.count(0, "SELECT count(*) FROM repl_conflict")).as("the conflict met at n1").isPositive();
    }

    private static void insertWithTime(Connection c, int id, byte[] bytes) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO doc (id, data) VALUES (?, ?)")) {
            ps.setInt(1, id);
            setObject(c, ps, 2, bytes);
            ps.executeUpdate();
        }
    }

    /** What cannot be replicated exactly is refused, naming the table and column. */
    @Test
    void whatCannotBeExactIsRefused() throws Exception {
        cluster = new Cluster(databases.nodes("lobrefuse", Vendor.POSTGRESQL, Vendor.POSTGRESQL));
        cluster.ddl(v -> List.of("CREATE TABLE doc (id int PRIMARY KEY, data oid)",
                "CREATE TABLE keyed (data oid PRIMARY KEY, note text)"));
        // an object created by the very statement that stores it: its content cannot be read there
        try (Connection c = cluster.open(0); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeUpdate("INSERT INTO doc VALUES (1, lo_from_bytea(0, 'abc'))"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("doc").hasMessageContaining("data").hasMessageContaining("earlier statement");
            assertThatThrownBy(() -> s.executeUpdate("INSERT INTO keyed VALUES (lo_from_bytea(0, 'abc'), 'x')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("keyed").hasMessageContaining("large object column data");
        }
        assertThat(cluster.count(0, "SELECT count(*) FROM doc")).isZero();
        assertThat(cluster.count(0, "SELECT count(*) FROM keyed")).isZero();
    }

    private static void insert(Connection c, int id, byte[] bytes) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO doc (id, data, note) VALUES (?, ?, 'n')")) {
            ps.setInt(1, id);
            setObject(c, ps, 2, bytes);
            ps.executeUpdate();
        }
    }

    private static void update(Connection c, int id, byte[] bytes) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE doc SET data = ? WHERE id = ?")) {
            setObject(c, ps, 1, bytes);
            ps.setInt(2, id);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
    }

    /** A new large object with these bytes, made by an earlier statement (as pgjdbc's setBlob does). */
    private static void setObject(Connection c, PreparedStatement ps, int index, byte[] bytes) throws SQLException {
        if (bytes == null) {
            ps.setNull(index, java.sql.Types.BIGINT);
            return;
        }
        try (PreparedStatement create = c.prepareStatement("SELECT lo_from_bytea(0, ?)")) {
            create.setBytes(1, bytes);
            try (ResultSet rs = create.executeQuery()) {
                rs.next();
                ps.setLong(index, rs.getLong(1));
            }
        }
    }

    /** Every node holds exactly the expected rows; on PostgreSQL each names an existing object of these bytes. */
    private void assertEverywhere(Map<Integer, byte[]> expected) throws SQLException {
        for (int i = 0; i < cluster.size(); i++) {
            assertThat(cluster.count(i, "SELECT count(*) FROM repl_error")).as("error queue of " + Cluster.name(i)).isZero();
            TestDatabase db = cluster.db(i);
            boolean pg = db.vendor() == Vendor.POSTGRESQL;
            Map<Integer, byte[]> actual = new LinkedHashMap<>();
            String sql = pg
                    ? "SELECT id, data, lo_get(data), data IS NULL OR EXISTS (SELECT 1 FROM pg_largeobject_metadata m"
                            + " WHERE m.oid = data) FROM doc ORDER BY id"
                    : "SELECT id, data, data, true FROM doc ORDER BY id";
            try (Connection c = db.openRaw(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    assertThat(rs.getBoolean(4)).as("row %d at %s names an existing object", rs.getInt(1), Cluster.name(i))
                            .isTrue();
                    actual.put(rs.getInt(1), rs.getBytes(3));
                }
            }
            assertThat(actual.keySet()).as("rows at " + Cluster.name(i)).containsExactlyElementsOf(expected.keySet());
            for (Map.Entry<Integer, byte[]> e : expected.entrySet()) {
                assertThat(actual.get(e.getKey())).as("bytes of row %d at %s", e.getKey(), Cluster.name(i))
                        .isEqualTo(e.getValue());
            }
        }
    }

    private void verifyIdentical() throws SQLException {
        assertThat(cluster.verify("doc").differences()).as("differences").isEmpty();
    }
}
