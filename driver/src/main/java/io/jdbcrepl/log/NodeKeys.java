package io.jdbcrepl.log;

import io.jdbcrepl.config.KeyScheme;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * A node's key scheme as its driver tables record it ({@code repl_keys}, SPEC 8.2): written by the
 * node when it is first connected in a JVM, read by its peers, which refuse to apply from a node
 * whose keys would collide with theirs.
 */
public final class NodeKeys {

    private final ChangeLogSchema tables;

    public NodeKeys(ChangeLogSchema tables) {
        this.tables = tables;
    }

    /** The node's recorded scheme; empty when it records none (or its driver predates repl_keys). */
    public Optional<KeyScheme> read(Connection connection, String node) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT key_step, key_offset FROM " + tables.table("repl_keys")
                + " WHERE node_name = ?")) {
            ps.setString(1, node);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return Optional.empty();
                int step = rs.getInt(1);
                int offset = rs.getInt(2);
                return step >= 1 && offset >= 1 && offset <= step ? Optional.of(new KeyScheme(step, offset)) : Optional.empty();
            }
        }
    }

    /** Records the node's scheme (none: its row removed), in a transaction of its own; unchanged rows are not written. */
    public void write(Connection connection, String node, Optional<KeyScheme> scheme) throws SQLException {
        if (read(connection, node).equals(scheme)) return;
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            try (PreparedStatement ps = connection.prepareStatement("DELETE FROM " + tables.table("repl_keys") + " WHERE node_name = ?")) {
                ps.setString(1, node);
                ps.executeUpdate();
            }
            if (scheme.isPresent()) {
                try (PreparedStatement ps = connection.prepareStatement("INSERT INTO " + tables.table("repl_keys")
                        + " (node_name, key_step, key_offset, updated_at) VALUES (?, ?, ?, " + tables.now() + ")")) {
                    ps.setString(1, node);
                    ps.setInt(2, scheme.get().step());
                    ps.setInt(3, scheme.get().offset());
                    ps.executeUpdate();
                }
            }
            connection.commit();
        } catch (SQLException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }
}
