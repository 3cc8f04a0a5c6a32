package io.jdbcrepl.apply;

import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.log.Position;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code repl_join} (SPEC 8.1): what a join has done, so that a join stopped half way goes on and
 * the appliers know where each table's copy stands. Rows, keyed by (table, source):
 * <ul>
 * <li>({@code *}, '') the join's state, {@code joining} or {@code joined}, and its donor;</li>
 * <li>({@code *}, peer) the position applying from the peer starts at: that of the join's first snapshot;</li>
 * <li>({@code *constraints <table>}, n) the statements that add a created table's foreign keys once
 * every table is copied, recorded before the table is created;</li>
 * <li>(table, '') {@code copying} or {@code copied}, and the rows copied;</li>
 * <li>(table, peer) the position of the snapshot the table was copied in, per source. A table
 * copied in a later snapshot than the first (the join resumed after a crash) already holds the
 * changes between the two: the appliers skip them for that table ({@link CopiedTables}).</li>
 * </ul>
 */
final class JoinState {

    static final String JOIN = "*";
    /** Rows of the join itself start with it; a table's key never does. */
    private static final String CONSTRAINTS = "*constraints ";
    static final String JOINING = "joining";
    static final String JOINED = "joined";
    static final String COPYING = "copying";
    static final String COPIED = "copied";

    private final String table;
    private final String now;

    JoinState(ChangeLogSchema schema) {
        this.table = schema.table("repl_join");
        this.now = schema.now();
    }

    /** The join's state, or null when this node never joined. */
    record Join(String donor, String state, Map<String, Position> start) {
        boolean joined() {
            return JOINED.equals(state);
        }
    }

    Join join(Connection local) throws SQLException {
        String donor = null;
        String state = null;
        Map<String, Position> start = new LinkedHashMap<>();
        try (PreparedStatement ps = local.prepareStatement("SELECT source_node, position, donor FROM " + table
                + " WHERE table_name = ?")) {
            ps.setString(1, JOIN);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getString(1).isEmpty()) {
                        state = rs.getString(2);
                        donor = rs.getString(3);
                    } else {
                        start.put(rs.getString(1), Position.decode(rs.getString(2)));
                    }
                }
            }
        }
        return state == null ? null : new Join(donor, state, start);
    }

    /** A join from {@code donor} begins: what earlier joins recorded goes. In the caller's transaction. */
    void begin(Connection local, String donor) throws SQLException {
        clear(local);
        insert(local, JOIN, "", JOINING, donor, 0);
    }

    /** Where applying from each peer starts, once the first snapshot is taken; in the caller's transaction. */
    void start(Connection local, String donor, Map<String, Position> start) throws SQLException {
        for (Map.Entry<String, Position> e : start.entrySet()) insert(local, JOIN, e.getKey(), e.getValue().encode(), donor, 0);
    }

    /** A created table's foreign keys, to add once every table is copied; in the caller's transaction. */
    void constraints(Connection local, String tableKey, String donor, List<String> statements) throws SQLException {
        delete(local, CONSTRAINTS + tableKey);
        for (int i = 0; i < statements.size(); i++) {
            insert(local, CONSTRAINTS + tableKey, String.format("%06d", i), statements.get(i), donor, 0);
        }
    }

    /** A foreign key still to add: its row and statement. */
    record Constraint(String row, String seq, String sql) {
    }

    /** Every created table's foreign keys still to add, in order. */
    List<Constraint> constraints(Connection local) throws SQLException {
        List<Constraint> out = new ArrayList<>();
        try (PreparedStatement ps = local.prepareStatement("SELECT table_name, source_node, position FROM " + table
                + " WHERE table_name LIKE ? ORDER BY table_name, source_node")) {
            ps.setString(1, CONSTRAINTS + "%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.add(new Constraint(rs.getString(1), rs.getString(2), rs.getString(3)));
            }
        }
        return out;
    }

    /** The foreign key is there; in the transaction that added it where DDL is transactional. */
    void added(Connection local, Constraint c) throws SQLException {
        try (PreparedStatement ps = local.prepareStatement("DELETE FROM " + table + " WHERE table_name = ? AND source_node = ?")) {
            ps.setString(1, c.row());
            ps.setString(2, c.seq());
            ps.executeUpdate();
        }
    }

    /** The join is done, in the transaction that writes the appliers' positions. */
    void finish(Connection local) throws SQLException {
        try (PreparedStatement ps = local.prepareStatement("UPDATE " + table + " SET position = ?, updated_at = " + now
                + " WHERE table_name = ? AND source_node = ''")) {
            ps.setString(1, JOINED);
            ps.setString(2, JOIN);
            ps.executeUpdate();
        }
    }

    /** Per table (as {@link #key}): {@code copying} or {@code copied}. */
    Map<String, String> tables(Connection local) throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (PreparedStatement ps = local.prepareStatement("SELECT table_name, position FROM " + table
                + " WHERE source_node = '' AND table_name NOT LIKE ?")) {
            ps.setString(1, JOIN + "%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.put(rs.getString(1), rs.getString(2));
            }
        }
        return out;
    }

    /** The table's copy begins (its rows here are the join's from now on), in the caller's transaction. */
    void copying(Connection local, String tableKey, String donor) throws SQLException {
        delete(local, tableKey);
        insert(local, tableKey, "", COPYING, donor, 0);
    }

    /** The table is copied as of {@code positions}, in the transaction of its last rows. */
    void copied(Connection local, String tableKey, String donor, long rows, Map<String, Position> positions)
            throws SQLException {
        delete(local, tableKey);
        insert(local, tableKey, "", COPIED, donor, rows);
        for (Map.Entry<String, Position> e : positions.entrySet()) {
            insert(local, tableKey, e.getKey(), e.getValue().encode(), donor, rows);
        }
    }

    /** Each copied table's snapshot position for {@code source} (case-insensitive), by table key. */
    Map<String, Position> copiedPositions(Connection local, String source) throws SQLException {
        Map<String, Position> out = new LinkedHashMap<>();
        try (PreparedStatement ps = local.prepareStatement("SELECT table_name, source_node, position FROM " + table
                + " WHERE table_name NOT LIKE ? AND source_node <> ''")) {
            ps.setString(1, JOIN + "%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getString(2).equalsIgnoreCase(source)) out.put(rs.getString(1), Position.decode(rs.getString(3)));
                }
            }
        }
        return out;
    }

    /** Forgets every join. */
    private void clear(Connection local) throws SQLException {
        try (PreparedStatement ps = local.prepareStatement("DELETE FROM " + table)) {
            ps.executeUpdate();
        }
    }

    /** How a table is named in repl_join: schema.table as stored here, lower case. */
    static String key(String schema, String name) {
        return ((schema == null ? "" : schema + ".") + name).toLowerCase(Locale.ROOT);
    }

    private void delete(Connection local, String tableKey) throws SQLException {
        try (PreparedStatement ps = local.prepareStatement("DELETE FROM " + table + " WHERE table_name = ?")) {
            ps.setString(1, tableKey);
            ps.executeUpdate();
        }
    }

    private void insert(Connection local, String tableKey, String source, String position, String donor, long rows)
            throws SQLException {
        try (PreparedStatement ps = local.prepareStatement("INSERT INTO " + table + " (table_name, source_node, position,"
                + " donor, copied_rows, updated_at) VALUES (?, ?, ?, ?, ?, " + now + ")")) {
            ps.setString(1, tableKey);
            ps.setString(2, source);
            ps.setString(3, position);
            ps.setString(4, donor);
            ps.setLong(5, rows);
            ps.executeUpdate();
        }
    }
}
