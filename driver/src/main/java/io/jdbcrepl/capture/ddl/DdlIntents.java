package io.jdbcrepl.capture.ddl;

import io.jdbcrepl.log.LogTableSql;
import io.jdbcrepl.lcr.DdlImage;
import io.jdbcrepl.lcr.Json;
import io.jdbcrepl.node.Node;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The 'capture' rows of {@code repl_ddl}: DDL running on this node whose LCR is not written yet. */
final class DdlIntents {

    private final Node node;
    private final String table;

    DdlIntents(Node node) {
        this.node = node;
        this.table = node.changeLog().table("repl_ddl");
    }

    /** A DDL under way, or left by a session that died. */
    record Intent(String txId, String sessionId, String schema, String table, List<String[]> tables, String newValues,
                  String fingerprint) {

        String command() {
            Object v = Json.readObject(newValues).get(DdlImage.COMMAND);
            return v == null ? null : v.toString();
        }
    }

    void save(Connection c, String txId, String session, DdlCapture.Planned p, String fingerprint) throws SQLException {
        String json = node.dialect().part(LogTableSql.class).jsonParameter();
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (kind, source_node, tx_id, session_id,"
                + " tables_json, schema_name, table_name, new_values, fingerprint) VALUES ('capture', ?, ?, ?, " + json
                + ", ?, ?, " + json + ", ?)")) {
            ps.setString(1, node.name());
            ps.setString(2, txId);
            ps.setString(3, session);
            ps.setString(4, DdlCapture.tablesJson(p.tables()));
            ps.setString(5, p.schema());
            ps.setString(6, p.table());
            ps.setString(7, DdlImage.of(DdlCapture.statementForPeers(p), p.change().command(), p.currentSchema(),
                    node.dialect().name()).valuesJson());
            ps.setString(8, fingerprint);
            ps.executeUpdate();
        }
    }

    /** Deletes the intent; 1 when it was there (a second deleter waits for the first, then finds nothing). */
    int delete(Connection c, String txId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table
                + " WHERE kind = 'capture' AND source_node = ? AND tx_id = ?")) {
            ps.setString(1, node.name());
            ps.setString(2, txId);
            return ps.executeUpdate();
        }
    }

    List<Intent> pending(Connection c) throws SQLException {
        List<Intent> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT tx_id, session_id, schema_name, table_name, tables_json,"
                + " new_values, fingerprint FROM " + table + " WHERE kind = 'capture' AND source_node = ?")) {
            ps.setString(1, node.name());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<String[]> tables = new ArrayList<>();
                    if (Json.read(rs.getString(5)) instanceof List<?> list) {
                        for (Object o : list) {
                            List<?> pair = (List<?>) o;
                            tables.add(new String[] {String.valueOf(pair.get(0)), String.valueOf(pair.get(1))});
                        }
                    }
                    out.add(new Intent(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), tables,
                            rs.getString(6), rs.getString(7)));
                }
            }
        }
        if (!c.getAutoCommit()) c.commit(); // a read of our own: nothing of the application's is open here
        return out;
    }
}
