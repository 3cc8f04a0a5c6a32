package io.jdbcrepl.log;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The version of the driver's tables in a node's database: the one row of {@code repl_version},
 * written by install and read when a node is first connected in a JVM. Each version adds to the
 * one before it ({@link SchemaUpgrades} holds the steps):
 * <ol>
 * <li>the tables of the first release; tables installed before versions were recorded count as 1;</li>
 * <li>{@code repl_progress.subscribed} and {@code rewound} (a source gone back in time);</li>
 * <li>{@code repl_log.signature} and {@code repl_error_lcr.signature} ({@code repl.log.key}), and
 * {@code repl_version} itself.</li>
 * </ol>
 */
public final class SchemaVersion {

    /** The version this driver installs and understands. */
    public static final int CURRENT = 5;
    /** Tables that exist without a recorded version: made before versions were recorded. */
    static final int UNRECORDED = 1;
    /** No driver tables at all. */
    static final int NOTHING = 0;

    private final Dialect dialect;
    private final ChangeLogSchema tables;

    SchemaVersion(Dialect dialect, ChangeLogSchema tables) {
        this.dialect = dialect;
        this.tables = tables;
    }

    /**
     * The recorded version, or null when there is none to read: no {@code repl_version} (tables
     * made before it, or none at all), no row, or a user who may not read it.
     */
    Integer read(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT version FROM " + tables.table("repl_version") + " WHERE id = 1")) {
            return rs.next() ? rs.getInt(1) : null;
        } catch (SQLException unreadable) {
            if (!connection.getAutoCommit()) connection.rollback(); // PostgreSQL: the failed read ended the transaction
            return null;
        }
    }

    /** Records {@code version} as the version of the driver's tables (its table exists). */
    void write(Connection connection, int version) throws SQLException {
        String table = tables.table("repl_version");
        String upsert = dialect.part(LogTableSql.class).upsertVersion(table);
        try (PreparedStatement ps = connection.prepareStatement(upsert)) {
            ps.setInt(1, version);
            ps.executeUpdate();
        }
    }

    /** A version as messages name it. */
    static String describe(int version) {
        return switch (version) {
            case NOTHING -> "no tables";
            case UNRECORDED -> "version 1 (no version recorded: installed before versions were, or this user may not"
                    + " read repl_version)";
            default -> "version " + version;
        };
    }

    /** Tables a later driver installed or upgraded: this one would misread them, so it refuses to connect. */
    static SQLException newer(String schema, int found) {
        return SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.exception(
                "The driver's tables in schema " + schema + " are at version " + found
                + ", newer than this driver understands (version " + CURRENT + "): a later jdbc:repl installed or"
                + " upgraded them; use that version's driver (or a later one) on this node");
    }

    /** Tables older than this driver's, with {@code repl.install=none}: the owner upgrades them. */
    static SQLException olderWithoutInstall(String schema, int found) {
        return SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.exception(
                "The driver's tables in schema " + schema + " are at " + describe(found)
                + ", older than this driver's version " + CURRENT + ", and repl.install=none: upgrade them with the"
                + " CLI's install command as their owner, or set repl.install=auto");
    }
}
