package io.jdbcrepl.node;

import io.jdbcrepl.config.KeyScheme;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * SPEC 8.2 on a session: what a connection of a node with a key scheme sets so that the database's
 * own key generator hands out only that node's keys (MariaDB/MySQL: {@code auto_increment_increment}
 * and {@code auto_increment_offset}, per session). Where keys come from sequences the driver
 * arranges them once instead, and this does nothing. A part ({@code dialect.part(KeySession.class)}).
 */
public interface KeySession {

    /** Nothing per session: the database's sequences are arranged instead. */
    KeySession NONE = (connection, scheme) -> { };

    void start(Connection connection, KeyScheme scheme) throws SQLException;

    /**
     * A fresh connection of the node's database as the node's key scheme wants it: every connection
     * the driver opens there (the application's, the apply side's, the command line's) passes here.
     */
    static Connection prepare(Connection raw, io.jdbcrepl.config.ReplConfig config) throws SQLException {
        if (config.keyScheme().isEmpty()) return raw;
        try {
            io.jdbcrepl.dialect.Dialect.forUrl(config.delegateUrl()).part(KeySession.class).start(raw, config.keyScheme().get());
            return raw;
        } catch (SQLException e) {
            try {
                raw.close();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new SQLException("Could not set this session's key scheme (repl.keys.step="
                    + config.keyScheme().get().step() + ", repl.keys.offset=" + config.keyScheme().get().offset() + "): "
                    + e.getMessage(), e.getSQLState(), e);
        }
    }
}
