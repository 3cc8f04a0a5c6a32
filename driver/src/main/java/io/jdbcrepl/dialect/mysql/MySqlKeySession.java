package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.config.KeyScheme;
import io.jdbcrepl.node.KeySession;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * AUTO_INCREMENT hands out values ≡ offset (mod increment) above the table's counter once the
 * session says so: one statement per physical connection (a pool keeps them), which is cheaper to
 * keep right than merging into the connector's own {@code sessionVariables} option, which the user's
 * URL may set too.
 */
final class MySqlKeySession implements KeySession {

    @Override
    public void start(Connection connection, KeyScheme scheme) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("SET SESSION auto_increment_increment = " + scheme.step() + ", auto_increment_offset = " + scheme.offset());
        }
    }
}
