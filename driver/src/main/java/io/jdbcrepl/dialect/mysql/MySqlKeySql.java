package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.keys.KeySource;
import io.jdbcrepl.keys.KeySql;
import io.jdbcrepl.keys.SequenceState;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * MariaDB/MySQL: AUTO_INCREMENT columns, arranged per session ({@link MySqlKeySession}), and
 * MariaDB's sequences (none on MySQL), arranged once like PostgreSQL's. Of the current database.
 */
final class MySqlKeySql implements KeySql {

    @Override
    public List<KeySource> sources(Connection connection, String driverSchema) throws SQLException {
        List<KeySource> out = new ArrayList<>();
        try (Statement s = connection.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME FROM information_schema.COLUMNS"
                    + " WHERE TABLE_SCHEMA = DATABASE() AND EXTRA LIKE '%auto_increment%' ORDER BY TABLE_NAME")) {
                while (rs.next()) {
                    out.add(new KeySource(rs.getString(1), rs.getString(2), rs.getString(3), null, null,
                            KeySource.Kind.AUTO_INCREMENT));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES"
                    + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'SEQUENCE' ORDER BY TABLE_NAME")) {
                while (rs.next()) {
                    out.add(new KeySource(rs.getString(1), null, null, rs.getString(1), rs.getString(2), KeySource.Kind.SEQUENCE));
                }
            }
        }
        return out;
    }

    @Override
    public Optional<SequenceState> state(Connection connection, KeySource source) throws SQLException {
        if (source.sequence() == null) return Optional.empty(); // AUTO_INCREMENT: the session's settings
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT increment, next_not_cached_value FROM " + name(source))) {
            rs.next();
            return Optional.of(new SequenceState(rs.getLong(1), rs.getLong(2)));
        }
    }

    @Override
    public String restart(KeySource source, long increment, long start) {
        return "ALTER SEQUENCE " + name(source) + " INCREMENT BY " + increment + " RESTART WITH " + start;
    }

    private static String name(KeySource source) {
        return "`" + source.sequenceSchema().replace("`", "``") + "`.`" + source.sequence().replace("`", "``") + "`";
    }
}
