package io.jdbcrepl.apply;

import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.log.Position;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * {@code repl_progress}: the position applied from each source, written in the same local
 * transaction as the changes (SPEC 4.2) and only over the value this applier read (fencing: a
 * second applier that took over makes the update miss, and the first one rolls back). Beside it,
 * {@code subscribed}: the position this node last wrote in the source's {@code repl_subscriber}, and
 * {@code rewound}: why applying from the source stopped when it went back in time (SPEC 8.8), until
 * a person clears it.
 */
final class ProgressStore {

    private final String table;
    private final String now;
    private final String secondsSince;

    ProgressStore(ChangeLogSchema schema) {
        this.table = schema.table("repl_progress");
        this.now = schema.now();
        this.secondsSince = schema.secondsSince("applied_at");
    }

    /** The stored position, or empty for a source never applied from. */
    Optional<Position> read(Connection local, String source) throws SQLException {
        try (PreparedStatement ps = local.prepareStatement("SELECT position FROM " + table + " WHERE source_node = ?")) {
            ps.setString(1, source);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(Position.decode(rs.getString(1))) : Optional.empty();
            }
        }
    }

    /**
     * {@code stored} when it is a position of the kind the source's reader takes ({@code initial}'s);
     * else 55000 naming both nodes and what was found. A source's database replaced by one of another
     * kind under the same peer name leaves such a row: which of its changes this node has already
     * was known only of the old database, so no position is safe to guess.
     */
    static Position ofKind(Position stored, Position initial, String node, String source) throws SQLException {
        if (stored.getClass() == initial.getClass()) return stored;
        throw SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.exception("repl_progress at " + node + " holds "
                + stored.encode() + " for peer " + source + ", the position of " + kind(stored) + " source, but "
                + source + " is now " + kind(initial) + " source (its database was replaced by one of another kind):"
                + " copy the replicated tables again, then delete the row of " + source + " in " + node
                + "'s repl_progress");
    }

    private static String kind(Position p) {
        return p instanceof Position.Snapshot ? "a snapshot (PostgreSQL)" : "an epoch (MariaDB/MySQL, H2)";
    }

    /**
     * Seconds since a transaction from {@code source} was last applied or queued here (both times
     * the database's clock), or -1 when none was.
     */
    long secondsSinceApplied(Connection local, String source) throws SQLException {
        try (PreparedStatement ps = local.prepareStatement("SELECT " + secondsSince + " FROM " + table
                + " WHERE source_node = ? AND applied_at IS NOT NULL")) {
            ps.setString(1, source);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Math.max(0, (long) rs.getDouble(1)) : -1;
            }
        }
    }

    /** {@code rewound}: why applying from {@code source} stopped for good, or null. */
    String rewound(Connection local, String source) throws SQLException {
        return column(local, source, "rewound");
    }

    /** {@code subscribed}: the position last written in the source's repl_subscriber, or null. */
    Position subscribed(Connection local, String source) throws SQLException {
        String s = column(local, source, "subscribed");
        return s == null ? null : Position.decode(s);
    }

    private String column(Connection local, String source, String column) throws SQLException {
        try (PreparedStatement ps = local.prepareStatement("SELECT " + column + " FROM " + table + " WHERE source_node = ?")) {
            ps.setString(1, source);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** Sets {@code subscribed} or {@code rewound} of the source's row and commits. */
    void set(Connection local, String source, String column, String value) throws SQLException {
        try (PreparedStatement ps = local.prepareStatement("UPDATE " + table + " SET " + column + " = ? WHERE source_node = ?")) {
            ps.setString(1, value);
            ps.setString(2, source);
            ps.executeUpdate();
        }
        local.commit();
    }

    /** The stored position, creating the row with {@code initial} when the source is new. Commits. */
    Position load(Connection local, String source, Position initial) throws SQLException {
        Optional<Position> stored = read(local, source);
        if (stored.isPresent()) {
            local.commit();
            return stored.get();
        }
        try (PreparedStatement ps = local.prepareStatement("INSERT INTO " + table
                + " (source_node, position, applied_transactions, queued_transactions) VALUES (?, ?, 0, 0)")) {
            ps.setString(1, source);
            ps.setString(2, initial.encode());
            ps.executeUpdate();
        }
        local.commit();
        return initial;
    }

    /** Sets where applying from {@code source} starts (a join, SPEC 8.1), in the caller's transaction. */
    void start(Connection local, String source, Position at) throws SQLException {
        try (PreparedStatement ps = local.prepareStatement("DELETE FROM " + table + " WHERE source_node = ?")) {
            ps.setString(1, source);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = local.prepareStatement("INSERT INTO " + table
                + " (source_node, position, applied_transactions, queued_transactions) VALUES (?, ?, 0, 0)")) {
            ps.setString(1, source);
            ps.setString(2, at.encode());
            ps.executeUpdate();
        }
    }

    /** The sources this node has a position for. */
    java.util.List<String> sources(Connection local) throws SQLException {
        java.util.List<String> out = new java.util.ArrayList<>();
        try (PreparedStatement ps = local.prepareStatement("SELECT source_node FROM " + table); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }

    /**
     * Moves the position from {@code from} to {@code to}, in the caller's transaction.
     *
     * @throws Fenced when the stored position is no longer {@code from}
     */
    void advance(Connection local, String source, Position from, Position to, String txId, int applied, int queued)
            throws SQLException {
        try (PreparedStatement ps = local.prepareStatement("UPDATE " + table + " SET position = ?, tx_id = COALESCE(?, tx_id),"
                + " applied_transactions = applied_transactions + ?, queued_transactions = queued_transactions + ?,"
                + " applied_at = " + now + " WHERE source_node = ? AND position = ?")) {
            ps.setString(1, to.encode());
            ps.setString(2, txId);
            ps.setLong(3, applied);
            ps.setLong(4, queued);
            ps.setString(5, source);
            ps.setString(6, from.encode());
            if (ps.executeUpdate() != 1) throw new Fenced(source, from);
        }
    }

    /** Another applier moved the position: this one must stop and roll back. */
    static final class Fenced extends SQLException {
        Fenced(String source, Position expected) {
            super("The progress from " + source + " is no longer " + expected.encode()
                    + ": another applier has taken over", SqlState.SERIALIZATION_FAILURE.code());
        }
    }
}
