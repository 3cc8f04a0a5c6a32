package io.jdbcrepl.log;

import io.jdbcrepl.dialect.Dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A source's {@code repl_subscriber} (SPEC 4.5): each consumer's position and when it last
 * reported, read by the source's purge. A dropped subscriber keeps its row with
 * {@code dropped_at} set, so that it does not block the purge and is shown in status.
 */
public final class Subscribers {

    private final Dialect dialect;
    private final ChangeLogSchema schema;
    private final String table;

    public Subscribers(Dialect dialect, ChangeLogSchema schema) {
        this.dialect = dialect;
        this.schema = schema;
        this.table = schema.table("repl_subscriber");
    }

    /** One subscriber row; {@code silence} is how long ago it last reported, by the source's clock. */
    public record Subscriber(String name, Position position, Timestamp updatedAt, Timestamp droppedAt, Duration silence) {
    }

    /** Upserts a consumer's position; returns true when the subscriber has been dropped (which stays). */
    public boolean upsert(Connection source, String name, Position at) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement("UPDATE " + table + " SET position = ?, updated_at = "
                + schema.now() + " WHERE name = ?")) {
            ps.setString(1, at.encode());
            ps.setString(2, name);
            if (ps.executeUpdate() == 1) return dropped(source, name);
        }
        String insert = "INSERT INTO " + table + " (name, position, updated_at) VALUES (?, ?, " + schema.now() + ")";
        try (PreparedStatement ps = source.prepareStatement(dialect.part(LogTableSql.class).insertIfAbsent(insert, "name"))) {
            ps.setString(1, name);
            ps.setString(2, at.encode());
            ps.executeUpdate();
        }
        return false;
    }

    /**
     * Keeps everything from {@code at} on for the consumer {@code name} (a node joining, SPEC 8.1):
     * its row says so from now, whatever it said, a drop included; in auto-commit.
     */
    public void pin(Connection source, String name, Position at) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement("UPDATE " + table + " SET position = ?, updated_at = "
                + schema.now() + ", dropped_at = NULL WHERE name = ?")) {
            ps.setString(1, at.encode());
            ps.setString(2, name);
            if (ps.executeUpdate() == 1) return;
        }
        upsert(source, name, at);
    }

    /** The position in a consumer's row, or null when it has none. */
    public Position position(Connection source, String name) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement("SELECT position FROM " + table + " WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Position.decode(rs.getString(1)) : null;
            }
        }
    }

    private boolean dropped(Connection source, String name) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement("SELECT dropped_at FROM " + table + " WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getTimestamp(1) != null;
            }
        }
    }

    /** Runs the subscriber's writes so that they match no row: the database refuses them when the user may not. */
    public void checkWrite(Connection source) throws SQLException {
        try (java.sql.Statement s = source.createStatement()) {
            s.executeUpdate("UPDATE " + table + " SET position = position, updated_at = " + schema.now() + " WHERE 1 = 0");
            s.executeUpdate("INSERT INTO " + table + " (name, position, updated_at) SELECT name, position, updated_at FROM "
                    + table + " WHERE 1 = 0");
        }
    }

    /** The user a connection works as, for messages. */
    public static String user(Connection connection) {
        try {
            return connection.getMetaData().getUserName();
        } catch (SQLException e) {
            return "(unknown)";
        }
    }

    /** Every subscriber row. */
    public List<Subscriber> list(Connection connection) throws SQLException {
        List<Subscriber> out = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT name, position, updated_at, dropped_at, "
                + schema.secondsSince("updated_at") + " FROM " + table
                + " ORDER BY name"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Duration silence = Duration.ofNanos(rs.getBigDecimal(5).movePointRight(9).longValue());
                out.add(new Subscriber(rs.getString(1), Position.decode(rs.getString(2)), rs.getTimestamp(3),
                        rs.getTimestamp(4), silence));
            }
        }
        return out;
    }

    /** Marks a subscriber dropped. */
    void drop(Connection connection, String name) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("UPDATE " + table + " SET dropped_at = " + schema.now()
                + " WHERE name = ? AND dropped_at IS NULL")) {
            ps.setString(1, name);
            ps.executeUpdate();
        }
    }
}
